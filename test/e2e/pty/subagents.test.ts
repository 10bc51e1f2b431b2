// Subagents in the real app, in a pseudo-terminal against the fake Messages API answering each
// child by its first user message: two children run at once, each with a live row under its call
// (type, model, the tool it runs now, tokens, cost), and each row collapses to a one-line summary
// when its child ends; Ctrl-T then `a` pages through each child's whole conversation. The children
// are held in their tool (a `cat` of a FIFO the test opens), so "both running" is the test's
// order, not the clock's.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, runCli, tempProject } from "../../support/cli.ts";
import { KEY, type PtySession, answerPrompt, idle, ptyFixtures, submit } from "./harness.ts";

const fixtures = ptyFixtures();

const child = (name: string, gate: string) => ({
  firstMessage: `^${name} task`,
  turns: [
    { content: [{ type: "text" as const, text: `${name} reads its gate.` }, { type: "tool_use" as const, name: "bash", input: { command: `cat ${gate}`, description: `wait on ${gate}` } }] },
    { content: [{ type: "text" as const, text: `${name} says: the gate said ${gate}-open.` }] },
  ],
});

const rowsWith = (s: PtySession, text: string) => s.term.lines().filter((l) => l.includes(text));

/** Opens a FIFO for writing and writes a line: the child blocked in `cat` reads it and goes on. */
function openGate(path: string): void {
  writeFileSync(path, `${path.split("/").pop()}-open\n`);
}

describe("subagents in the app", () => {
  test("two children run at once: a live row each (type, model, its tool, tokens, cost), then a one-line summary; Ctrl-T, a shows each child's conversation", async () => {
    const fake = await fixtures.api({
      turns: [
        {
          content: [
            { type: "text", text: "Delegating." },
            { type: "tool_use", id: "toolu_a", name: "agent", input: { description: "probe alpha", prompt: "ALPHA task: read gate-a", subagent_type: "general-purpose" } },
            { type: "tool_use", id: "toolu_b", name: "agent", input: { description: "probe beta", prompt: "BETA task: read gate-b", subagent_type: "general-purpose", model: "haiku" } },
          ],
        },
        { content: [{ type: "text", text: "BOTH AGENTS ANSWERED." }] },
      ],
      routes: [child("ALPHA", "gate-a"), child("BETA", "gate-b")],
    });
    const dir = tempProject();
    execFileSync("mkfifo", [join(dir, "gate-a"), join(dir, "gate-b")]);
    const s = fixtures.pty(["--permission-mode", "bypassPermissions"], { cwd: dir, env: isolatedEnv(fake.url), cols: 120, rows: 36 });
    await submit(s, "look at both gates");
    // Both children sit in their bash call at once: each row names its tool and what it runs.
    await s.waitFor(() => rowsWith(s, "⎿").filter((l) => /Bash\(wait on gate-[ab]\)/.test(l)).length === 2, "two live agent rows, each in its bash call");
    const capture = s.screen();
    writeFileSync(process.env.KHAELOR_PTY_CAPTURE ?? join(dir, "capture.txt"), capture);
    const alpha = rowsWith(s, "wait on gate-a")[0]!;
    const beta = rowsWith(s, "wait on gate-b")[0]!;
    expect(alpha).toMatch(/general-purpose · claude-[\w.-]+ · Bash\(wait on gate-a\) · \d[\d.k]* tokens · \$\d+\.\d{4}/);
    expect(beta).toMatch(/general-purpose · claude-haiku[\w.-]* · Bash\(wait on gate-b\)/);
    openGate(join(dir, "gate-a"));
    // Alpha's row collapses to its summary while beta still runs.
    await s.waitFor(() => rowsWith(s, "general-purpose completed").length === 1 && rowsWith(s, "wait on gate-b").some((l) => l.includes("⎿")), "alpha's summary while beta runs");
    openGate(join(dir, "gate-b"));
    await s.waitForText("BOTH AGENTS ANSWERED.");
    await s.waitFor(idle, "the turn's end");
    const summaries = s.all().split("\n").filter((l) => l.includes("⎿") && l.includes("general-purpose completed"));
    expect(summaries.length).toBe(2);
    for (const l of summaries) expect(l).toMatch(/general-purpose completed · \d[\d.]*m?s · 2 steps · \d[\d.k]* tokens · \$\d+\.\d{4}/);
    // The pager: the session's transcript, then each child's whole conversation, then back.
    s.send(KEY.ctrlT);
    await s.waitForText("a: subagents (2)");
    s.send("a");
    await s.waitForText("subagent 1/2");
    expect(s.screen()).toContain("ALPHA task: read gate-a");
    expect(s.screen()).toContain("ALPHA says: the gate said gate-a-open.");
    expect(s.screen()).not.toContain("BETA says");
    s.send("a");
    await s.waitForText("subagent 2/2");
    expect(s.screen()).toContain("BETA says: the gate said gate-b-open.");
    s.send("a");
    await s.waitForText("a: subagents (2)");
    expect(s.screen()).toContain("BOTH AGENTS ANSWERED.");
    s.send(KEY.esc);
    await s.waitFor(idle, "the pager closed");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 90_000);

  test("a background agent: its row stays live after its call, its permission question names it, and its end wakes the idle app, whose next request holds its result", async () => {
    const fake = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", id: "toolu_bg", name: "agent", input: { description: "slow scan", prompt: "GAMMA task: write notes", run_in_background: true } }] },
        { content: [{ type: "text", text: "STARTED; I WILL BE TOLD." }] },
        { content: [{ type: "text", text: "GAMMA RESULT RECEIVED." }], expect: { lastTextMatches: "Background agent .* finished:[\\s\\S]*gamma wrote the notes" } },
      ],
      routes: [
        {
          firstMessage: "^GAMMA task",
          turns: [
            { content: [{ type: "tool_use", name: "write", input: { file_path: "notes.txt", content: "scanned\n" } }] },
            { content: [{ type: "text", text: "gamma wrote the notes" }] },
          ],
        },
      ],
    });
    const dir = tempProject();
    const env = isolatedEnv(fake.url);
    const s = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 36 });
    await submit(s, "scan in the background");
    // The parent's turn ends; the child's question waits for that, then asks, naming the child.
    await s.waitForText("STARTED; I WILL BE TOLD.");
    await s.waitForText("general-purpose agent (slow scan)");
    const panel = s.screen();
    expect(panel).toMatch(/general-purpose agent \(slow scan\): .*notes\.txt/);
    // Its row is live under "background agents", in the tool it asks about.
    expect(panel).toContain("background agents (1)");
    expect(rowsWith(s, "⎿").find((l) => l.includes("slow scan"))).toMatch(/slow scan · general-purpose · claude-[\w.-]+ · Write\(notes\.txt \(1 line\)\) · \d+ tokens · \$\d+\.\d{4}/);
    await answerPrompt(s, "y");
    // Nobody typed: the child's end wakes the app, and the parent answers its result.
    await s.waitForText("GAMMA RESULT RECEIVED.");
    await s.waitFor(idle, "the wake-up turn's end");
    expect(s.all()).toMatch(/• general-purpose completed · .* \(slow scan\)/);
    expect(s.screen()).not.toContain("background agents (");
    expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("scanned\n");
    expect(fake.requests.filter((r) => r.route === undefined && r.outcome === "served").length).toBe(3);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 90_000);
});

describe("subagents after --continue", () => {
  test("Ctrl-T then a shows a child's conversation read back from its log, named by the parent log's agent_end", async () => {
    const fake = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", id: "toolu_d", name: "agent", input: { description: "probe delta", prompt: "DELTA task: say hello", subagent_type: "general-purpose" } }] },
        { content: [{ type: "text", text: "DELTA ANSWERED." }] },
      ],
      routes: [{ firstMessage: "^DELTA task", turns: [{ content: [{ type: "text", text: "DELTA says: hello from the log." }] }] }],
    });
    const dir = tempProject();
    const env = isolatedEnv(fake.url);
    const r = await runCli(["-p", "delegate"], { cwd: dir, env });
    expect(r.stdout).toContain("DELTA ANSWERED.");
    const s = fixtures.pty(["--continue"], { cwd: dir, env, cols: 120, rows: 36 });
    await s.waitForText("DELTA ANSWERED.");
    s.send(KEY.ctrlT);
    await s.waitForText("a: subagents (1)");
    s.send("a");
    await s.waitForText("subagent 1/1");
    expect(s.screen()).toContain("DELTA task: say hello");
    expect(s.screen()).toContain("DELTA says: hello from the log.");
    s.send(KEY.esc);
    await s.waitFor(idle, "the pager closed");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 90_000);
});
