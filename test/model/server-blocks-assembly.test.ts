// The assembler keeps the API's server tool blocks whole, and an interrupted message never keeps a
// server tool call whose result had not come: the API would refuse it sent back alone.
import { describe, expect, test } from "bun:test";
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import { MessageAssembler } from "../../src/model/message-assembler.ts";

const ev = (e: object) => e as unknown as RawMessageStreamEvent;
const start = ev({ type: "message_start", message: { id: "msg_1", model: "claude-sonnet-5-5", usage: { input_tokens: 10, output_tokens: 1 } } });
const call = [
  ev({ type: "content_block_start", index: 0, content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {}, caller: { type: "direct" } } }),
  ev({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"query":' } }),
  ev({ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"bun"}' } }),
  ev({ type: "content_block_stop", index: 0 }),
];
const result = [
  ev({ type: "content_block_start", index: 1, content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", caller: { type: "direct" }, content: [{ type: "web_search_result", url: "https://bun.sh", title: "Bun", encrypted_content: "x", page_age: null }] } }),
  ev({ type: "content_block_stop", index: 1 }),
];

describe("server tool blocks in the assembler", () => {
  test("kept whole, the call's streamed input parsed; usage counts the searches", () => {
    const a = new MessageAssembler();
    for (const e of [start, ...call, ...result]) a.push(e);
    a.push(ev({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 5, server_tool_use: { web_search_requests: 1, web_fetch_requests: 0 } } }));
    const done = a.push(ev({ type: "message_stop" }));
    const m = done[0]!.type === "message_done" ? done[0]!.message : null;
    expect(m!.content[0]).toEqual({ type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "bun" }, caller: { type: "direct" } });
    expect(m!.content[1]!.type).toBe("web_search_tool_result");
    expect(m!.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 0 });
  });

  test("interrupted after the call but before its result: the call is dropped; with its result, both stay", () => {
    const cut = new MessageAssembler();
    for (const e of [start, ...call]) cut.push(e);
    expect(cut.partial()).toEqual([]);
    const whole = new MessageAssembler();
    for (const e of [start, ...call, ...result]) whole.push(e);
    expect(whole.partial().map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result"]);
  });

  test("a block type this version does not know is wrapped, unchanged", () => {
    const a = new MessageAssembler();
    a.push(start);
    const raw = { type: "code_execution_tool_result", tool_use_id: "srvtoolu_9", content: { stdout: "hi" } };
    a.push(ev({ type: "content_block_start", index: 0, content_block: raw }));
    const [done] = a.push(ev({ type: "content_block_stop", index: 0 }));
    expect(done).toEqual({ type: "block_done", index: 0, block: { type: "unknown_block", block: raw } });
  });
});
