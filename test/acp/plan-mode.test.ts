// Plan mode through the real ACP client library: exit_plan_mode is a session/request_permission
// whose content is the plan; approving switches the session's mode, which the editor hears as
// current_mode_update, and the edit after it runs without another question.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../support/cli.ts";
import { initialize, startAgent } from "./client.ts";

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
  expect(q.options.map((o) => o.name)).toEqual(["Yes, and accept edits", "Yes, and review each edit", "No, keep planning"]);
  expect(readFileSync(join(dir, "done.txt"), "utf8")).toBe("done\n");
  const modes = a.updates.flatMap((u) => (u.update.sessionUpdate === "current_mode_update" ? [u.update.currentModeId] : []));
  expect(modes.at(-1)).toBe("acceptEdits");
});
