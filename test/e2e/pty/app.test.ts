// The real CLI in a pseudo-terminal against the fake Messages API, read through a real terminal
// emulator. Each test waits on what the screen shows; none sleeps.
import { beforeAll, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import type { FakeApi } from "../../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { answerPrompt, KEY, type PtySession, idle, ptyFixtures } from "./harness.ts";

const fixtures = ptyFixtures();

const api = fixtures.api;
const pty = (args: string[], env: Record<string, string>, cwd: string, cols = 100, rows = 30): PtySession => fixtures.pty(args, { cwd, env, cols, rows });

const ANSWER = `# Plan

Some **bold** words, then a table:

| a | b |
|---|---|
| 1 | 2 |

\`\`\`js
const x = 1;
\`\`\`
`;

describe("a session in a terminal", () => {
  let fake: FakeApi;
  let env: Record<string, string>;
  let dir: string;
  let sessionId = "";

  beforeAll(async () => {
    fake = await api({
      turns: [
        { content: [{ type: "text", text: ANSWER }, { type: "tool_use", name: "bash", input: { command: "touch made.txt && echo hello-from-bash", description: "Say hello" } }] },
        { content: [{ type: "text", text: "All done: FINAL-ANSWER." }] },
      ],
    });
    env = isolatedEnv(fake.url);
    dir = tempProject();
  }, 60_000);

  test("prompt, streamed answer, permission panel, pager with search, resize, exit with one line", async () => {
    const s = pty([], env, dir);
    await s.waitFor(idle, "the composer");
    s.type("please run it");
    await s.waitForText("› please run it");
    s.send(KEY.enter);
    await s.waitForText("Permission needed");
    expect(s.screen()).toContain("command: touch made.txt && echo hello-from-bash");
    expect(s.screen()).toContain("[y] allow once");
    await answerPrompt(s, "y");
    await s.waitFor((sc) => sc.includes("FINAL-ANSWER") && idle(sc), "the final answer");
    const all = s.all();
    // History holds each piece once, in order.
    expect(all.split("› please run it").length).toBe(2);
    expect(all.indexOf("Plan")).toBeLessThan(all.indexOf("✓ bash: Say hello"));
    expect(all).toContain("│ hello-from-bash");
    expect(all.split("All done: FINAL-ANSWER.").length).toBe(2);
    expect(all).toContain("│ 1 │ 2 │");
    // The code block reached history highlighted.
    const lines = s.term.lines();
    const at = lines.findIndex((l) => l.includes("const x = 1;"));
    expect(at).toBeGreaterThanOrEqual(0);
    expect(s.term.cellStyle(at, lines[at]!.indexOf("const"))?.fg).not.toBe("default");

    // The pager: alternate screen, search, and back to exactly the same screen.
    const before = s.screen();
    s.send(KEY.ctrlT);
    await s.waitForText(" transcript ");
    s.type("/hello");
    await s.waitForText("/hello");
    s.send(KEY.enter);
    await s.waitForText("match 1/");
    s.send(KEY.esc);
    await s.waitFor((sc) => !sc.includes(" transcript "), "the pager to close");
    expect(s.screen()).toBe(before);

    // Resize: the live zone is redrawn at the new width; nothing of it is left behind.
    s.resize(50, 14);
    await s.waitFor((sc) => sc.split("\n").some((l) => l.startsWith("⏵ ask before edits") && l.length <= 50), "a narrow status line");
    expect(s.screen().split("ask anything").length).toBe(2);

    // The exit line's cost reads as the status line's does ($0.009, not $0.0090).
    const statusLine = () => s.screen().split("\n").find((l) => l.startsWith("⏵") && /\$\d+\.\d+$/.test(l)) ?? "";
    await s.waitFor(() => statusLine() !== "", "the status line with the cost");
    const statusCost = /\$\d+\.\d+$/.exec(statusLine())![0];
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    const out = s.all();
    const m = /Resume this session with: khaelor --resume (\S+)\s+\(cost \$[\d.]+\)/.exec(out);
    expect(m).not.toBeNull();
    expect(m![0].endsWith(`(cost ${statusCost})`)).toBe(true);
    sessionId = m![1]!;
    expect(out).not.toContain("ask anything");
    expect(s.output()).not.toContain("\x1b[2J");
    expect(s.output()).not.toContain("\x1b[3J");
  }, 60_000);

  test("--resume shows the last turns and the whole session in the pager", async () => {
    expect(sessionId).not.toBe("");
    const s = pty(["--resume", sessionId], env, dir);
    await s.waitFor(idle, "the composer");
    expect(s.all()).toContain("All done: FINAL-ANSWER.");
    s.send(KEY.ctrlT);
    await s.waitForText(" transcript ");
    s.send(KEY.home);
    await s.waitForText("› please run it");
    s.send("q");
    await s.waitFor(idle, "the composer again");
    s.send(KEY.ctrlC);
    await s.waitForText("press Ctrl-C again");
    s.send(KEY.ctrlC);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("working while the agent works", () => {
  test("a message sent mid-turn is queued, then delivered at the next step; Esc interrupts a stream", async () => {
    const slow = { textChunk: 4, delayMs: 25 };
    const fake = await api({
      turns: [
        { pacing: slow, content: [{ type: "text", text: `STREAM-START ${"lorem ipsum ".repeat(30)}` }, { type: "tool_use", name: "bash", input: { command: "echo step" } }] },
        { content: [{ type: "text", text: "GOT-IT" }] },
        { pacing: { textChunk: 3, delayMs: 40 }, content: [{ type: "text", text: `LONG-ANSWER ${"dolor sit amet ".repeat(200)}` }] },
      ],
    });
    const s = pty(["--allowedTools", "Bash"], isolatedEnv(fake.url), tempProject());
    await s.waitFor(idle, "the composer");
    s.type("start");
    s.send(KEY.enter);
    await s.waitForText("STREAM-START");
    s.type("also this");
    s.send(KEY.enter);
    await s.waitForText("queued: also this");
    await s.waitFor((sc) => sc.includes("GOT-IT") && idle(sc), "the answer after the queued message");
    expect(s.screen()).not.toContain("queued:");
    expect(s.all()).toContain("› also this");
    expect(fake.requests.some((r) => JSON.stringify(r.body).includes("also this"))).toBe(true);

    s.type("go on");
    s.send(KEY.enter);
    await s.waitForText("LONG-ANSWER");
    s.send(KEY.esc);
    await s.waitFor((sc) => sc.includes("interrupted") && idle(sc), "the interruption");
    expect(s.all()).toContain("LONG-ANSWER");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("composer helpers", () => {
  test("slash completion runs /help; Shift+Tab cycles the mode; @ completes a file from ripgrep's list", async () => {
    const fake = await api({ turns: [] });
    const dir = tempProject();
    await Bun.write(`${dir}/README.md`, "# hi\n");
    await Bun.write(`${dir}/src/main.ts`, "export {};\n");
    await Bun.write(`${dir}/with space.txt`, "x\n");
    const s = pty([], isolatedEnv(fake.url), dir);
    await s.waitFor(idle, "the composer");
    s.type("/he");
    await s.waitFor((sc) => sc.includes("❯ /help"), "the command picker");
    s.send(KEY.enter);
    // The listing is taller than the screen: its head is in the scrollback.
    await s.waitFor(() => s.all().includes("Commands:"), "the /help listing");
    expect(s.all()).toContain("/undo — put back what the last agent turn changed");
    s.send(KEY.shiftTab);
    await s.waitForText("⏵ accept edits");
    s.send(KEY.shiftTab);
    await s.waitForText("⏵ plan mode");
    s.type("look at @mai");
    await s.waitFor((sc) => sc.includes("❯ src/main.ts"), "the file picker");
    s.send(KEY.tab);
    await s.waitForText("› look at @src/main.ts");
    // A path with a space is quoted, so it reads as one mention.
    s.type("and @wispa");
    await s.waitFor((sc) => sc.includes("❯ with space.txt"), "the file picker");
    s.send(KEY.tab);
    await s.waitForText('› look at @src/main.ts and @"with space.txt"');
    s.send(KEY.ctrlC);
    await s.waitFor((sc) => !sc.includes("look at"), "the composer cleared");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("robustness", () => {
  test("a 20×6 terminal with CJK, emoji and long lines; resizing mid-stream", async () => {
    const fake = await api({
      pacing: { textChunk: 5, delayMs: 10 },
      turns: [{ content: [{ type: "text", text: `漢字とかな 👩‍👩‍👧 emoji\n\n${"x".repeat(300)}\n\n\ttabbed\n\nEND-MARK` }] }],
    });
    const s = pty([], isolatedEnv(fake.url), tempProject(), 20, 6);
    await s.waitFor((sc) => sc.includes("› "), "the composer");
    s.type("hi");
    s.send(KEY.enter);
    await s.waitForText("漢字");
    s.resize(33, 9);
    s.resize(20, 6);
    await s.waitFor(() => s.all().includes("END-MARK"), "the end of the answer");
    await s.waitFor((sc) => sc.includes("› ") && !sc.includes("»"), "the agent to finish");
    for (const line of s.term.lines()) expect(line.length).toBeLessThanOrEqual(40);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("TERM=dumb falls back to print-style output", async () => {
    const fake = await api({ turns: [{ content: [{ type: "text", text: "plain answer" }] }] });
    const s = pty(["hello"], { ...isolatedEnv(fake.url), TERM: "dumb" }, tempProject());
    expect(await s.exited).toBe(0);
    expect(s.output()).toContain("plain answer");
    expect(s.output()).not.toContain("\x1b[");
  }, 60_000);
});

describe("the demo", () => {
  test("--demo removes its sample project on exit and offers no resume command that could not work", async () => {
    const s = pty(["--demo"], isolatedEnv(null), tempProject());
    await s.waitForText("Sample project: ");
    const dir = /Sample project: (\S+)/.exec(s.all())?.[1] ?? "";
    expect(existsSync(dir)).toBe(true);
    await s.waitForText("Scripted demo");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    expect(existsSync(dir)).toBe(false);
    expect(s.all()).toContain("Demo over");
    expect(s.all()).not.toContain("khaelor --resume");
  }, 60_000);
});
