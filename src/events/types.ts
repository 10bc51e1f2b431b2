// Everything that happens in a session is one of these events. Durable events are the truth
// (written to the session log, replayed on --resume); ephemeral ones only feed the UI and
// stream-json. Zod schemas for the durable ones live in ./schema.ts.
import type {
  AssistantBlock,
  AssistantMessage,
  Usage,
  ToolResultContent,
  UserBlock,
} from "../model/types.ts";
import type { ToolDisplay, ToolFacts, ToolOutcomeKind, ToolPreview } from "../tools/types.ts";

export type PermissionMode = "default" | "acceptEdits" | "plan" | "bypassPermissions" | "dontAsk";

type Base = { id: string; ts: number };

export type SessionHeader = Base & {
  type: "session_header";
  formatVersion: number;
  khaelorVersion: string;
  sessionId: string;
  cwd: string;
  model: string;
  permissionMode: PermissionMode;
  /** The session this one was forked from, if any. */
  forkedFrom?: string;
  git?: { root: string; branch: string | null; head: string | null; dirty: Array<{ path: string; hash: string | null }> } | null;
};

export type UserMessageEvent = Base & {
  type: "user_message";
  content: string | UserBlock[];
  /** A message sent while the agent was working, delivered at a loop boundary. */
  steering?: boolean;
  /** A message injected by a policy (verification nudge, doom-loop nudge), not typed by the user. */
  synthetic?: "verify" | "doom_loop" | "process_exit" | "stop_hook" | "shell" | "structured_output" | "agent";
  /**
   * With synthetic "shell": a command the user ran with `!` in the composer, shown as its row
   * (its output is in `content`, as the model reads it: ./user-shell.ts). No model turn ran.
   */
  shell?: UserShellRecord;
  /**
   * What the user typed, when the model was sent something else in its place: `/init` or
   * `/review main`, whose generated prompt is `content`. The transcript shows this.
   */
  display?: string;
};

/** A `!` command's outcome: its exit code (null when a signal ended it), whether the user stopped it (Esc). */
export type UserShellRecord = { runId: string; command: string; exitCode: number | null; stopped?: boolean; durationMs: number };

export type AssistantMessageEvent = Base & {
  type: "assistant_message";
  message: AssistantMessage;
  /** null when the model has no known price. */
  costUsd: number | null;
  /** Stream stopped by the user; content is what had arrived. */
  interrupted?: boolean;
};

export type ToolResultEvent = Base & {
  type: "tool_result";
  toolUseId: string;
  name: string;
  content: ToolResultContent;
  isError: boolean;
  kind: ToolOutcomeKind;
  summary: string;
  display?: ToolDisplay;
  /**
   * On an error result: whether it failed because the call was cancelled (the user's Esc, a crash).
   * Absent in logs written before it was recorded; their text says it.
   */
  interrupted?: boolean;
  durationMs: number;
};

export type PermissionDecisionEvent = Base & {
  type: "permission_decision";
  toolUseId: string;
  toolName: string;
  decision: "allow" | "deny";
  /** Who decided: a rule, the mode, the user, the hardline floor. */
  source: string;
  /** A rule the user chose to save ("allow always"), and where. */
  savedRule?: { rule: string; scope: "session" | "local" | "project" | "user" };
  message?: string;
};

export type CompactionEvent = Base & {
  type: "compaction";
  summary: string;
  /** Events before this id are replaced by the summary in the model's view. */
  firstKeptEventId: string;
  tokensBefore: number;
  tokensAfter: number;
  trigger: "auto" | "manual" | "overflow";
  /**
   * Tool calls whose old output is replaced by a short stub in the model's view (cumulative over
   * the session). A prune-only compaction carries the previous summary and firstKeptEventId over.
   */
  prunedToolUseIds?: string[];
  /** The summarising call's own usage and price (null price: unknown model); absent for a prune. */
  usage?: Usage;
  costUsd?: number | null;
};

export type InterruptionEvent = Base & {
  type: "interruption";
  reason: "user" | "sigint" | "sigterm" | "sighup" | "crash_recovery";
};

export type SettingChangeEvent = Base & {
  type: "setting_change";
  model?: string;
  permissionMode?: PermissionMode;
  title?: string;
};

export type ErrorEvent = Base & {
  type: "error";
  kind: string;
  message: string;
};

export type UndoEvent = Base & {
  type: "undo";
  /** The snapshot restored to (tree id in the shadow repository). */
  snapshot: string;
  restored: string[];
  /** Those of `restored` the undo removed (the turn had created them); absent in older logs. */
  removed?: string[];
  skipped: Array<{ path: string; reason: string }>;
};

/**
 * The user went back to an earlier message (the app's rewind, --resume-session-at). The log keeps
 * the abandoned branch; the model's view is projected without it (src/session/view.ts).
 */
export type RewindEvent = Base & {
  type: "rewind";
  /** The event the conversation goes back to: a user message's id, or any message's (--resume-session-at). */
  to: string;
  /** "before": the view ends just before `to` (the message comes back to be edited); "through": it ends with `to`. */
  keep: "before" | "through";
  /** The model's view went back; false for a rewind of the code only (the model is told the files went back). */
  conversation: boolean;
  /** What of the work tree went back, as /undo says it; absent when the code was not asked for. */
  code?: { snapshot: string; restored: string[]; removed: string[]; skipped: Array<{ path: string; reason: string }> };
  /** The conversation went back and the files were left as they are (conversation only, a fork from here): the model is told they may differ. */
  filesKept?: boolean;
};

export type TurnEndEvent = Base & {
  type: "turn_end";
  /** How the user's turn ended. */
  reason: TurnEndReason;
};

/**
 * A subagent (a child session the `agent` tool opened) ended: in the parent's log, so the child's
 * own log is reachable by id and its cost counts in the parent's. See notes/agents-events.md.
 */
export type AgentEndEvent = Base & {
  type: "agent_end";
  agentId: string;
  /** The parent's agent call. */
  toolUseId: string;
  agentType: string;
  status: AgentStatus;
  /** What the child spent (null: its model has no known price); counted in the parent's cost. */
  costUsd: number | null;
  usage: AgentUsage;
  durationMs: number;
  /** The child's own log, relative to the parent's log's directory. */
  log: string;
  background?: boolean;
  /** A worktree child that changed something: where its work is kept, on which branch. */
  worktree?: { path: string; branch: string };
};

export type AgentStatus = "completed" | "failed" | "cancelled";
/** Tokens a child used so far, summed over its requests. */
export type AgentUsage = { input_tokens: number; output_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number };

export type TurnEndReason =
  | "finished"
  | "max_turns"
  | "max_budget"
  | "wall_time"
  | "cancelled"
  | "doom_loop"
  | "strikes"
  /** A hook answered `continue: false` (Claude Code's: the turn stops, its stopReason is the user's to read). */
  | "hook_stopped"
  | "error";

export type DurableEvent =
  | SessionHeader
  | UserMessageEvent
  | AssistantMessageEvent
  | ToolResultEvent
  | PermissionDecisionEvent
  | CompactionEvent
  | InterruptionEvent
  | SettingChangeEvent
  | ErrorEvent
  | UndoEvent
  | TurnEndEvent
  | RewindEvent
  | AgentEndEvent;

/** Never written one by one: UI and stream-json only. */
export type EphemeralEvent =
  | { type: "text_delta"; index: number; text: string }
  | { type: "thinking_delta"; index: number; thinking: string }
  | { type: "tool_input_delta"; index: number; id: string; name: string; partialJson: string }
  | { type: "block_done"; index: number; block: AssistantBlock }
  | { type: "message_start"; id: string; model: string }
  /** partialDiscarded: deltas shown since the last message_start are void; the retry streams anew. */
  | { type: "api_retry"; attempt: number; maxRetries?: number; delayMs: number; status: number | null; message: string; partialDiscarded?: boolean }
  /**
   * A call is about to be asked about and run: its tool's facts (absent for an unknown tool) and
   * its preview, the plan run() applies (an edit's or a write's change, exactly).
   */
  | { type: "tool_start"; toolUseId: string; name: string; summary: string; facts?: ToolFacts; preview?: ToolPreview }
  | { type: "tool_progress"; toolUseId: string; chunk: string }
  | { type: "compacting"; trigger: CompactionEvent["trigger"] }
  /** A hook command runs (label: its event, matcher and command) and ends; message is what the user must read. */
  | { type: "hook_start"; runId: string; event: string; label: string }
  | { type: "hook_end"; runId: string; event: string; label: string; durationMs: number; ok: boolean; message?: string; output?: string }
  /** A `!` command the user typed runs (its output as it comes); a user_message with `shell` ends it. */
  | { type: "shell_start"; runId: string; command: string }
  | { type: "shell_progress"; runId: string; chunk: string }

  | AgentLiveEvent;

/**
 * A subagent as it runs, on the parent's bus (never in the parent's log: the child's own log has
 * its events, and agent_end closes it in the parent's). Every one names the child (agentId) and
 * the parent's agent call (toolUseId). See notes/agents-events.md.
 */
export type AgentLiveEvent =
  | {
      type: "agent_start";
      agentId: string;
      toolUseId: string;
      agentType: string;
      /** The call's short description (3-5 words, the model's). */
      description: string;
      model: string;
      effort?: AgentEffort;
      background: boolean;
      /** The child's own log (absolute). */
      logPath: string;
      /** The temporary worktree it runs in, for isolation "worktree". */
      worktree?: string;
    }
  /** Every event of the child, as its own bus carries it (deltas included), for a transcript of it. */
  | { type: "agent_event"; agentId: string; toolUseId: string; event: AgentEvent }
  /** What changed in the child's row: the tool it runs now (null: none), tokens and cost so far. */
  | { type: "agent_progress"; agentId: string; toolUseId: string; tool: { name: string; summary: string } | null; usage: AgentUsage; costUsd: number; steps: number };

export type AgentEffort = "low" | "medium" | "high" | "xhigh" | "max";

export type AgentEvent = DurableEvent | EphemeralEvent;

// Durable events carry a timestamp; ephemeral ones never do (message_start has an id, but no ts).
export const isDurable = (e: AgentEvent): e is DurableEvent => "ts" in e;

export type EventSink = (e: AgentEvent) => void;
