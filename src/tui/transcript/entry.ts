// The entries of the transcript as plain data: what ./transcript.ts folds events into and every
// view (live zone, history, pager) renders.

export type NoticeLevel = "info" | "warn" | "error";

export type Entry =
  | { kind: "user"; key: number; text: string; steering: boolean }
  /** cut: the message hit the output-token limit (stop_reason max_tokens) and ends here mid-sentence. */
  | { kind: "assistant"; key: number; text: string; done: boolean; interrupted: boolean; cut?: boolean; /** Its text block ended; its message has not come yet. */ textEnded?: boolean }
  | { kind: "thinking"; key: number; text: string; done: boolean; startedAt: number; durationMs: number | null }
  | { kind: "tool"; key: number; view: ToolCallView; input: unknown }
  | { kind: "notice"; key: number; text: string; level: NoticeLevel };

/** True once an entry will not change any more (it may be committed to history). */
export function isSettled(e: Entry): boolean {
  switch (e.kind) {
    case "assistant":
    case "thinking":
      return e.done;
    case "tool":
      return e.view.status !== "running" && e.view.status !== "pending";
    default:
      return true;
  }
}

/** Plain text of an entry, for search. */
export function entryText(e: Entry): string {
  switch (e.kind) {
    case "user":
    case "assistant":
    case "thinking":
    case "notice":
      return e.text;
    case "tool":
      return [e.view.summary, e.view.output ?? e.view.error ?? "", e.view.diff ?? ""].join("\n");
  }
}

export type ToolStatus = "pending" | "running" | "ok" | "error" | "denied" | "interrupted";

export type ToolCallView = {
  id: string;
  name: string;
  summary: string;
  status: ToolStatus;
  startedAt: number | null;
  durationMs: number | null;
  /** The last lines of live output (bash, process), already capped by the model. */
  outputTail: string[];
  diff?: string;
  path?: string;
  /** The last lines of a finished command's output. */
  resultTail?: string[];
  /** The whole result, less the notes meant for the model (see ./tool-output.ts), shown in the pager. */
  output?: string;
  /** Why it failed or was denied, shown in red. */
  error?: string;
  /** The subagents this call runs (the agent tool): a row each under it. */
  agents?: AgentView[];
};

/**
 * A subagent as its row shows it: updated from agent_start, agent_progress and agent_end only
 * (never per streamed delta), its whole conversation kept apart for the pager.
 */
export type AgentView = {
  agentId: string;
  toolUseId: string;
  type: string;
  description: string;
  /** Null when only its end is known (a resumed session's log). */
  model: string | null;
  effort: string | null;
  background: boolean;
  /** Its own log (the pager's source once the app restarts): absolute, or relative to the parent's log (from agent_end). */
  logPath: string | null;
  /** The tool it runs now: Claude Code's name and the call's summary. */
  tool: { name: string; summary: string } | null;
  tokens: number;
  costUsd: number | null;
  steps: number;
  startedAt: number | null;
  status: "running" | "completed" | "failed" | "cancelled";
  durationMs: number | null;
  /** The worktree it changed, kept on this branch. */
  branch: string | null;
};

export type RetryView = {
  /** 1 for the first retry. */
  attempt: number;
  /** Retries the client makes at most (null: not told). */
  maxRetries: number | null;
  status: number | null;
  message: string;
  /** When the next request goes out (ms since the epoch). */
  until: number;
};

export const CUT_NOTICE = "the answer hit the output-token limit and was cut off; ask to continue";
