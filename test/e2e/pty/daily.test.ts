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

describe("/copy", () => {
  const ANSWER = "# Plan\n\n1. Read `parser.ts`\n2. Fix **the** bug\n\n```ts\nconst x = 1;\n```";
  const osc52Payloads = (out: string) => [...out.matchAll(/\x1b\]52;c;([A-Za-z0-9+/=]*)\x07/g)].map((m) => Buffer.from(m[1] ?? "", "base64").toString("utf8"));

  async function answered(s: PtySession, what: string, shows = "Fix the bug"): Promise<void> {
    await s.waitFor(idle, "the composer");
    s.type(what);
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes(shows) && idle(sc), "the answer");
  }

  async function run(s: PtySession, line: string, shows: string): Promise<void> {
    s.type(line);
    await s.waitForText(`› ${line}`);
    s.send(KEY.enter);
    await s.waitForText(shows);
  }

  test("writes an OSC 52 carrying the answer's markdown source; /copy 2 the one before; in tmux also wrapped for passthrough", async () => {
    const fake = await fixtures.api({ turns: [text("FIRST answer"), text(ANSWER)] });
    const s = start(fake, {});
    await answered(s, "one", "FIRST answer");
    await answered(s, "two");
    await run(s, "/copy", "Copied the last answer (8 lines of markdown) to the terminal's clipboard (OSC 52)");
    expect(osc52Payloads(s.output())).toEqual([ANSWER]);
    await run(s, "/copy 2", "Copied answer 2 from the end");
    expect(osc52Payloads(s.output())).toEqual([ANSWER, "FIRST answer"]);
    await run(s, "/copy 3", "There are fewer than 3 answers to copy.");

    const fake2 = await fixtures.api({ turns: [text(ANSWER)] });
    const t = start(fake2, { TMUX: "/tmp/tmux-1000/default,1,0" });
    await answered(t, "one");
    await run(t, "/copy", "OSC 52 through tmux");
    const out = t.output();
    // Once bare (for tmux's own clipboard handling), once inside the passthrough.
    expect(osc52Payloads(out)).toEqual([ANSWER, ANSWER]);
    const b64 = Buffer.from(ANSWER).toString("base64");
    expect(out).toContain(`\x1bPtmux;\x1b\x1b]52;c;${b64}\x07\x1b\\`);
  });

  test("a terminal that ignores OSC 52 gets the platform's clipboard command; without one, and when too large, it says so", async () => {
    const big = "word ".repeat(16_000); // 80 KB: past 100 KB once encoded
    const fake = await fixtures.api({ turns: [text(ANSWER), text(big)] });
    const dir = tempProject();
    // A stand-in xclip on PATH (found only with DISPLAY set, as the real one would be used).
    script(dir, "xclip", `cat > "${dir}/clip"`);
    const s = start(fake, { TERM_PROGRAM: "Apple_Terminal", DISPLAY: ":0", PATH: `${dir}:${process.env.PATH}` });
    await answered(s, "one");
    await run(s, "/copy", "to the clipboard (xclip)");
    expect(readFileSync(join(dir, "clip"), "utf8")).toBe(ANSWER);
    expect(osc52Payloads(s.output())).toEqual([]);

    const fake2 = await fixtures.api({ turns: [text(ANSWER), text(big)] });
    const t = start(fake2, { TERM_PROGRAM: "Apple_Terminal" });
    await answered(t, "one");
    await run(t, "/copy", "does not take OSC 52 copies and no clipboard command");
    await answered(t, "two", "word word");
    await run(t, "/copy", "too large to copy through the terminal");
    expect(osc52Payloads(t.output())).toEqual([]);
  });
});
