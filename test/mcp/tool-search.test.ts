// Many MCP tools do not bloat every request: 1 server of 20 tools is sent whole; 5 servers of 20
// pass the budget, so their tools go with defer_loading behind the API's tool search tool, and
// the built-in tools stay whole. The search's blocks are kept in the log and sent back.
import { expect, test } from "bun:test";
import { MessageAssembler } from "../../src/model/message-assembler.ts";
import { parseEventLine } from "../../src/events/schema.ts";
import { TOOL_SEARCH_BUDGET_BYTES, definitionBytes } from "../../src/mcp/tool-search.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { mcpConfig, testServer } from "./support.ts";

const serve = fakeApiFixture();
type Tool = { name: string; type?: string; defer_loading?: boolean; input_schema?: unknown; description?: string };

async function firstRequest(servers: number): Promise<{ tools: Tool[]; bytes: number }> {
  const api = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
  const config = mcpConfig(Object.fromEntries(Array.from({ length: servers }, (_, i) => [`s${i}`, testServer("--tools", "20", "--bare")])));
  const r = await runCli(["-p", "hi", ...(servers ? ["--mcp-config", config] : [])], { cwd: tempProject(), env: isolatedEnv(api.url, { MCP_TIMEOUT: "30000" }) });
  expect(r.code).toBe(0);
  const body = api.requests[0]!.body as { tools: Tool[] };
  return { tools: body.tools, bytes: Buffer.byteLength(JSON.stringify(body)) };
}

test("1 server of 20 tools is sent whole; 5 go behind tool search", async () => {
  const none = await firstRequest(0);
  const one = await firstRequest(1);
  const five = await firstRequest(5);
  // ours, then the API's web tools (offered unless the rules turn them off)
  const builtins = none.tools.filter((t) => !t.type).map((t) => t.name);
  expect(builtins).toEqual(["read", "write", "edit", "grep", "glob", "bash", "process", "agent", "send_message"]);

  const mcpOne = one.tools.filter((t) => t.name.startsWith("mcp__"));
  expect(mcpOne.length).toBe(20);
  expect(mcpOne.some((t) => t.defer_loading)).toBe(false);
  expect(one.tools.some((t) => t.name === "tool_search_tool_regex")).toBe(false);
  expect(definitionBytes(mcpOne as never)).toBeLessThan(TOOL_SEARCH_BUDGET_BYTES);

  const mcpFive = five.tools.filter((t) => t.name.startsWith("mcp__"));
  expect(mcpFive.length).toBe(100);
  expect(definitionBytes(mcpFive.map(({ defer_loading: _d, ...t }) => t) as never)).toBeGreaterThan(TOOL_SEARCH_BUDGET_BYTES);
  expect(mcpFive.every((t) => t.defer_loading === true)).toBe(true);
  expect(five.tools.find((t) => t.name === "tool_search_tool_regex")).toEqual({ type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" });
  // the built-in tools stay whole: the prompt holds them, the web tools and the search tool only
  expect(five.tools.filter((t) => !t.name.startsWith("mcp__")).every((t) => !t.defer_loading)).toBe(true);
  console.log(`first-request bytes: 0 servers ${none.bytes}, 1 server ${one.bytes}, 5 servers ${five.bytes} (tool search on; ${definitionBytes(mcpFive as never)} bytes deferred)`);
}, 120_000);

test("the tool search's blocks are assembled, logged and read back as they came", () => {
  const a = new MessageAssembler();
  const events = [
    { type: "message_start", message: { id: "m1", model: "claude", usage: { input_tokens: 1, output_tokens: 0 } } },
    { type: "content_block_start", index: 0, content_block: { type: "server_tool_use", id: "srv_1", name: "tool_search_tool_regex", input: {} } },
    { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query":"catalogue"}' } },
    { type: "content_block_stop", index: 0 },
    {
      type: "content_block_start",
      index: 1,
      content_block: { type: "tool_search_tool_result", tool_use_id: "srv_1", content: { type: "tool_search_tool_search_result", tool_references: [{ type: "tool_reference", tool_name: "mcp__s0__tool_3" }] } },
    },
    { type: "content_block_stop", index: 1 },
    { type: "content_block_start", index: 2, content_block: { type: "tool_use", id: "tu_1", name: "mcp__s0__tool_3", input: {} } },
    { type: "content_block_delta", index: 2, delta: { type: "input_json_delta", partial_json: '{"key":"x"}' } },
    { type: "content_block_stop", index: 2 },
    { type: "message_delta", delta: { stop_reason: "tool_use" }, usage: { output_tokens: 5 } },
    { type: "message_stop" },
  ];
  for (const e of events) a.push(e as never);
  const m = a.message();
  // the search result is a block this version keeps as it came (sent back unchanged)
  expect(m.content).toEqual([
    { type: "server_tool_use", id: "srv_1", name: "tool_search_tool_regex", input: { query: "catalogue" } },
    {
      type: "unknown_block",
      block: { type: "tool_search_tool_result", tool_use_id: "srv_1", content: { type: "tool_search_tool_search_result", tool_references: [{ type: "tool_reference", tool_name: "mcp__s0__tool_3" }] } },
    },
    { type: "tool_use", id: "tu_1", name: "mcp__s0__tool_3", input: { key: "x" } },
  ] as never);
  const line = JSON.stringify({ type: "assistant_message", id: "e1", ts: 1, costUsd: null, message: m });
  const back = parseEventLine(line);
  expect(back.type === "assistant_message" && back.message.content).toEqual(m.content);
});
