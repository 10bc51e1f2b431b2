// The Messages API wire format: a finished assistant message as the non-streaming JSON body, or as
// the exact sequence of SSE events the streaming endpoint sends.
import type { AssistantBlock, StopReason, Usage } from "../model/types.ts";
import type { Pacing } from "./scenario.ts";

export type WireMessage = {
  id: string;
  model: string;
  content: AssistantBlock[];
  stop_reason: StopReason;
  usage: Usage;
};

export function messageBody(m: WireMessage): object {
  return {
    id: m.id,
    type: "message",
    role: "assistant",
    model: m.model,
    content: m.content.map((b) => (b.type === "unknown_block" ? b.block : b)),
    stop_reason: m.stop_reason,
    stop_sequence: null,
    usage: m.usage,
  };
}

export function sse(event: string, data: object): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Split by code points so every piece is a valid string (the API never splits a character). */
function pieces(s: string, size: number): string[] {
  if (size <= 0 || s.length === 0) return [s];
  const cps = Array.from(s);
  const out: string[] = [];
  for (let i = 0; i < cps.length; i += size) out.push(cps.slice(i, i + size).join(""));
  return out;
}

/** The SSE events for one message, in the order the API sends them. */
export function streamEvents(m: WireMessage, pacing: Pacing): string[] {
  const ev: string[] = [];
  ev.push(
    sse("message_start", {
      type: "message_start",
      message: {
        ...messageBody({ ...m, content: [] }),
        stop_reason: null,
        usage: { ...m.usage, output_tokens: Math.min(1, m.usage.output_tokens) },
      },
    }),
  );
  const ping = sse("ping", { type: "ping" });
  m.content.forEach((block, index) => {
    const delta = (d: object) => ev.push(sse("content_block_delta", { type: "content_block_delta", index, delta: d }));
    const start = (contentBlock: object) => {
      ev.push(sse("content_block_start", { type: "content_block_start", index, content_block: contentBlock }));
      if (index === 0) ev.push(ping);
    };
    switch (block.type) {
      case "text":
        start({ type: "text", text: "", citations: null });
        for (const c of block.citations ?? []) delta({ type: "citations_delta", citation: c });
        for (const t of pieces(block.text, pacing.textChunk)) delta({ type: "text_delta", text: t });
        break;
      case "thinking":
        start({ type: "thinking", thinking: "", signature: "" });
        for (const t of pieces(block.thinking, pacing.textChunk)) delta({ type: "thinking_delta", thinking: t });
        delta({ type: "signature_delta", signature: block.signature });
        break;
      case "redacted_thinking":
        start(block);
        break;
      case "tool_use":
        start({ type: "tool_use", id: block.id, name: block.name, input: {} });
        delta({ type: "input_json_delta", partial_json: "" });
        for (const j of pieces(JSON.stringify(block.input), pacing.jsonChunk)) delta({ type: "input_json_delta", partial_json: j });
        break;
      case "server_tool_use":
        start({ ...block, input: {} });
        for (const j of pieces(JSON.stringify(block.input), pacing.jsonChunk)) delta({ type: "input_json_delta", partial_json: j });
        break;
      case "unknown_block":
        start(block.block);
        break;
      default:
        // A server tool's result: the whole block in its start event, no deltas.
        start(block);
    }
    ev.push(sse("content_block_stop", { type: "content_block_stop", index }));
  });
  if (m.content.length === 0) ev.push(ping);
  if (pacing.pingEvery > 0) {
    for (let i = pacing.pingEvery + 1; i < ev.length; i += pacing.pingEvery + 1) ev.splice(i, 0, ping);
  }
  ev.push(
    sse("message_delta", {
      type: "message_delta",
      delta: { stop_reason: m.stop_reason, stop_sequence: null },
      usage: m.usage,
    }),
  );
  ev.push(sse("message_stop", { type: "message_stop" }));
  return ev;
}

/** An `error` event as the API sends it inside a 200 stream. */
export function errorEvent(type: string, message: string): string {
  return sse("error", { type: "error", error: { type, message } });
}

export function errorBody(type: string, message: string, requestId: string): object {
  return { type: "error", error: { type, message }, request_id: requestId };
}
