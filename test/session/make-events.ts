// Small factories for durable events, so tests read as conversations.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { AssistantMessageEvent, CompactionEvent, DurableEvent, RewindEvent, ToolResultEvent, UserMessageEvent } from "../../src/events/types.ts";
import type { AssistantBlock, Usage } from "../../src/model/types.ts";

let n = 0;
export const nextId = (): string => `e${String(++n).padStart(6, "0")}`;
const base = () => ({ id: nextId(), ts: 1_700_000_000_000 + n * 1000 });

export const user = (content: UserMessageEvent["content"], extra: Partial<UserMessageEvent> = {}): UserMessageEvent => ({
  ...base(),
  type: "user_message",
  content,
  ...extra,
});

export const usage = (input = 100, output = 20): Usage => ({ input_tokens: input, output_tokens: output, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });

export const assistant = (content: AssistantBlock[], extra: Partial<AssistantMessageEvent> & { usage?: Usage } = {}): AssistantMessageEvent => {
  const { usage: u, ...rest } = extra;
  return {
    ...base(),
    type: "assistant_message",
    message: { id: `msg_${n}`, model: "claude-sonnet-5-5", content, stop_reason: content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn", usage: u ?? usage() },
    costUsd: 0.001,
    ...rest,
  };
};

export const text = (t: string): AssistantBlock => ({ type: "text", text: t });
export const toolUse = (id: string, name = "bash", input: unknown = { command: "ls" }): AssistantBlock => ({ type: "tool_use", id, name, input });

export const toolResult = (toolUseId: string, content: ToolResultEvent["content"] = "ok", extra: Partial<ToolResultEvent> = {}): ToolResultEvent => ({
  ...base(),
  type: "tool_result",
  toolUseId,
  name: "bash",
  content,
  isError: false,
  kind: "ok",
  summary: "bash: ls",
  durationMs: 5,
  ...extra,
});

export const compaction = (summary: string, firstKeptEventId: string, extra: Partial<CompactionEvent> = {}): CompactionEvent => ({
  ...base(),
  type: "compaction",
  summary,
  firstKeptEventId,
  tokensBefore: 1000,
  tokensAfter: 100,
  trigger: "auto",
  ...extra,
});

export const turnEnd = (): DurableEvent => ({ ...base(), type: "turn_end", reason: "finished" });

/** A throwaway KHAELOR_HOME and project directory; `cleanup()` removes both. */
export function tempHome() {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-session-"));
  const env = { KHAELOR_HOME: join(dir, "home") };
  const cwd = join(dir, "project");
  mkdirSync(cwd, { recursive: true });
  return { dir, env, cwd, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export const rewind = (to: string, extra: Partial<RewindEvent> = {}): RewindEvent => ({ ...base(), type: "rewind", to, keep: "before", conversation: true, ...extra });
