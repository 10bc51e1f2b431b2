// Plan mode through the real ACP client library: exit_plan_mode is a session/request_permission
// whose content is the plan; approving switches the session's mode, which the editor hears as
// current_mode_update, and the edit after it runs without another question; approving for a clean
// context goes on in a new KHAELOR session under the editor's session id.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../support/cli.ts";
import { initialize, startAgent } from "./client.ts";
import { expectCleanHandoff } from "../support/plan-handoff.ts";

const serve = fakeApiFixture();
const PLAN = "# Plan\n\n1. Write done.txt\n";

test("the plan is the permission request's content; 'Yes, and accept edits' leaves plan mode and the editor is told", async () => {
  const dir = tempProject();
  const server = await serve({
    turns: [
      { content: [{ type: "tool_use", name: "exit_plan_mode", input: { plan: PLAN } }] },
      { content: [{ type: "tool_use", name: "write", input: { file_path: "done.txt", content: "done\n" } }], expect: { lastHasToolResult: { isError: false, contentMatches: "approved the plan" } } },
      { content: [{ type: "text", text: "implemented" }], expect: { lastHasToolResult: { isError: false } } },
    ],
  });
  const a = startAgent(dir, isolatedEnv(server.url), { permission: () => ({ outcome: { outcome: "selected", optionId: "plan_accept_edits" } }) });
  const stop = await a.run(async (ctx) => {
    await initialize(ctx);
    const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
    await ctx.request("session/set_mode", { sessionId: s.sessionId, modeId: "plan" });
    return (await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "plan, then write done.txt" }] })).stopReason;
  });
  await a.proc.exited;
  expect(server.checkFailures).toEqual([]);
  expect(stop).toBe("end_turn");
  // One question, the plan's: its content is the plan, its choices the plan's.
  expect(a.asked.length).toBe(1);
  const q = a.asked[0]!;
  expect(q.toolCall.kind).toBe("switch_mode");
  expect(q.toolCall.content).toEqual([{ type: "content", content: { type: "text", text: PLAN } }]);
  expect(q.options.map((o) => o.name)).toEqual(["Yes, and accept edits", "Yes, and review each edit", "Yes, clear the context and implement (new session)", "No, keep planning"]);
  expect(readFileSync(join(dir, "done.txt"), "utf8")).toBe("done\n");
  const modes = a.updates.flatMap((u) => (u.update.sessionUpdate === "current_mode_update" ? [u.update.currentModeId] : []));
  expect(modes.at(-1)).toBe("acceptEdits");
});

test("'Yes, clear the context and implement' continues the editor's session in a new KHAELOR session seeded with the request and the plan only", async () => {
  const dir = tempProject();
  const server = await serve({
    turns: [
      { content: [{ type: "text", text: "PLANNING." }, { type: "tool_use", id: "toolu_plan1", name: "exit_plan_mode", input: { plan: PLAN } }] },
      { content: [{ type: "tool_use", name: "write", input: { file_path: "done.txt", content: "done\n" } }] },
      { content: [{ type: "text", text: "IMPLEMENTED." }], expect: { lastHasToolResult: { isError: false } } },
      { content: [{ type: "text", text: "FOLLOW-UP." }] },
    ],
  });
  const a = startAgent(dir, isolatedEnv(server.url), { permission: () => ({ outcome: { outcome: "selected", optionId: "plan_clear_context" } }) });
  const out = await a.run(async (ctx) => {
    await initialize(ctx);
    const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
    await ctx.request("session/set_mode", { sessionId: s.sessionId, modeId: "plan" });
    const first = (await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "plan, then write done.txt" }] })).stopReason;
    // The implementation ran before the prompt answered: its text reached the editor already.
    const said = a.updates.flatMap((u) => (u.update.sessionUpdate === "agent_message_chunk" && u.update.content.type === "text" ? [u.update.content.text] : []));
    const second = (await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "and then?" }] })).stopReason;
    return { id: s.sessionId, first, second, said: said.join("") };
  });
  await a.proc.exited;
  expect(server.checkFailures).toEqual([]);
  expect([out.first, out.second]).toEqual(["end_turn", "end_turn"]);
  expect(a.asked[0]!.options.map((o) => o.name)).toEqual(["Yes, and accept edits", "Yes, and review each edit", "Yes, clear the context and implement (new session)", "No, keep planning"]);
  // The write in the new session ran in accept-edits mode: no second question.
  expect(a.asked.length).toBe(1);
  expect(readFileSync(join(dir, "done.txt"), "utf8")).toBe("done\n");
  expect(out.said).toContain("IMPLEMENTED.");
  const handed = /planning stays in session (\S+)[^]*new session (\S+) /.exec(out.said);
  expect(handed?.[1]).toBe(out.id);
  expect(handed?.[2]).not.toBe(out.id);
  // Every update went to the session id the editor knows.
  expect(new Set(a.updates.map((u) => u.sessionId))).toEqual(new Set([out.id]));
  const modes = a.updates.flatMap((u) => (u.update.sessionUpdate === "current_mode_update" ? [u.update.currentModeId] : []));
  expect(modes.at(-1)).toBe("acceptEdits");
  // The request after approval: the user's request and the plan, none of the planning turns.
  expect(server.requests.length).toBe(4);
  expectCleanHandoff(server.requests[1]!.body, { request: "plan, then write done.txt", plan: "1. Write done.txt", planning: ["PLANNING.", "toolu_plan1"] });
  // The next prompt continues the new session: its seed, its turns, and the new message.
  const last = JSON.stringify((server.requests[3]!.body as { messages: unknown[] }).messages);
  expect(last).toContain("Implement the plan below");
  expect(last).toContain("and then?");
  expect(last).not.toContain("PLANNING.");
});
