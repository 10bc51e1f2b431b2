// What an ACP editor is shown of an edit is the change that lands, even when the edit needed the
// tolerant matcher: the model's old_string has 2 spaces where the file has 4, the edit matches with
// flexible indentation and re-indents new_string. ACP once rebuilt the diff itself with indexOf and,
// finding nothing, showed the model's two snippets at the wrong indentation.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ToolCallContent } from "@agentclientprotocol/sdk";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../support/cli.ts";
import { initialize, ofKind, startAgent } from "./client.ts";

const serve = fakeApiFixture();

const diffs = (content: ToolCallContent[] | null | undefined) => (content ?? []).filter((c) => c.type === "diff");

describe("khaelor acp: an edit's diff", () => {
  test("with indentation the model got wrong, the tool_call, the permission request and the update all show the diff that lands", async () => {
    const dir = tempProject();
    const path = join(dir, "size.js");
    const before = ["export function size(n) {", "    if (n < 0) {", '        throw new Error("bad");', "    }", "    return n;", "}", ""].join("\n");
    writeFileSync(path, before);
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "read", input: { file_path: "size.js" } }] },
        {
          content: [
            {
              type: "tool_use",
              name: "edit",
              input: { file_path: "size.js", old_string: '  if (n < 0) {\n    throw new Error("bad");\n  }', new_string: '  if (n < 0) {\n    throw new RangeError("negative size");\n  }' },
            },
          ],
          expect: { lastHasToolResult: { isError: false } },
        },
        { content: [{ type: "text", text: "done" }], expect: { lastHasToolResult: { isError: false, contentMatches: "ignoring indentation" } } },
      ],
    });
    const a = startAgent(dir, isolatedEnv(server.url), { permission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) });
    const stop = await a.run(async (ctx) => {
      await initialize(ctx);
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      return (await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "fix it" }] })).stopReason;
    });
    await a.proc.exited;
    expect(server.checkFailures).toEqual([]);
    expect(stop).toBe("end_turn");
    const landed = readFileSync(path, "utf8");
    expect(landed).toBe(before.replace('throw new Error("bad")', 'throw new RangeError("negative size")'));
    const applied = { type: "diff" as const, path, oldText: before, newText: landed };

    // The first thing the editor hears of the call, before it is asked.
    const call = ofKind(a.updates, "tool_call").find((c) => c.kind === "edit")!;
    expect(call.locations).toEqual([{ path }]);
    expect(diffs(call.content)).toEqual([applied]);
    expect(a.asked.length).toBe(1);
    expect(diffs(a.asked[0]!.toolCall.content)).toEqual([applied]);
    expect(a.asked[0]!.toolCall.kind).toBe("edit");
    const done = ofKind(a.updates, "tool_call_update").find((u) => u.toolCallId === call.toolCallId && u.status === "completed")!;
    expect(diffs(done.content)).toEqual([applied]);
  });
});
