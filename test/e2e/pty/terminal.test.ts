// The real CLI's input paths in a pseudo-terminal: mouse wheel in the pager, a big bracketed paste,
// Esc taking queued messages back, typing before the session is open, and Ctrl-Z / fg. Each test
// waits on what the screen shows (or on the process state), never on time.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { FakeApi } from "../../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { KEY, type PtySession, idle, ptyFixtures } from "./harness.ts";

const fixtures = ptyFixtures();

const api = fixtures.api;
const pty = (args: string[], fake: FakeApi, rows = 30): PtySession => fixtures.pty(args, { cwd: tempProject(), env: isolatedEnv(fake.url), rows });

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const requestsText = (fake: FakeApi) => fake.requests.map((r) => JSON.stringify(r.body)).join("\n");
const WHEEL_UP = "\x1b[<64;20;10M";
const WHEEL_DOWN = "\x1b[<65;20;10M";

describe("pager", () => {
  test("the mouse wheel scrolls the pager; mouse reporting is on only while it shows", async () => {
    const items = Array.from({ length: 80 }, (_, i) => `- item-${String(i + 1).padStart(3, "0")}`).join("\n");
    const fake = await api({ turns: [text(`LIST-START\n\n${items}\n`)] });
    const s = pty([], fake);
    await s.waitFor(idle, "the composer");
    s.type("list");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("item-080") && idle(sc), "the list");
    expect(s.output()).not.toContain("\x1b[?1000h");
    s.send(KEY.ctrlT);
    await s.waitForText(" transcript ");
    await s.waitForText("item-080");
    expect(s.output()).toContain("\x1b[?1000h\x1b[?1006h");
    for (let i = 0; i < 5; i++) s.send(WHEEL_UP);
    await s.waitFor((sc) => !sc.includes("item-080") && sc.includes("item-060"), "the pager to scroll up 15 rows");
    for (let i = 0; i < 5; i++) s.send(WHEEL_DOWN);
    await s.waitForText("item-080");
    s.send("q");
    // The main screen shows again as soon as the alternate one is left; mouse reporting goes off
    // in the same frame or the next, so wait for both (CI once read the output in between).
    const mouseOff = () => s.output().lastIndexOf("\x1b[?1000l") > s.output().lastIndexOf("\x1b[?1000h");
    await s.waitFor((sc) => idle(sc) && mouseOff(), "the main screen with mouse reporting off");
    expect(mouseOff()).toBe(true);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("composer input", () => {
  test("a bracketed paste of 200 lines shows as [pasted 200 lines] and is sent in full", async () => {
    const fake = await api({ turns: [text("GOT-THE-PASTE")] });
    const s = pty([], fake);
    await s.waitFor(idle, "the composer");
    const lines = Array.from({ length: 200 }, (_, i) => `paste-line-${i + 1}`);
    s.type("look: ");
    s.paste(lines.join("\n"));
    await s.waitForText("› look: [pasted 200 lines #1]");
    expect(s.screen()).not.toContain("paste-line-2");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("GOT-THE-PASTE") && idle(sc), "the answer");
    const body = fake.requests[0]!.body as { messages: Array<{ role: string; content: unknown }> };
    const sent = JSON.stringify(body.messages[body.messages.length - 1]!.content);
    expect(sent).toContain(JSON.stringify(`look: ${lines.join("\n")}`).slice(1, -1));
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("Esc with a queued message interrupts and gives the message back to the composer instead of sending it", async () => {
    const fake = await api({
      turns: [
        { pacing: { textChunk: 3, delayMs: 30 }, content: [{ type: "text", text: `SLOW-START ${"lorem ipsum ".repeat(150)}` }] },
        text("SECOND-ANSWER"),
      ],
    });
    const s = pty([], fake);
    await s.waitFor(idle, "the composer");
    s.type("start");
    s.send(KEY.enter);
    await s.waitForText("SLOW-START");
    s.type("later message");
    s.send(KEY.enter);
    await s.waitForText("queued: later message");
    s.send(KEY.esc);
    await s.waitFor((sc) => sc.includes("› later message") && !sc.includes("queued:") && idle(sc.replace("› later message", "› ask anything")), "the message back in the prompt");
    expect(s.all()).toContain("interrupted");
    expect(requestsText(fake)).not.toContain("later message");
    // Sent again, it starts a turn of its own.
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("SECOND-ANSWER") && idle(sc), "the second answer");
    expect(JSON.stringify(fake.requests[1]!.body)).toContain("later message");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("keys typed as soon as the first frame shows are kept; a prompt sent before the session is open runs once it is", async () => {
    const fake = await api({ turns: [text("EARLY-ANSWER")] });
    const s = pty([], fake);
    await s.waitForText("KHAELOR");
    s.type("early bird");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("EARLY-ANSWER") && idle(sc), "the answer");
    expect(s.all()).toContain("› early bird");
    // The composer was there before the session: typing never waited for it.
    expect(s.output()).toContain("type ahead, Enter sends once ready");
    expect(JSON.stringify(fake.requests[0]!.body)).toContain("early bird");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

/** The process state letter from /proc (T: stopped). */
function procState(pid: number): string {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  } catch {
    return "?";
  }
}

/** Resolves when the process is in `state`; polls /proc, since a stop sends no event to its parent here. */
async function waitForState(pid: number, state: string, timeoutMs = 10_000): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (procState(pid) !== state) {
    if (performance.now() > deadline) throw new Error(`process ${pid} never reached state ${state} (now ${procState(pid)})`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe("job control", () => {
  test("Ctrl-Z restores the terminal and stops; on SIGCONT the composer is drawn again and takes keys", async () => {
    const fake = await api({ turns: [] });
    const s = pty([], fake);
    await s.waitFor(idle, "the composer");
    s.type("draft");
    await s.waitForText("› draft");
    const before = s.output().length;
    s.send("\x1a");
    await waitForState(s.pid, "T");
    // The live zone was cleared and the modes we pushed were popped before stopping.
    const suspendBytes = s.output().slice(before);
    expect(suspendBytes).toContain("\x1b[?2004l");
    expect(suspendBytes).toContain("\x1b[?25h");
    await s.waitFor((sc) => !sc.includes("› draft"), "the live zone cleared");
    process.kill(s.pid, "SIGCONT");
    await s.waitForText("› draft");
    expect(s.output().slice(before)).toContain("\x1b[?2004h");
    s.type(" more");
    await s.waitForText("› draft more");
    s.send(KEY.ctrlC);
    await s.waitFor((sc) => !sc.includes("draft"), "the composer cleared");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("Ctrl-Z waits for the answers to the link probes still on their way (a slow link): they never reach the shell as typed text, and after fg nothing is drawn before raw mode is back", async () => {
    const fake = await api({ turns: [] });
    const s = fixtures.pty([], { cwd: tempProject(), env: isolatedEnv(fake.url), replyDelayMs: 80 });
    await s.waitFor(idle, "the composer");
    const before = s.output().length;
    s.type("x");
    await s.waitForText("› x");
    s.send("\x1a");
    await waitForState(s.pid, "T");
    await s.waitFor((sc) => !sc.includes("› x"), "the live zone cleared");
    // A slow link: every frame carries a probe, answered 80 ms later.
    expect(s.output().slice(before)).toContain("\x1b[c");
    // The tty is cooked now and echoes what it is given: an answer that came after the stop shows
    // as ^[[?…c before this marker's echo. The marker goes through the same 80 ms delay as the
    // emulator's answers, so it arrives after every one of them (timers of one delay keep order).
    setTimeout(() => s.type("MARK"), 80);
    await s.waitFor(() => s.output().slice(before).includes("MARK"), "the marker's echo");
    const echoed = s.output().slice(before);
    expect(echoed.slice(0, echoed.indexOf("MARK"))).not.toMatch(/\^\[\[\?[\d;]*c/);
    // The cooked tty's line kill takes the marker back (echoed as erasing it), then fg.
    const killedAt = s.output().length;
    s.send(KEY.ctrlU);
    await s.waitFor(() => s.output().slice(killedAt).includes("\b \b"), "the line kill's echo");
    const contAt = s.output().length;
    process.kill(s.pid, "SIGCONT");
    await s.waitForText("› x");
    setTimeout(() => s.type("y"), 80);
    await s.waitForText("› xy");
    // Nothing was drawn (so nothing asked) while the tty was still cooked after SIGCONT: our modes
    // go back on first, then the frames.
    expect(s.output().slice(contAt).startsWith("\x1b[?2004h")).toBe(true);
    expect(s.output().slice(before)).not.toMatch(/\^\[\[\?[\d;]*c/);
    expect(s.screen()).not.toContain("MARK");
    s.kill();
  }, 60_000);

  test("kill -TSTP on a slow link stops the way Ctrl-Z does: the live zone cleared, no answer reaches the shell", async () => {
    const fake = await api({ turns: [] });
    const s = fixtures.pty([], { cwd: tempProject(), env: isolatedEnv(fake.url), replyDelayMs: 80 });
    await s.waitFor(idle, "the composer");
    const before = s.output().length;
    s.type("x");
    await s.waitForText("› x");
    process.kill(s.pid, "SIGTSTP");
    await waitForState(s.pid, "T");
    await s.waitFor((sc) => !sc.includes("› x"), "the live zone cleared");
    setTimeout(() => s.type("MARK"), 80); // after every answer (see above)
    await s.waitFor(() => s.output().slice(before).includes("MARK"), "the marker's echo");
    const echoed = s.output().slice(before);
    expect(echoed.slice(0, echoed.indexOf("MARK"))).not.toMatch(/\^\[\[\?[\d;]*c/);
    s.kill();
  }, 60_000);

  test("Ctrl-Z while the --resume chooser waits for a pick: after fg the chooser is back and Esc still leaves", async () => {
    const fake = await api({ turns: [text("FIRST-RUN-ANSWER")] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const a = fixtures.pty([], { cwd: dir, env });
    await a.waitFor(idle, "the composer");
    a.type("remember this");
    a.send(KEY.enter);
    await a.waitFor((sc) => sc.includes("FIRST-RUN-ANSWER") && idle(sc), "the first answer");
    a.send(KEY.ctrlD);
    expect(await a.exited).toBe(0);
    const b = fixtures.pty(["--resume"], { cwd: dir, env });
    await b.waitForText("Resume which session?");
    b.send("\x1a");
    await waitForState(b.pid, "T");
    await b.waitFor((sc) => !sc.includes("Resume which session?"), "the chooser cleared");
    process.kill(b.pid, "SIGCONT");
    await b.waitForText("Resume which session?");
    b.send(KEY.esc);
    expect(await b.exited).toBe(0);
  }, 60_000);

  test("a signal during Ctrl-Z's wait for the terminal's answers ends the session: it does not stop halfway through exiting", async () => {
    const fake = await api({ turns: [] });
    const env = isolatedEnv(fake.url);
    // A SessionEnd hook that takes a second: the exit outlasts the wait (at most 300 ms).
    const dir = tempProject();
    const hook = join(dir, "slow-end.sh");
    writeFileSync(hook, "#!/bin/sh\ncat > /dev/null\nsleep 1\n");
    chmodSync(hook, 0o755);
    const settings = join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json");
    mkdirSync(dirname(settings), { recursive: true });
    writeFileSync(settings, JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: "command", command: hook }] }] } }));
    const s = fixtures.pty([], { cwd: dir, env, replyDelayMs: 1000 });
    await s.waitFor(idle, "the composer");
    // Ctrl-Z only waits while a probe is unanswered (with none, it stops at once, and a SIGTERM to
    // a stopped process waits for SIGCONT, as for any program): type until a frame carries one,
    // whose answer then takes a second.
    let typed = "";
    for (let probed = false; !probed; ) {
      if (typed.length > 40) throw new Error("no frame carried a link probe");
      const at = s.output().length;
      typed += "x";
      s.type("x");
      await s.waitForText(`› ${typed}`);
      probed = s.output().slice(at).includes("\x1b[c");
    }
    s.send("\x1a");
    process.kill(s.pid, "SIGTERM");
    expect(await s.exited).toBe(143);
  }, 60_000);
});

describe("line feeds", () => {
  test("in raw mode the tty passes LF as is (no CR added: a byte per line on the wire), after Ctrl-Z and fg too; on the way out it adds CRs again", async () => {
    const fake = await api({ turns: [text("one\n\ntwo\n\nthree")] });
    const s = pty([], fake);
    await s.waitFor(idle, "the composer");
    // The app's first frames may go out before stty has run (it is not waited for at start).
    const ready = s.output().length;
    s.type("go");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("three") && idle(sc), "the answer");
    // The screen writes CR LF where it wants column 0; ONLCR would have made that CR CR LF.
    expect(s.output().slice(ready)).toContain("\r\n");
    expect(s.output().slice(ready)).not.toContain("\r\r\n");
    const before = s.output().length;
    s.send("\x1a");
    await waitForState(s.pid, "T");
    process.kill(s.pid, "SIGCONT");
    await s.waitFor(idle, "the composer again");
    s.type("x");
    await s.waitForText("› x");
    expect(s.output().slice(before)).not.toContain("\r\r\n");
    process.kill(s.pid, "SIGTERM");
    expect(await s.exited).toBe(143);
    // The resume line is written after the tty's own settings are back: its LF arrives as CR LF.
    expect(s.output()).toMatch(/Resume this session with: [^\r\n]*\r\n/);
  }, 60_000);

  test("without ONLCR the screen is the same in tmux's model as in xterm's: an answer that grows row by row under the footer, the user's message and the composer at column 0", async () => {
    const para = (i: number) => `Paragraph ${i} streams word by word and wraps at the edge of the window, ${"so the zone grows a row at a time ".repeat(3)}end ${i}.`;
    const answer = Array.from({ length: 12 }, (_, i) => para(i)).join("\n\n");
    const screens: string[] = [];
    for (const model of ["xterm", "tmux"] as const) {
      const fake = await api({ pacing: { textChunk: 5, delayMs: 1 }, turns: [text(answer)] });
      // Soft wraps are what differ between the two models: "wrap": "edge" makes every paragraph row one.
      const env = isolatedEnv(fake.url);
      mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
      writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify({ wrap: "edge" }));
      const s = fixtures.pty([], { cwd: tempProject(), env, cols: 80, rows: 24, model });
      await s.waitFor(idle, "the composer");
      s.type("go");
      s.send(KEY.enter);
      await s.waitFor((sc) => sc.includes("end 11.") && idle(sc), "the answer");
      s.type("next");
      await s.waitForText("› next");
      expect(s.output()).not.toContain("\r\r\n");
      const lines = s.all().split("\n");
      expect(lines).toContain("› go");
      for (let i = 0; i < 12; i++) expect(lines).toContain(para(i));
      expect(lines.filter((l) => l.startsWith("› next"))).toHaveLength(1);
      // From the prompt on: the header above it names the project, a path of a different length each time.
      const all = s.all();
      screens.push(all.slice(all.indexOf("› go")));
      s.kill();
    }
    expect(screens[1]).toBe(screens[0]!);
  }, 60_000);
});

describe("exit", () => {
  test.each([
    ["a slow link", 80, {}],
    ["a link slower than the start-up probe waits (its DA1 answer comes late too)", 250, { KHAELOR_PROBE_TIMEOUT_MS: "60" }],
  ] as const)("on %s, exit waits for the answers to the link probes on their way: none reaches the shell after us as typed text", async (_what, delay, extra) => {
    const fake = await api({ turns: [] });
    const s = fixtures.pty([], { cwd: tempProject(), env: { ...isolatedEnv(fake.url), ...extra }, replyDelayMs: delay, after: `echo EXITED; IFS= read -r line; printf 'GOT[%s]\\n' "$line"` });
    await s.waitFor(idle, "the composer");
    s.send(KEY.ctrlD);
    await s.waitFor(() => s.output().includes("EXITED"), "the shell after us");
    // Through the same delay as the emulator's answers: the line comes after every one of them.
    setTimeout(() => s.type("MARK\r"), delay);
    await s.waitFor(() => s.output().includes("GOT["), "the shell's read");
    expect(s.output()).toContain("GOT[MARK]");
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("signals", () => {
  test("SIGTERM restores the terminal and still ends the session properly: the resume line, exit code 143", async () => {
    const fake = await api({ turns: [text("BEFORE-TERM")] });
    const s = pty([], fake);
    await s.waitFor(idle, "the composer");
    s.type("hello");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("BEFORE-TERM") && idle(sc), "the answer");
    process.kill(s.pid, "SIGTERM");
    expect(await s.exited).toBe(143);
    expect(s.all()).toMatch(/Resume this session with: khaelor --resume \S+/);
    expect(s.all()).not.toContain("ask anything");
    const tail = s.output().slice(s.output().lastIndexOf("BEFORE-TERM"));
    expect(tail).toContain("\x1b[?2004l");
  }, 60_000);
});

describe("startup failure", () => {
  test("a session that cannot open (no API key) leaves a clean screen and says what to do", async () => {
    const env = isolatedEnv(null);
    delete env.ANTHROPIC_API_KEY;
    const s = fixtures.pty([], { cwd: tempProject(), env });
    expect(await s.exited).toBe(1);
    expect(s.all()).toContain("khaelor: ANTHROPIC_API_KEY is not set");
    expect(s.screen()).not.toContain("type ahead");
    expect(s.output().slice(s.output().lastIndexOf("type ahead"))).toContain("\x1b[?2004l");
  }, 60_000);
});
