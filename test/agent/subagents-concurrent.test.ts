// Several subagents at once, through the session service in-process: two agent calls in one
// assistant message run side by side (their requests interleave at the fake API), each result
// reaches the parent in the calls' order.
import { expect, test } from "bun:test";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

const child = (tag: string, answer: string) => ({
  firstMessage: `^${tag}:`,
  turns: [{ content: [{ type: "tool_use" as const, name: "glob", input: { pattern: "*" } }] }, { content: [{ type: "text" as const, text: answer }] }],
});

test("two agent calls in one message run at the same time; each result reaches the parent", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [
        {
          content: [
            { type: "tool_use", id: "toolu_a", name: "agent", input: { description: "a", prompt: "CHILD-A: look", subagent_type: "Explore" } },
            { type: "tool_use", id: "toolu_b", name: "agent", input: { description: "b", prompt: "CHILD-B: look", subagent_type: "Explore" } },
          ],
        },
        { content: [{ type: "text", text: "both done" }] },
      ],
      routes: [child("CHILD-A", "ANSWER-A"), child("CHILD-B", "ANSWER-B")],
    });
    const session = await openOn(api, dir);
    try {
      const r = await session.runTurn("look twice", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r).toMatchObject({ reason: "finished", lastText: "both done" });
      // The parent's next request answers both calls, in their order.
      const last = api.requests.filter((q) => q.route === undefined).at(-1)!.body as { messages: Array<{ content: Array<{ type: string; tool_use_id?: string; content?: unknown }> }> };
      const results = last.messages.at(-1)!.content.filter((c) => c.type === "tool_result");
      expect(results.map((c) => c.tool_use_id)).toEqual(["toolu_a", "toolu_b"]);
      expect(JSON.stringify(results[0]!.content)).toContain("ANSWER-A");
      expect(JSON.stringify(results[1]!.content)).toContain("ANSWER-B");
      const a = api.requests.filter((q) => q.route === 0);
      const b = api.requests.filter((q) => q.route === 1);
      expect(a.length).toBe(2);
      expect(b.length).toBe(2);
      // Overlap: each child's first request came before the other's last one. Run one after the
      // other, all of A's would come before any of B's.
      expect(b[0]!.seq).toBeLessThan(a[1]!.seq);
      expect(a[0]!.seq).toBeLessThan(b[1]!.seq);
    } finally {
      await session.close();
    }
  });
});
