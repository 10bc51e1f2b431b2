// The daily terminal conveniences in the real CLI, in a pseudo-terminal (issue 18): Ctrl-G / /edit
// through a scripted $EDITOR. Each test waits on the screen, never on time.
import { describe, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeApi } from "../../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { KEY, type PtySession, idle, ptyFixtures } from "./harness.ts";

const fixtures = ptyFixtures();
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const CTRL_G = "\x07";

/** A shell script as the editor: `body` runs with the file as $1. */
function script(dir: string, name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function start(fake: FakeApi, extra: Record<string, string>, cwd = tempProject()): PtySession {
  return fixtures.pty([], { cwd, env: isolatedEnv(fake.url, extra) });
}

describe("$EDITOR", () => {
  test("Ctrl-G round-trips the prompt through the editor, with the terminal cooked while it runs; the edited text is sent", async () => {
    const fake = await fixtures.api({ turns: [text("GOT-IT")] });
    const dir = tempProject();
    // Records the tty's mode as the editor sees it, then rewrites the file (keeping a final newline, as editors do).
    const editor = script(dir, "ed.sh", `stty -a </dev/tty | grep -o -- '-\\?icanon' | head -1 > "${dir}/mode"\n{ printf 'EDITED '; cat "$1"; printf '\\nsecond line\\n'; } > "$1.new" && mv "$1.new" "$1"`);
    const s = start(fake, { EDITOR: editor, VISUAL: "" });
    await s.waitFor(idle, "the composer");
    s.type("draft words");
    await s.waitForText("› draft words");
    s.send(CTRL_G);
    await s.waitForText("EDITED draft words");
    await s.waitForText("second line");
    expect(readFileSync(join(dir, "mode"), "utf8").trim()).toBe("icanon");
    // The keys work again (raw mode is back): the edited text is what is sent.
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("GOT-IT") && idle(sc), "the answer");
    expect(JSON.stringify(fake.requests[0]?.body)).toContain("EDITED draft words\\nsecond line");
  });

  test("/edit uses $VISUAL before $EDITOR", async () => {
    const fake = await fixtures.api({ turns: [] });
    const dir = tempProject();
    const visual = script(dir, "visual.sh", `printf 'FROM-VISUAL\\n' > "$1"`);
    const editor = script(dir, "editor.sh", `printf 'FROM-EDITOR\\n' > "$1"`);
    const s = start(fake, { VISUAL: visual, EDITOR: editor });
    await s.waitFor(idle, "the composer");
    s.type("/edit");
    await s.waitForText("› /edit");
    s.send(KEY.enter);
    await s.waitForText("› FROM-VISUAL");
    expect(s.screen()).not.toContain("FROM-EDITOR");
  });

  test("an editor that does not exist, or exits non-zero, leaves the prompt as it was and says why", async () => {
    const fake = await fixtures.api({ turns: [] });
    const dir = tempProject();
    const failing = script(dir, "fail.sh", `printf 'CLOBBERED\\n' > "$1"; exit 3`);
    const s = start(fake, { EDITOR: "/nonexistent/editor-xyz", VISUAL: "" });
    await s.waitFor(idle, "the composer");
    s.type("keep me");
    await s.waitForText("› keep me");
    s.send(CTRL_G);
    await s.waitForText("command not found; the prompt is as it was");
    expect(s.screen()).toContain("› keep me");

    const t = start(fake, { EDITOR: failing, VISUAL: "" });
    await t.waitFor(idle, "the composer");
    t.type("keep me too");
    await t.waitForText("› keep me too");
    t.send(CTRL_G);
    await t.waitForText("exited with status 3; the prompt is as it was");
    expect(t.screen()).toContain("› keep me too");
    expect(t.screen()).not.toContain("CLOBBERED");
  });
});
