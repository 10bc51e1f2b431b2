// The daily terminal conveniences in the real CLI, in a pseudo-terminal (issue 18): Ctrl-G / /edit
// through a scripted $EDITOR, /copy's OSC 52, notifications while the window is away. Each test waits on the screen, never on time.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FakeApi } from "../../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { KEY, type PtySession, idle, promptArmed, ptyFixtures } from "./harness.ts";

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

  test("Ctrl-G on a slow link waits for the answers to the link probes on their way: none reaches the editor as keys", async () => {
    const fake = await fixtures.api({ turns: [] });
    const dir = tempProject();
    // Reads the tty raw up to a Q and records what came before it.
    const editor = script(dir, "ed.sh", [
      `touch "${dir}/started"`,
      "stty raw -echo </dev/tty",
      'got=""',
      'while :; do c=$(dd bs=1 count=1 </dev/tty 2>/dev/null); [ "$c" = Q ] && break; got="$got$c"; done',
      `printf '%s' "$got" > "${dir}/got"`,
      `printf 'EDITED\\n' > "$1"`,
    ].join("\n"));
    const s = fixtures.pty([], { cwd: tempProject(), env: isolatedEnv(fake.url, { EDITOR: editor, VISUAL: "" }), replyDelayMs: 80 });
    await s.waitFor(idle, "the composer");
    s.type("draft");
    await s.waitForText("› draft");
    s.send(CTRL_G);
    for (let i = 0; !existsSync(join(dir, "started")); i++) {
      if (i > 1000) throw new Error("the editor never started");
      await new Promise((r) => setTimeout(r, 10));
    }
    // Through the same 80 ms delay as the emulator's answers: the Q comes after every one of them.
    setTimeout(() => s.type("Q"), 80);
    await s.waitForText("› EDITED");
    expect(readFileSync(join(dir, "got"), "utf8")).toBe("");
  });

  test("Ctrl-G twice while the first waits for the terminal's answers opens one editor, on the prompt as it is", async () => {
    const fake = await fixtures.api({ turns: [] });
    const dir = tempProject();
    const editor = script(dir, "ed.sh", `{ printf 'run['; cat "$1"; printf ']\\n'; } >> "${dir}/log"\nprintf 'EDITED\\n' > "$1"`);
    const s = fixtures.pty([], { cwd: tempProject(), env: isolatedEnv(fake.url, { EDITOR: editor, VISUAL: "" }), replyDelayMs: 150 });
    await s.waitFor(idle, "the composer");
    s.type("draft");
    await s.waitForText("› draft");
    s.send(CTRL_G + CTRL_G);
    await s.waitForText("› EDITED");
    // A key typed after the editor is back: once it shows, any second editor would have run.
    s.type("!");
    await s.waitForText("› EDITED!");
    expect(readFileSync(join(dir, "log"), "utf8")).toBe("run[draft]\n");
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

  // Where each terminal's copy goes (OSC 52, twice in tmux, a clipboard command, none, too large)
  // is a table of copyToClipboard (test/tui/term/clipboard.test.ts); here the app's part.
  test("writes an OSC 52 carrying the answer's markdown source; /copy 2 the one before", async () => {
    const fake = await fixtures.api({ turns: [text("FIRST answer"), text(ANSWER)] });
    const s = start(fake, {});
    await answered(s, "one", "FIRST answer");
    await answered(s, "two");
    await run(s, "/copy", "Copied the last answer (8 lines of markdown) to the terminal's clipboard (OSC 52)");
    expect(osc52Payloads(s.output())).toEqual([ANSWER]);
    await run(s, "/copy 2", "Copied answer 2 from the end");
    expect(osc52Payloads(s.output())).toEqual([ANSWER, "FIRST answer"]);
    await run(s, "/copy 3", "There are fewer than 3 answers to copy.");
  });

  test("a terminal that ignores OSC 52 gets the platform's clipboard command found on PATH; its failure is said", async () => {
    const fake = await fixtures.api({ turns: [text(ANSWER)] });
    const dir = tempProject();
    // A stand-in xclip on PATH (found only with DISPLAY set, as the real one would be used); it
    // takes one copy, then fails, as a clipboard that went away would.
    script(dir, "xclip", `[ -e "${dir}/clip" ] && exit 1\ncat > "${dir}/clip"`);
    const s = start(fake, { TERM_PROGRAM: "Apple_Terminal", DISPLAY: ":0", PATH: `${dir}:${process.env.PATH}` });
    await answered(s, "one");
    await run(s, "/copy", "to the clipboard (xclip)");
    expect(readFileSync(join(dir, "clip"), "utf8")).toBe(ANSWER);
    await run(s, "/copy", "Could not copy the last answer: xclip failed (exit 1)");
    expect(osc52Payloads(s.output())).toEqual([]);
  });
});

describe("notifications", () => {
  const FOCUS_OUT = "\x1b[O";
  const FOCUS_IN = "\x1b[I";
  const bashCall = { content: [{ type: "tool_use" as const, name: "bash", input: { command: "touch x.txt" } }] };

  /** Goes away (or not), then starts a turn that asks; the output from the moment the prompt was asked for. */
  async function promptWhile(env: Record<string, string>, focus: string[]): Promise<{ s: PtySession; before: number }> {
    const fake = await fixtures.api({ turns: [bashCall, text("DONE")] });
    const s = start(fake, env);
    await s.waitFor(idle, "the composer");
    for (const f of focus) s.send(f);
    s.type("go");
    await s.waitForText("› go");
    const before = s.output().length;
    s.send(KEY.enter);
    await s.waitForText("Permission needed");
    return { s, before };
  }

  // Which bytes each terminal gets, and "off", are a table of notificationSequence
  // (test/tui/term/notify.test.ts); here the app's part: away or not, the setting read at start.
  test("a permission prompt that waits while the window is away notifies, through tmux's passthrough in tmux", async () => {
    const tmux = await promptWhile({ TMUX: "/tmp/tmux-1000/default,1,0", KITTY_WINDOW_ID: "1" }, [FOCUS_OUT]);
    await tmux.s.waitFor(() => tmux.s.output().slice(tmux.before).includes("\x1bPtmux;\x1b\x1b]9;KHAELOR: waiting for your permission\x07\x1b\\"), "OSC 9 in tmux's passthrough");
  });

  test("never while focused (the window came back)", async () => {
    const back = await promptWhile({ TERM_PROGRAM: "WezTerm" }, [FOCUS_OUT, FOCUS_IN]);
    // The prompt is fully drawn and armed: a notification would have been written before this.
    await back.s.waitFor(() => promptArmed(back.s), "the prompt to take keys");
    expect(back.s.output().slice(back.before)).not.toContain("\x1b]9;");
    expect(back.s.output().slice(back.before)).not.toContain("\x07");
  });
});

describe("notifications at a turn's end", () => {
  const FOCUS_OUT = "\x1b[O";
  const TURN_OVER = "\x1b]9;KHAELOR: the turn is over\x07";

  /** A turn run while away (or not); "notifyAfterSeconds" makes any turn long enough, so no test waits on time. */
  async function turn(env: Record<string, string>, settings: object, away: boolean): Promise<string> {
    const fake = await fixtures.api({ turns: [text("DONE")] });
    const base = isolatedEnv(fake.url);
    mkdirSync(join(base.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
    writeFileSync(join(base.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify(settings));
    const s = fixtures.pty([], { cwd: tempProject(), env: { ...base, ...env } });
    await s.waitFor(idle, "the composer");
    if (away) s.send(FOCUS_OUT);
    s.type("go");
    await s.waitForText("› go");
    const before = s.output().length;
    s.send(KEY.enter);
    // The notification is written before the frame that shows the turn over.
    await s.waitFor((sc) => sc.includes("DONE") && idle(sc), "the answer");
    return s.output().slice(before);
  }

  test("a long turn that ends while the window is away notifies; never for a short turn, nor with \"notifications\": \"off\"", async () => {
    expect(await turn({ TERM_PROGRAM: "WezTerm" }, { notifyAfterSeconds: 0 }, true)).toContain(TURN_OVER);
    // The default threshold (5 s): this turn took far less.
    expect(await turn({ TERM_PROGRAM: "WezTerm" }, {}, true)).not.toContain("\x1b]9;");
    expect(await turn({ TERM_PROGRAM: "WezTerm" }, { notifyAfterSeconds: 0, notifications: "off" }, true)).not.toContain("\x1b]9;");
  }, 120_000);
});

describe("dontAsk", () => {
  test("--permission-mode dontAsk denies what would ask without a prompt, the turn goes on; Shift+Tab cycles back into it", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "touch denied.txt" } }] }, text("CARRIED-ON")] });
    const dir = tempProject();
    const s = fixtures.pty(["--permission-mode", "dontAsk"], { cwd: dir, env: isolatedEnv(fake.url) });
    await s.waitFor(idle, "the composer");
    expect(s.screen()).toContain("⏵ don't ask");
    s.type("go");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("CARRIED-ON") && idle(sc), "the answer after the denial");
    expect(s.all()).not.toContain("Permission needed");
    expect(JSON.stringify(fake.requests[1]?.body)).toContain("dontAsk mode denies what would ask");
    expect(existsSync(join(dir, "denied.txt"))).toBe(false);
    const modes: string[] = [];
    for (const want of ["ask before edits", "accept edits", "plan mode", "don't ask"]) {
      s.send(KEY.shiftTab);
      await s.waitForText(`⏵ ${want}`);
      modes.push(want);
    }
    expect(modes).toHaveLength(4);
  });
});

describe("wrap", () => {
  const PROSE = "Wrapping between words keeps every single word of this sentence whole on its row when asked to.";
  const WORDS = PROSE.replace(/\.$/, "").split(" ");

  async function answerRows(wrap: string | null): Promise<string[]> {
    const fake = await fixtures.api({ turns: [text(PROSE)] });
    const env = isolatedEnv(fake.url);
    if (wrap) {
      mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
      writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify({ wrap }));
    }
    const s = fixtures.pty([], { cwd: tempProject(), env, cols: 30 });
    await s.waitFor(idle, "the composer");
    s.type("go");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("to.") && idle(sc), "the answer");
    return s.term.lines().map((l) => l.trimEnd());
  }

  test('by default (and with "wrap": "words") the answer breaks between words; "wrap": "edge" cuts a word at the edge', async () => {
    const split = (rows: string[]) => WORDS.filter((w) => !rows.some((r) => r.split(/\s+/).includes(w) || r.split(/\s+/).includes(`${w}.`)));
    expect(split(await answerRows(null))).toEqual([]);
    expect(split(await answerRows("words"))).toEqual([]);
    expect(split(await answerRows("edge")).length).toBeGreaterThan(0);
  });
});
