// subagent_type "fork" and SendMessage, through the session service in-process against the fake
// Messages API, read from its request log: a fork's first request is the parent's conversation
// (its system prompt, its messages, its tools) with the fork's prompt after it; SendMessage goes on
// with an agent that ended, from its own log, and with a running one at its next step.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

type Body = { system: Array<{ text: string }>; messages: Array<{ role: string; content: unknown }>; tools: Array<{ name: string }>; model: string };
const textOf = (m: { content: unknown }) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content));

test("fork: the child's first request holds the parent's system prompt, conversation and tools, every call of the parent's message answered, then its prompt", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [
        { content: [{ type: "text", text: "EARLIER ANSWER about the parser." }] },
        { content: [{ type: "tool_use", id: "toolu_fork", name: "agent", input: { description: "side task", prompt: "FORK-TASK: list the parser's tests", subagent_type: "fork" } }] },
        { content: [{ type: "text", text: "the fork reported" }], expect: { lastHasToolResult: { isError: false, contentMatches: "FORK REPORT" } } },
      ],
      routes: [{ anyUserMessage: "^FORK-TASK:", turns: [{ content: [{ type: "text", text: "FORK REPORT: three tests" }] }] }],
    });
    const session = await openOn(api, dir);
    try {
      await session.runTurn("EARLIER QUESTION: what is the parser?", signal());
      const r = await session.runTurn("fork a side task", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r).toMatchObject({ reason: "finished", lastText: "the fork reported" });
      const parent = api.requests.filter((q) => q.route === undefined && q.outcome === "served");
      const forked = api.requests.filter((q) => q.route === 0);
      expect(forked.length).toBe(1);
      const fb = forked[0]!.body as Body;
      const pb = parent[1]!.body as Body;
      // Its parent's system prompt, model and tools, the API's web tools among them (the agent
      // tools left out: depth 1).
      expect(fb.system.map((b) => b.text)).toEqual(pb.system.map((b) => b.text));
      expect(fb.model).toBe(pb.model);
      expect(fb.tools.map((t) => t.name)).toEqual(pb.tools.map((t) => t.name).filter((n) => !["agent", "send_message"].includes(n)));
      // The parent's conversation, then the fork call answered, then the prompt.
      const texts = fb.messages.map(textOf);
      expect(texts[0]).toContain("EARLIER QUESTION");
      expect(texts[1]).toContain("EARLIER ANSWER");
      expect(texts[2]).toContain("fork a side task");
      expect(texts[3]).toContain("toolu_fork");
      const last = fb.messages.at(-1)!;
      expect(last.role).toBe("user");
      expect(textOf(last)).toContain("You are the fork");
      expect(textOf(last)).toContain("FORK-TASK: list the parser's tests");
    } finally {
      await session.close();
    }
  });
});

test("SendMessage goes on with an agent that ended: its next request is its whole conversation and the message; its log grows", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", id: "toolu_a", name: "agent", input: { description: "count", prompt: "CHILD-C: count the files", subagent_type: "Explore" } }] },
        // The agent named by the call that started it (its agentId works as well).
        { content: [{ type: "tool_use", id: "toolu_s", name: "send_message", input: { to: "toolu_a", message: "FOLLOW-UP: and the hidden ones?" } }], expect: { lastHasToolResult: { isError: false, contentMatches: "FIVE FILES" } } },
        { content: [{ type: "text", text: "done" }], expect: { lastHasToolResult: { isError: false, contentMatches: "TWO HIDDEN" } } },
      ],
      routes: [
        {
          firstMessage: "^CHILD-C:",
          turns: [{ content: [{ type: "text", text: "FIVE FILES" }] }, { content: [{ type: "text", text: "TWO HIDDEN" }], expect: { lastTextMatches: "^FOLLOW-UP: and the hidden ones\\?$", messageCount: 3 } }],
        },
      ],
    });
    const session = await openOn(api, dir);
    const ends: Array<{ agentId: string; toolUseId: string; log: string }> = [];
    session.subscribe((e) => {
      if (e.type === "agent_end") ends.push({ agentId: e.agentId, toolUseId: e.toolUseId, log: e.log });
    });
    try {
      const r = await session.runTurn("count the files, then ask about hidden ones", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r).toMatchObject({ reason: "finished", lastText: "done" });
      // One agent, two runs: the same id and log, each run ended under its own call.
      expect(ends.map((e) => e.toolUseId)).toEqual(["toolu_a", "toolu_s"]);
      expect(ends[0]!.agentId).toBe(ends[1]!.agentId);
      expect(ends[0]!.log).toBe(ends[1]!.log);
      const child = api.requests.filter((q) => q.route === 0).map((q) => q.body as Body);
      expect(child.length).toBe(2);
      expect(child[1]!.messages.map(textOf)).toEqual([expect.stringContaining("CHILD-C: count the files"), expect.stringContaining("FIVE FILES"), expect.stringContaining('"FOLLOW-UP: and the hidden ones?"')]);
      expect(child[1]!.system).toEqual(child[0]!.system);
      // Its system prompt is its type's, with where and when it works, as the main prompt has.
      const system = child[0]!.system.map((b) => b.text).join("\n");
      expect(system).toContain(`- Working directory: ${dir}`);
      expect(system).toMatch(/- Today's date: \d{4}-\d{2}-\d{2}/);
      const log = readFileSync(`${session.logPath.replace(/\.jsonl$/, "")}.agents/${ends[0]!.agentId}.jsonl`, "utf8");
      expect(log).toContain("FIVE FILES");
      expect(log).toContain("FOLLOW-UP: and the hidden ones?");
      expect(log).toContain("TWO HIDDEN");
    } finally {
      await session.close();
    }
  });
});

test("SendMessage to an unknown agent is an error result naming this session's agents", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", id: "toolu_s", name: "send_message", input: { to: "nobody", message: "hi" } }] },
        { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: true, contentMatches: "No agent nobody in this session. It has started none." } } },
      ],
    });
    const session = await openOn(api, dir);
    try {
      await session.runTurn("message nobody", signal());
      expect(api.checkFailures).toEqual([]);
    } finally {
      await session.close();
    }
  });
});
