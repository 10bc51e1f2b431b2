// A session's limits cover its children: --max-budget-usd counts what the parent and its running
// children spent together, --max-turns bounds each child too, and a doom loop in a child stops
// the child (an error result), not the session.
import { expect, test } from "bun:test";
import { readSessionLog } from "../../src/session/log.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

const glob = { content: [{ type: "tool_use" as const, name: "glob", input: { pattern: "*" } }] };
const call = (tag: string) => ({ content: [{ type: "tool_use" as const, id: `toolu_${tag}`, name: "agent", input: { description: tag, prompt: `${tag}: work` } }] });

test("--max-budget-usd: the child stops when parent and child together reach it", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    // Every request costs $0.002 (1,000 input tokens of the default model at $2 per million).
    const usage = { input_tokens: 1000, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const priced = <T extends object>(t: T) => ({ ...t, usage });
    const api = await serve({ turns: [priced(call("CHILD-B")), priced({ content: [{ type: "text" as const, text: "never" }] })], routes: [{ firstMessage: "^CHILD-B:", turns: [priced(glob), priced(glob), priced(glob), priced({ content: [{ type: "text" as const, text: "done" }] })] }] });
    const session = await openOn(api, dir, { budgets: { maxBudgetUsd: 0.005 } });
    try {
      const r = await session.runTurn("go", signal());
      // 0.002 (parent) + 0.002 + 0.002 (child): its third request would start at 0.006.
      expect(api.requests.filter((q) => q.route === 0).length).toBe(2);
      const result = readSessionLog(session.logPath).events.find((e) => e.type === "tool_result" && e.toolUseId === "toolu_CHILD-B");
      expect(result).toMatchObject({ isError: true });
      expect(JSON.stringify(result)).toContain("of the $0.005 budget");
      // The child's spending ended the parent's turn too.
      expect(r.reason).toBe("max_budget");
    } finally {
      await session.close();
    }
  });
});

test("--max-turns bounds a child's steps too", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [call("CHILD-T"), { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: true, contentMatches: "reached the limit of 2 turns" } } }],
      routes: [{ firstMessage: "^CHILD-T:", turns: [glob, { content: [{ type: "tool_use", name: "glob", input: { pattern: "*.md" } }] }, { content: [{ type: "text", text: "done" }] }] }],
    });
    const session = await openOn(api, dir, { budgets: { maxTurns: 2 } });
    try {
      const r = await session.runTurn("go", signal());
      expect(api.checkFailures).toEqual([]);
      expect(api.requests.filter((q) => q.route === 0).length).toBe(2);
      expect(r.reason).toBe("finished");
    } finally {
      await session.close();
    }
  });
});

test("a doom loop in a child stops the child, and the parent goes on", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [call("CHILD-D"), { content: [{ type: "text", text: "parent goes on" }], expect: { lastHasToolResult: { isError: true, contentMatches: "repeated the same glob call" } } }],
      routes: [{ firstMessage: "^CHILD-D:", turns: [glob, glob, glob, glob, glob, glob, { content: [{ type: "text", text: "never" }] }] }],
    });
    const session = await openOn(api, dir);
    try {
      const r = await session.runTurn("go", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r).toMatchObject({ reason: "finished", lastText: "parent goes on" });
      expect(api.requests.filter((q) => q.route === 0).length).toBe(6);
    } finally {
      await session.close();
    }
  });
});
