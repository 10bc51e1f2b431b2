// Subagents through the real ACP client library: the parent's agent call is a tool call whose
// content follows the child (its type and model, the tool it runs now, tokens and cost so far) and
// ends completed with the child's answer; a background agent's call stays in progress after its
// call is answered, and completes when its child ends. The child's own calls are not the
// session's tool calls, and its deltas are not sent.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type { SessionUpdate } from "@agentclientprotocol/sdk";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../support/cli.ts";
import { initialize, ofKind, startAgent } from "./client.ts";

const serve = fakeApiFixture();

type Update = Extract<SessionUpdate, { sessionUpdate: "tool_call_update" }>;
const texts = (u: Update) => (u.content ?? []).flatMap((c) => (c.type === "content" && c.content.type === "text" ? [c.content.text] : []));

test("a foreground agent's call: its content follows the child's tool, tokens and cost, then completes with the answer", async () => {
  const dir = tempProject();
  writeFileSync(join(dir, "answer.txt"), "42\n");
  const server = await serve({
    turns: [
      { content: [{ type: "tool_use", id: "toolu_ag", name: "agent", input: { description: "find the answer", prompt: "DELTA task: read answer.txt", subagent_type: "Explore" } }] },
      { content: [{ type: "text", text: "the child said 42" }], expect: { lastHasToolResult: { isError: false, contentMatches: "the answer is 42" } } },
    ],
    routes: [
      {
        firstMessage: "^DELTA task",
        turns: [{ content: [{ type: "tool_use", name: "read", input: { file_path: "answer.txt" } }] }, { content: [{ type: "text", text: "the answer is 42" }] }],
      },
    ],
  });
  const a = startAgent(dir, isolatedEnv(server.url));
  const stop = await a.run(async (ctx) => {
    await initialize(ctx);
    const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
    return (await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "delegate" }] })).stopReason;
  });
  await a.proc.exited;
  expect(server.checkFailures).toEqual([]);
  expect(stop).toBe("end_turn");
  // One tool call in the session: the agent's (the child's read is its own).
  expect(ofKind(a.updates, "tool_call").map((u) => u.toolCallId)).toEqual(["toolu_ag"]);
  const ups = ofKind(a.updates, "tool_call_update").filter((u) => u.toolCallId === "toolu_ag");
  const progress = ups.filter((u) => u.status === "in_progress").flatMap(texts);
  expect(progress).toContainEqual(expect.stringMatching(/^Explore · claude-haiku[\w.-]* · Read\(answer\.txt\) · \d+ tokens · \$\d+\.\d{4} · 1 step$/));
  expect(progress.at(-1)).toMatch(/^Explore · claude-haiku[\w.-]* · thinking · \d+ tokens · \$\d+\.\d{4} · 2 steps$/);
  const last = ups.at(-1)!;
  expect(last.status).toBe("completed");
  expect(texts(last).join("\n")).toContain("the answer is 42");
  // The child's streamed text is not the session's: no message chunk carries it.
  expect(JSON.stringify(ofKind(a.updates, "agent_message_chunk"))).not.toContain("the answer is 42");
});

test("a background agent's call stays in progress after it is answered and completes when its child ends", async () => {
  const dir = tempProject();
  const server = await serve({
    turns: [
      { content: [{ type: "tool_use", id: "toolu_bg", name: "agent", input: { description: "slow scan", prompt: "EPSILON task: list files", run_in_background: true } }] },
      { content: [{ type: "text", text: "started it" }] },
    ],
    routes: [{ firstMessage: "^EPSILON task", turns: [{ content: [{ type: "tool_use", name: "glob", input: { pattern: "*" } }] }, { content: [{ type: "text", text: "nothing here" }] }] }],
  });
  const a = startAgent(dir, isolatedEnv(server.url));
  const done = (u: SessionUpdate) => u.sessionUpdate === "tool_call_update" && u.toolCallId === "toolu_bg" && u.status === "completed";
  await a.run(async (ctx) => {
    await initialize(ctx);
    const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
    await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "scan in the background" }] });
    await a.waitForUpdate(done, "the background agent's call completing");
  });
  await a.proc.exited;
  const ups = ofKind(a.updates, "tool_call_update").filter((u) => u.toolCallId === "toolu_bg");
  // Its call's own answer ("started in the background") leaves it in progress.
  const answered = ups.find((u) => texts(u).some((t) => t.includes("in the background (agentId:")))!;
  expect(answered.status).toBe("in_progress");
  expect(ups.indexOf(answered)).toBeLessThan(ups.findIndex(done));
  expect(texts(ups.find(done)!)[0]).toMatch(/^general-purpose completed · \d+ ms · \d+ tokens · \$\d+\.\d{4}$/);
});
