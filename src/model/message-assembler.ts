// Folds the raw SSE events of one streamed message into our ModelEvents and the finished
// AssistantMessage. Thinking blocks keep their signature and redacted_thinking its data, byte for
// byte: the API rejects a conversation whose thinking blocks were altered.
import type { RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import type { AssistantBlock, AssistantMessage, ModelEvent, StopReason, Usage } from "./types.ts";
import { zeroUsage } from "./types.ts";

type BlockState =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string; signature: string }
  | { type: "redacted_thinking"; data: string }
  | { type: "tool_use"; id: string; name: string; json: string }
  /** The API's tool search: the call (input streamed as JSON) and its result, sent back as they came. */
  | { type: "server_tool_use"; id: string; name: string; json: string }
  | { type: "tool_search_tool_result"; tool_use_id: string; content: unknown }
  /** Server-side blocks (web search results, ...) we neither show nor send back. */
  | { type: "ignored" };

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
        const b = ev.content_block;
        const state: BlockState =
          b.type === "text"
            ? { type: "text", text: b.text }
            : b.type === "thinking"
              ? { type: "thinking", thinking: b.thinking, signature: b.signature }
              : b.type === "redacted_thinking"
                ? { type: "redacted_thinking", data: b.data }
                : b.type === "tool_use"
                  ? { type: "tool_use", id: b.id, name: b.name, json: "" }
                  : b.type === "server_tool_use" && b.name.startsWith("tool_search_tool")
                    ? { type: "server_tool_use", id: b.id, name: b.name, json: "" }
                    : b.type === "tool_search_tool_result"
                      ? { type: "tool_search_tool_result", tool_use_id: b.tool_use_id, content: b.content }
                      : { type: "ignored" };
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
        if (!s || s.type === "ignored") return [];
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
        // a tool search without its result (or its result alone) cannot be sent back either
        if (done.type !== "tool_use" && done.type !== "server_tool_use" && done.type !== "tool_search_tool_result") out.push(done);
      } else if (s.type === "text" && s.text !== "") out.push({ type: "text", text: s.text });
    });
    return out;
  }

  /** Usage as reported so far (a stopped stream never sends its final message_delta). */
  usageSoFar(): Usage {
    return { ...this.usage };
  }

  private mergeUsage(u: Partial<Record<keyof Usage, number | null>> | null | undefined): void {
    if (!u) return;
    for (const k of ["input_tokens", "output_tokens", "cache_read_input_tokens", "cache_creation_input_tokens"] as const) {
      const v = u[k];
      if (typeof v === "number") this.usage[k] = v;
    }
  }
}

function finish(s: Exclude<BlockState, { type: "ignored" }>): AssistantBlock {
  switch (s.type) {
    case "text":
      return { type: "text", text: s.text };
    case "thinking":
      return { type: "thinking", thinking: s.thinking, signature: s.signature };
    case "redacted_thinking":
      return { type: "redacted_thinking", data: s.data };
    case "tool_use":
      return { type: "tool_use", id: s.id, name: s.name, input: parseToolInput(s.json) };
    case "server_tool_use":
      return { type: "server_tool_use", id: s.id, name: s.name, input: parseToolInput(s.json) };
    case "tool_search_tool_result":
      return { type: "tool_search_tool_result", tool_use_id: s.tool_use_id, content: s.content };
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
