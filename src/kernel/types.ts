// What the kernel needs from the world. Everything here is an interface; main.ts wires real ones.
import type { EffortLevel, Message, ModelClient, ServerToolSpec, SystemBlock, Usage } from "../model/types.ts";
import type { PreparedCall, ToolCall, ToolRuntime } from "../tools/types.ts";
import type { Workspace } from "../workspace/types.ts";
import type { EventSink, TurnEndReason } from "../events/types.ts";

/** The model's view of the conversation; a projection of the session's events (src/session). */
export interface ConversationContext {
  /** Valid Messages API messages (every tool_use answered), compaction applied. */
  messages(): Message[];
  /** Shrink the view (prune, then summarise). Returns false when nothing more can be freed. */
  compact(trigger: "auto" | "manual" | "overflow", signal?: AbortSignal): Promise<boolean>;
  /** True when the view is near the model's window and should be compacted before the next query. */
  needsCompaction(): boolean;
}

export type GateDecision = { allow: true } | { allow: false; message: string };

/** Decides whether a prepared tool call may run (rules, mode, or asking the user, who sees its preview). */
export interface PermissionGate {
  authorize(call: PreparedCall, signal: AbortSignal): Promise<GateDecision>;
}

/** A service consulted at loop boundaries; it may inject a message or stop the run. */
export type PolicyVerdict = { kind: "continue" } | { kind: "nudge"; text: string; tag: "verify" | "doom_loop" | "stop_hook" | "structured_output" } | { kind: "stop"; reason: TurnEndReason; message: string };

export interface LoopPolicy {
  /** After the tool calls of one assistant message ran. */
  afterTools?(calls: ToolCall[], results: { isError: boolean }[]): PolicyVerdict;
  /** When the model ended its turn without tool calls (a Stop hook answers asynchronously). */
  onStop?(): PolicyVerdict | Promise<PolicyVerdict>;
  /** A new user turn starts. */
  onUserTurn?(): void;
}

export type Budgets = {
  maxTurns?: number;
  maxBudgetUsd?: number;
  wallTimeMs?: number;
  /** Consecutive malformed tool calls (unknown tool or invalid input) before the run ends. */
  maxStrikes?: number;
};

export type KernelDeps = {
  model: ModelClient;
  modelName: () => string;
  system: () => SystemBlock[];
  tools: ToolRuntime;
  /** The API's own tools to offer (web search and fetch), asked anew for every request. */
  serverTools?: () => ServerToolSpec[];
  workspace: Workspace;
  context: ConversationContext;
  gate: PermissionGate;
  emit: EventSink;
  policies?: LoopPolicy[];
  budgets?: Budgets;
  /** Messages typed while the agent works; drained at each loop boundary. */
  takeSteering?: () => string[];
  /** Notices for the model (e.g. "process dev exited with code 1"); drained at each loop boundary. */
  takeNotices?: () => string[];
  /** Results of subagents that ran in the background; drained at each loop boundary. */
  takeAgentNotices?: () => string[];
  /** Cost so far in this session, for --max-budget-usd. */
  costSoFar?: () => number;
  /** Price of one call; null when the model has no known price. */
  costOf?: (model: string, usage: Usage) => number | null;
  maxTokens?: number;
  thinkingBudget?: number;
  /** The effort level for this turn's requests (the model client sends it where the model takes it). */
  effort?: EffortLevel;
  /** --fallback-model: where a request goes after three overload errors in a row. */
  fallbackModel?: string;
};
