// Print mode's outputs. Each printer sees every agent event and the final result object;
// stdout carries only the requested format, diagnostics go to stderr.
import type { SystemInit } from "./system-init.ts";
import { neutralizeControlsButLines } from "../text/control-chars.ts";
import { claudeToolName } from "../hooks/tool-names.ts";
import { randomUUID } from "node:crypto";
import { describeServerCall, describeServerResult, isServerBlock, toWire } from "../model/server-blocks.ts";
import type { AgentEvent } from "../events/types.ts";
import type { AssistantBlock } from "../model/types.ts";
import type { buildResult } from "./result.ts";

export type ResultObject = ReturnType<typeof buildResult>;
export type Out = { write(s: string): void };

export interface Printer {
  init(info: SystemInit): void;
  onEvent(e: AgentEvent): void;
  finish(result: ResultObject): void;
}

/** Plain text: the answer streams as whole lines arrive, so `| tee log` shows progress. */
export function textPrinter(stdout: Out, rawStderr: Out, verbose: boolean): Printer {
  // Diagnostics carry the model's commands, tools' output and project files' words: no control
  // reaches the user's terminal through them (ARCHITECTURE.md invariant 8).
  const stderr: Out = { write: (s) => rawStderr.write(neutralizeControlsButLines(s)) };
  let line = "";
  let wroteAny = false;
  let needSeparator = false;
  const flushLine = () => {
    if (line) stdout.write(line);
    line = "";
  };
  return {
    init() {},
    onEvent(e) {
      switch (e.type) {
        case "message_start":
          if (needSeparator) {
            line = "\n";
            needSeparator = false;
          }
          break;
        case "text_delta": {
          line += e.text;
          const nl = line.lastIndexOf("\n");
          if (nl >= 0) {
            stdout.write(line.slice(0, nl + 1));
            line = line.slice(nl + 1);
          }
          wroteAny = true;
          break;
        }
        case "assistant_message":
          if (line) flushLine();
          if (e.message.content.some((b) => b.type === "text")) {
            const last = e.message.content.filter((b) => b.type === "text").at(-1);
            if (last && last.type === "text" && !last.text.endsWith("\n")) stdout.write("\n");
            needSeparator = true;
          } else line = "";
          if (e.interrupted) stderr.write("[interrupted]\n");
          else if (e.message.stop_reason === "max_tokens") stderr.write("khaelor: the answer hit the output-token limit and was cut off\n");
          break;
        case "api_retry":
          // Always said: a run that waits out retries must not look hung.
          stderr.write(`khaelor: ${retryLine(e)}\n`);
          if (e.partialDiscarded) {
            // Whole lines already on stdout cannot be taken back; the unfinished one can.
            line = "";
            stderr.write("[the stream was cut and restarts; lines above may repeat]\n");
          }
          break;
        case "tool_start":
          if (verbose) stderr.write(`[${e.summary}]\n`);
          break;
        case "block_done":
          // The API's own tools run without a tool_start: say what they did as they finish.
          if (verbose && e.block.type === "server_tool_use") stderr.write(`[${describeServerCall(e.block)}]\n`);
          else if (verbose && isServerBlock(e.block) && e.block.type !== "server_tool_use") stderr.write(`[${describeServerResult(e.block).split("\n")[0]}]\n`);
          break;
        case "tool_result":
          if (verbose && e.isError) stderr.write(`[${e.name} failed: ${firstLine(e.content)}]\n`);
          break;
        case "permission_decision":
          if (e.decision === "deny") stderr.write(`[denied ${e.toolName}: ${e.message ?? e.source}]\n`);
          break;
        case "compacting":
          if (verbose) stderr.write(`[compacting context]\n`);
          break;
        case "hook_end":
          // A hook's failure or message is the user's to read; its plain output only with --verbose.
          if (e.message) stderr.write(`khaelor: ${e.message}\n`);
          else if (verbose && e.output) stderr.write(`[hook ${e.label}: ${e.output}]\n`);
          break;
      }
    },
    finish(result) {
      flushLine();
      if (result.is_error) stderr.write(`khaelor: ${result.error ?? result.subtype}\n`);
      else if (!wroteAny && result.result) stdout.write(`${result.result}\n`);
    },
  };
}

/** `--output-format json`: the result object only, at the end. */
export function jsonPrinter(stdout: Out, stderr: Out): Printer {
  const diag = textPrinter({ write() {} }, stderr, false);
  return {
    init() {},
    onEvent: (e) => diag.onEvent(e),
    finish(result) {
      stdout.write(`${JSON.stringify(result)}\n`);
    },
  };
}

/** `--output-format stream-json`: Claude Code's NDJSON schema, init first, result last. */
export function streamJsonPrinter(stdout: Out, includePartial: boolean, replayUserMessages = false): Printer {
  let sessionId = "";
  // A message's line carries its event's id as its uuid: the id the log keeps, which hosts pass
  // back (--resume-session-at). Lines that are no message of the log get a fresh one.
  const line = (o: object, id?: string) => stdout.write(`${JSON.stringify({ ...o, session_id: sessionId, uuid: id ?? randomUUID() })}\n`);
  const startedBlocks = new Set<number>();
  return {
    init(info) {
      sessionId = info.session_id;
      line({ type: "system", subtype: "init", ...info });
    },
    onEvent(e) {
      // A subagent's messages, under the parent's agent call (Claude Code's parent_tool_use_id);
      // its deltas stay its own (they would interleave with the parent's blocks).
      if (e.type === "agent_event") {
        const c = e.event;
        if (c.type === "assistant_message" || c.type === "tool_result" || c.type === "user_message") message(c, e.toolUseId);
        return;
      }
      message(e, null);
    },
    finish(result) {
      stdout.write(`${JSON.stringify({ ...result, uuid: randomUUID() })}\n`);
    },
  };

  function message(e: AgentEvent, parent: string | null) {
    switch (e.type) {
      case "assistant_message":
        if (includePartial && !e.interrupted && parent === null) {
          line({ type: "stream_event", event: { type: "message_delta", delta: { stop_reason: e.message.stop_reason, stop_sequence: null }, usage: e.message.usage }, parent_tool_use_id: null });
          line({ type: "stream_event", event: { type: "message_stop" }, parent_tool_use_id: null });
        }
        line({
          type: "assistant",
          // Server tool blocks as the API sent them, as Claude Code prints them.
          // Tool calls by Claude Code's names (Bash, Read), as init lists them and hosts match them.
          message: { ...e.message, content: e.message.content.map((b) => (b.type === "tool_use" ? { ...b, name: claudeToolName(b.name) } : toWire(b))), type: "message", role: "assistant", stop_sequence: null },
          parent_tool_use_id: parent,
          ...(e.interrupted ? { interrupted: true } : {}),
        }, e.id);
        break;
      case "tool_result":
        line({
          type: "user",
          message: { role: "user", content: [{ type: "tool_result", tool_use_id: e.toolUseId, content: e.content, is_error: e.isError }] },
          parent_tool_use_id: parent,
        }, e.id);
        break;
      case "user_message":
        // A child's prompt is shown too: the host sees what the subagent was asked.
        if (e.steering || e.synthetic || parent !== null)
          line({ type: "user", message: { role: "user", content: typeof e.content === "string" ? [{ type: "text", text: e.content }] : e.content }, parent_tool_use_id: parent }, e.id);
        // --replay-user-messages: the host's own message back, as Claude Code echoes it, with the
        // id the log keeps (the host's uuid when it sent one); the reminders added for the model stay out.
        else if (replayUserMessages) line({ type: "user", message: { role: "user", content: typedContent(e.content) }, parent_tool_use_id: null, isReplay: true }, e.id);
        break;
      case "api_retry":
        line({ type: "system", subtype: "api_retry", attempt: e.attempt, retry_delay_ms: e.delayMs, error_status: e.status, error: e.message });
        break;
      case "compaction":
        line({ type: "system", subtype: "compact_boundary", compact_metadata: { trigger: e.trigger === "manual" ? "manual" : "auto", pre_tokens: e.tokensBefore, post_tokens: e.tokensAfter } });
        break;
      default:
        if (includePartial && parent === null) partial(e);
    }
  }

  function partial(e: AgentEvent) {
    const event = (ev: object) => line({ type: "stream_event", event: ev, parent_tool_use_id: null });
    const start = (index: number, block: object) => {
      if (startedBlocks.has(index)) return;
      startedBlocks.add(index);
      event({ type: "content_block_start", index, content_block: block });
    };
    switch (e.type) {
      case "message_start":
        startedBlocks.clear();
        event({ type: "message_start", message: { id: e.id, type: "message", role: "assistant", model: e.model, content: [] } });
        break;
      case "text_delta":
        start(e.index, { type: "text", text: "" });
        event({ type: "content_block_delta", index: e.index, delta: { type: "text_delta", text: e.text } });
        break;
      case "thinking_delta":
        start(e.index, { type: "thinking", thinking: "" });
        event({ type: "content_block_delta", index: e.index, delta: { type: "thinking_delta", thinking: e.thinking } });
        break;
      case "tool_input_delta":
        start(e.index, { type: "tool_use", id: e.id, name: claudeToolName(e.name), input: {} });
        event({ type: "content_block_delta", index: e.index, delta: { type: "input_json_delta", partial_json: e.partialJson } });
        break;
      case "block_done":
        // A block with no deltas (redacted thinking, a tool call with empty input) still starts.
        start(e.index, startOf(e.block));
        // A server tool call's input is streamed by the API but only complete here: one delta.
        if (e.block.type === "server_tool_use") event({ type: "content_block_delta", index: e.index, delta: { type: "input_json_delta", partial_json: JSON.stringify(e.block.input ?? {}) } });
        event({ type: "content_block_stop", index: e.index });
        break;
    }
  }
}

function startOf(block: AssistantBlock): object {
  switch (block.type) {
    case "text":
      return { type: "text", text: "" };
    case "thinking":
      return { type: "thinking", thinking: "", signature: "" };
    case "tool_use":
      return { type: "tool_use", id: block.id, name: claudeToolName(block.name), input: {} };
    case "server_tool_use":
      return { ...block, input: {} };
    default:
      return toWire(block);
  }
}

function firstLine(content: unknown): string {
  const text = typeof content === "string" ? content : Array.isArray(content) ? content.map((b: { text?: string }) => b.text ?? "").join(" ") : "";
  return text.split("\n")[0]?.slice(0, 200) ?? "";
}

/** "The API is overloaded (529 overloaded_error: Overloaded). Retry 1 of 8 in 2.5s." */
const typedContent = (c: Extract<AgentEvent, { type: "user_message" }>["content"]) =>
  typeof c === "string" ? c : c.filter((b) => !(b.type === "text" && b.text.startsWith("<system-reminder>")));

export function retryLine(e: Extract<AgentEvent, { type: "api_retry" }>): string {
  const wait = e.delayMs < 1000 ? `${Math.round(e.delayMs)} ms` : e.delayMs < 10_000 ? `${(e.delayMs / 1000).toFixed(1)}s` : `${Math.round(e.delayMs / 1000)}s`;
  return `${e.message} Retry ${e.attempt}${e.maxRetries ? ` of ${e.maxRetries}` : ""} in ${wait}.`;
}
