// Plan mode in the real app, in a pseudo-terminal against the fake Messages API: /plan with a task
// starts at once in plan mode; the plan panel shows the plan as markdown and the plan file, and its
// chooser moves a marked row with the arrows and takes it with Enter (or a number). "Clear the
// context and implement" goes on in a new session whose first request holds the plan and the
// request, not the planning turns; "keep planning" sends the user's feedback back to the model.
import { describe, expect, test } from "bun:test";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { KEY, type PtySession, idle, ptyFixtures, submit } from "./harness.ts";
import { expectCleanHandoff } from "../../support/plan-handoff.ts";

const fixtures = ptyFixtures();

const PLAN = "# Greeting plan\n\n1. Add **greet()** to `src/greet.ts`\n2. Cover it with a test\n";

/** The plan panel takes keys: its first choice is no longer dimmed. */
function planArmed(s: PtySession): boolean {
  const lines = s.term.lines();
  for (let i = lines.length - 1; i >= 0; i--) {
    const col = lines[i]!.indexOf("1. Yes, and accept edits");
    if (col >= 0) return s.term.cellStyle(i, col)?.dim === false;
  }
  return false;
}

/** The row of the screen that holds `text`. */
const rowWith = (s: PtySession, text: string) => s.term.lines().find((l) => l.includes(text)) ?? "";

describe("the plan panel", () => {
  test("/plan starts planning; the arrows move the marked choice; clear the context and implement opens a new session that gets the plan and the request only", async () => {
    const fake = await fixtures.api({
      turns: [
        { content: [{ type: "text", text: "PLANNING." }, { type: "tool_use", id: "toolu_plan1", name: "exit_plan_mode", input: { plan: PLAN } }] },
        { content: [{ type: "text", text: "IMPLEMENTED." }] },
      ],
    });
    const dir = tempProject();
    const s = fixtures.pty([], { cwd: dir, env: isolatedEnv(fake.url), cols: 100, rows: 40 });
    await submit(s, "/plan add a greet function");
    await s.waitForText("Plan ready for review");
    // The plan as markdown: the heading without its #, the bold without its stars.
    expect(s.screen()).toContain("Greeting plan");
    expect(s.screen()).not.toContain("# Greeting plan");
    expect(s.screen()).toContain("Add greet() to src/greet.ts");
    expect(s.screen()).toMatch(/plan file: ~\/data\/plans\/[^\s]+\.md/);
    expect(s.screen()).toContain("⏵ plan mode");
    expect(rowWith(s, "1. Yes, and accept edits")).toContain("❯ 1.");
    await s.waitFor(() => planArmed(s), "the plan panel to take keys");
    s.send(KEY.down);
    await s.waitFor(() => rowWith(s, "2. Yes, and review each edit").includes("❯ 2."), "the mark on the second choice");
    s.send(KEY.down);
    await s.waitFor(() => rowWith(s, "3. Yes, clear the context").includes("❯ 3."), "the mark on the third choice");
    expect(rowWith(s, "1. Yes, and accept edits")).not.toContain("❯");
    s.send(KEY.enter);
    await s.waitForText("IMPLEMENTED.");
    await s.waitFor(idle, "the implementation turn's end");
    expect(s.all()).toContain("stays resumable with:");
    expect(s.screen()).toContain("⏵ accept edits");
    // Two requests: the planning one, and the new session's first, which is the request and the plan only.
    expect(fake.requests.length).toBe(2);
    const first = fake.requests[0]!.body as { messages: unknown[] };
    expect(JSON.stringify(first)).toContain("Plan mode is on");
    expectCleanHandoff(fake.requests[1]!.body, { request: "add a greet function", plan: "Add **greet()** to `src/greet.ts`", planning: ["PLANNING.", "toolu_plan1"] });
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("keep planning: the feedback typed goes back to the model; the next plan approved with its number switches to accept edits", async () => {
    const fake = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", name: "exit_plan_mode", input: { plan: PLAN } }] },
        {
          content: [{ type: "tool_use", name: "exit_plan_mode", input: { plan: `${PLAN}3. Handle empty names\n` } }],
          expect: { lastHasToolResult: { isError: true, contentMatches: "also handle empty names" } },
        },
        { content: [{ type: "text", text: "ON IT." }], expect: { lastHasToolResult: { isError: false, contentMatches: "approved the plan" } } },
      ],
    });
    const dir = tempProject();
    const s = fixtures.pty(["--permission-mode", "plan"], { cwd: dir, env: isolatedEnv(fake.url), cols: 100, rows: 40 });
    await submit(s, "plan a greeting");
    await s.waitForText("Plan ready for review");
    await s.waitFor(() => planArmed(s), "the plan panel to take keys");
    s.type("4");
    await s.waitForText("Tell the model what to change");
    s.type("also handle empty names");
    await s.waitForText("> also handle empty names");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("Handle empty names") && sc.includes("Plan ready for review"), "the revised plan");
    await s.waitFor(() => planArmed(s), "the plan panel to take keys again");
    s.type("1");
    await s.waitForText("ON IT.");
    await s.waitFor(idle, "the turn's end");
    expect(fake.checkFailures).toEqual([]);
    expect(s.screen()).toContain("⏵ accept edits");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});
