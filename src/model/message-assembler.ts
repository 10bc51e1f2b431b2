// Folds the raw SSE events of one streamed message into our ModelEvents and the finished
// AssistantMessage. Thinking blocks keep their signature and redacted_thinking its data, byte for
// byte: the API rejects a conversation whose thinking blocks were altered.
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import type { AssistantBlock, AssistantMessage, Citation, ModelEvent, ServerBlock, StopReason, Usage } from "./types.ts";
import { zeroUsage } from "./types.ts";

type BlockState =
  | { type: "text"; text: string; citations: Citation[] }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; json: string }
  /** A call of the API's own tool: every field as content_block_start had it, the input streamed. */
  | { type: "server_tool_use"; block: Record<string, unknown>; json: string }
  /** Any other block (a server tool's result, a type this version does not know): complete at its start. */
  | { type: "whole"; block: ServerBlock };

type Raw = Record<string, unknown> & { type: string };

/** A block that arrives complete, as we keep it: known server results as they are, anything else wrapped. */
function wholeBlock(b: Raw): ServerBlock {
  if ((b.type === "web_search_tool_result" || b.type === "web_fetch_tool_result") && typeof b.tool_use_id === "string")
    return b as ServerBlock;
  return { type: "unknown_block", block: b };
}

const STOP_REASONS = new Set<StopReason>(["end_turn", "max_tokens", "tool_use", "stop_sequence", "pause_turn", "refusal"]);

export class MessageAssembler {
  private id = "";
  private model = "";
  private readonly states: BlockState[] = [];
  private readonly done = new Map<number, AssistantBlock>();
  private usage: Usage = zeroUsage();
  private stopReason: StopReason | null = null;
  /** message_stop arrived: the message is complete. */
  stopped = false;
  /** Some delta was yielded: a retry from here must tell the consumer to drop what it showed. */
  yieldedDelta = false;

  push(ev: RawMessageStreamEvent): ModelEvent[] {
    switch (ev.type) {
      case "message_start":
        this.id = ev.message.id;
        this.model = ev.message.model;
        this.mergeUsage(ev.message.usage);
        return [{ type: "message_start", id: this.id, model: this.model }];
      case "content_block_start": {
        const b = ev.content_block as unknown as Raw;
        let state: BlockState;
        if (ev.content_block.type === "text") {
          const cs = ev.content_block.citations;
          state = { type: "text", text: ev.content_block.text, citations: Array.isArray(cs) ? ([...cs] as unknown as Citation[]) : [] };
        } else if (ev.content_block.type === "thinking") state = { type: "thinking", thinking: ev.content_block.thinking, signature: ev.content_block.signature };
        else if (ev.content_block.type === "redacted_thinking") state = { type: "redacted_thinking", data: ev.content_block.data };
        else if (ev.content_block.type === "tool_use") state = { type: "tool_use", id: ev.content_block.id, name: ev.content_block.name, json: "" };
        else if (b.type === "server_tool_use" && typeof b.id === "string" && typeof b.name === "string") state = { type: "server_tool_use", block: { ...b }, json: "" };
        else state = { type: "whole", block: wholeBlock(b) };
        this.states[ev.index] = state;
        return [];
      }
      case "content_block_delta": {
        const s = this.states[ev.index];
        const d = ev.delta;
        if (!s) return [];
        if (d.type === "text_delta" && s.type === "text") {
          s.text += d.text;
          this.yieldedDelta = true;
          return [{ type: "text_delta", index: ev.index, text: d.text }];
        }
        if (d.type === "thinking_delta" && s.type === "thinking") {
          s.thinking += d.thinking;
          this.yieldedDelta = true;
          return [{ type: "thinking_delta", index: ev.index, thinking: d.thinking }];
        }
        if (d.type === "signature_delta" && s.type === "thinking") {
          s.signature += d.signature;
          return [];
        }
        if (d.type === "citations_delta" && s.type === "text") {
          s.citations.push(d.citation as unknown as Citation);
          return [];
        }
        if (d.type === "input_json_delta" && s.type === "server_tool_use") {
          s.json += d.partial_json;
          return [];
        }
        if (d.type === "input_json_delta" && s.type === "tool_use") {
          s.json += d.partial_json;
          if (d.partial_json === "") return [];
          this.yieldedDelta = true;
          return [{ type: "tool_input_delta", index: ev.index, id: s.id, name: s.name, partialJson: d.partial_json }];
        }
        return [];
      }
      case "content_block_stop": {
        const s = this.states[ev.index];
        if (!s) return [];
        const block = finish(s);
        this.done.set(ev.index, block);
        return [{ type: "block_done", index: ev.index, block }];
      }
      case "message_delta":
        this.mergeUsage(ev.usage);
        if (ev.delta.stop_reason) this.stopReason = mapStopReason(ev.delta.stop_reason);
        return [];
      case "message_stop":
        this.stopped = true;
        return [{ type: "message_done", message: this.message() }];
    }
  }

  message(): AssistantMessage {
    const content = [...this.done.entries()].sort((a, b) => a[0] - b[0]).map(([, b]) => b);
    return { id: this.id, model: this.model, content, stop_reason: this.stopReason, usage: { ...this.usage } };
  }

  /**
   * What an interrupted message leaves that is safe to keep and send back: finished blocks plus
   * the text of an unfinished text block. Unfinished thinking (no signature yet) and every
   * tool_use (unfinished input, and no result will follow) are dropped.
   */
  partial(): AssistantBlock[] {
    const out: AssistantBlock[] = [];
    this.states.forEach((s, i) => {
      if (!s) return;
      const done = this.done.get(i);
      if (done) {
        if (done.type !== "tool_use") out.push(done);
      } else if (s.type === "text" && s.text !== "") out.push({ type: "text", text: s.text, ...(s.citations.length ? { citations: s.citations } : {}) });
    });
    // A server tool call cut before its result came cannot be sent back alone.
    const answered = new Set(out.flatMap((b) => (b.type === "web_search_tool_result" || b.type === "web_fetch_tool_result" ? [b.tool_use_id] : b.type === "unknown_block" && typeof b.block.tool_use_id === "string" ? [b.block.tool_use_id] : [])));
    return out.filter((b) => b.type !== "server_tool_use" || answered.has(b.id));
  }

  /** Usage as reported so far (a stopped stream never sends its final message_delta). */
  usageSoFar(): Usage {
    return { ...this.usage };
  }

  private mergeUsage(u: { [K in keyof Usage]?: unknown } | null | undefined): void {
    if (!u) return;
    for (const k of ["input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"] as const) {
      const v = u[k];
      if (typeof v === "number") this.usage[k] = v;
    }
    const st = u.server_tool_use as { web_search_requests?: unknown; web_fetch_requests?: unknown } | null | undefined;
    if (st && typeof st === "object") {
      const n = (v: unknown) => (typeof v === "number" ? v : 0);
      this.usage.server_tool_use = { web_search_requests: n(st.web_search_requests), web_fetch_requests: n(st.web_fetch_requests) };
    }
  }
}

function finish(s: BlockState): AssistantBlock {
  switch (s.type) {
    case "text":
      return s.citations.length > 0 ? { type: "text", text: s.text, citations: s.citations } : { type: "text", text: s.text };
    case "thinking":
      return { type: "thinking", thinking: s.thinking, signature: s.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: s.data };
    case "tool_use":
      return { type: "tool_use", id: s.id, name: s.name, input: parseToolInput(s.json) };
    case "server_tool_use": {
      // The input streams like a tool call's; content_block_start may already carry it whole.
      const input = s.json.trim() === "" ? (s.block.input ?? {}) : parseToolInput(s.json);
      return { ...s.block, type: "server_tool_use", id: s.block.id as string, name: s.block.name as string, input };
    }
    case "whole":
      return s.block;
  }
}

/**
 * The API always sends an object; an empty string means `{}`. Broken JSON (a message cut by
 * max_tokens) is kept as an object the API accepts back, so the tool's schema check fails with a
 * clear error instead of the whole conversation becoming unsendable.
 */
function parseToolInput(json: string): unknown {
  if (json.trim() === "") return {};
  try {
    const v: unknown = JSON.parse(json);
    return typeof v === "object" && v !== null && !Array.isArray(v) ? v : { _invalid_input: json };
  } catch {
    return { _invalid_input: json };
  }
}

function mapStopReason(r: string): StopReason {
  if (STOP_REASONS.has(r as StopReason)) return r as StopReason;
  // "model_context_window_exceeded" and future reasons: the output was cut short.
  return "max_tokens";
}
