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

test("run_in_background answers at once; the child's ask names it; its result wakes the idle parent as a notice", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", id: "toolu_bg", name: "agent", input: { description: "bg task", prompt: "CHILD-BG: say hi", run_in_background: true } }] },
        { content: [{ type: "text", text: "started it" }], expect: { lastHasToolResult: { isError: false, contentMatches: "in the background \\(agentId: " } } },
        { content: [{ type: "text", text: "it said hi" }], expect: { lastTextMatches: "^Background agent \\S+ \\(general-purpose: bg task\\) finished:\\nBG-HI" } },
      ],
      routes: [
        {
          firstMessage: "^CHILD-BG:",
          turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "touch bg.txt" } }] }, { content: [{ type: "text", text: "BG-HI" }] }],
        },
      ],
    });
    // The child's question is held until the parent's turn is over: the order is the test's, not the clock's.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const asked: string[] = [];
    const session = await openOn(api, dir, {
      ask: async (req) => {
        asked.push(req.summary);
        await held;
        return { allow: true };
      },
    });
    const woken: number[] = [];
    session.subagents.onNotice(() => woken.push(session.subagents.pending()));
    try {
      const r = await session.runTurn("start it", signal());
      expect(r).toMatchObject({ reason: "finished", lastText: "started it" });
      expect(session.subagents.running()).toBe(1);
      expect(await session.wake(signal())).toBeNull();
      release();
      await session.subagents.idle();
      expect(woken).toEqual([1]);
      expect(asked).toEqual([expect.stringContaining("general-purpose agent (bg task): ")]);
      const w = await session.wake(signal());
      expect(api.checkFailures).toEqual([]);
      expect(w).toMatchObject({ reason: "finished", lastText: "it said hi" });
      expect(session.subagents.pending()).toBe(0);
    } finally {
      await session.close();
    }
  });
});
