// Tallies a print-mode run from its events and builds Claude Code's `result` object, so tools
// written for `claude -p --output-format json|stream-json` read ours unchanged.
import type { AgentEvent, TurnEndReason } from "../events/types.ts";
import { zeroUsage, type Usage } from "../model/types.ts";

export type PermissionDenial = { tool_name: string; tool_use_id: string; tool_input: unknown };

export type RunTally = {
  usage: Usage;
  costUsd: number;
  /** False as soon as one call had no known price. */
  costKnown: boolean;
  numTurns: number;
  apiMs: number;
  denials: PermissionDenial[];
  toolInputs: Map<string, { name: string; input: unknown }>;
};

export function createTally(): RunTally & { observe(e: AgentEvent): void } {
  const tally: RunTally = { usage: zeroUsage(), costUsd: 0, costKnown: true, numTurns: 0, apiMs: 0, denials: [], toolInputs: new Map() };
  let requestStarted: number | null = null;
  const addCall = (u: Usage, cost: number | null) => {
    tally.usage.input_tokens += u.input_tokens;
    tally.usage.output_tokens += u.output_tokens;
    tally.usage.cache_read_input_tokens += u.cache_read_input_tokens;
    tally.usage.cache_creation_input_tokens += u.cache_creation_input_tokens;
    if (cost === null) tally.costKnown = false;
    else tally.costUsd += cost;
  };
  return Object.assign(tally, {
    observe(e: AgentEvent) {
      switch (e.type) {
        case "user_message":
          requestStarted = Date.now();
          break;
        case "tool_result":
          requestStarted = Date.now();
          break;
        case "compaction":
          if (e.usage) addCall(e.usage, e.costUsd ?? null);
          break;
        case "agent_end":
          // A subagent's tokens and cost are the run's too (Claude Code's total_cost_usd holds them).
          addCall(e.usage, e.costUsd);
          break;
        case "assistant_message": {
          if (requestStarted !== null) tally.apiMs += Date.now() - requestStarted;
          requestStarted = Date.now();
          tally.numTurns++;
          if (e.costUsd !== null || !e.interrupted) addCall(e.message.usage, e.costUsd);
          for (const b of e.message.content) if (b.type === "tool_use") tally.toolInputs.set(b.id, { name: b.name, input: b.input });
          break;
        }
        case "permission_decision":
          if (e.decision === "deny")
            tally.denials.push({ tool_name: e.toolName, tool_use_id: e.toolUseId, tool_input: tally.toolInputs.get(e.toolUseId)?.input ?? null });
          break;
      }
    },
  });
}

export type ResultSubtype = "success" | "error_max_turns" | "error_max_budget_usd" | "error_during_execution";

export function subtypeFor(reason: TurnEndReason): ResultSubtype {
  switch (reason) {
    case "finished":
    // A hook that stops the turn meant to (Claude Code reports it as a success too).
    case "hook_stopped":
      return "success";
    case "max_turns":
      return "error_max_turns";
    case "max_budget":
      return "error_max_budget_usd";
    default:
      return "error_during_execution";
  }
}

export function buildResult(opts: {
  tally: RunTally;
  reason: TurnEndReason;
  text: string;
  errorMessage?: string;
  sessionId: string;
  durationMs: number;
  /** --json-schema: the object the model gave, valid against the schema (Claude Code's structured_output). */
  structuredOutput?: unknown;
}) {
  const subtype = subtypeFor(opts.reason);
  const isError = subtype !== "success";
  return {
    type: "result" as const,
    subtype,
    is_error: isError,
    duration_ms: opts.durationMs,
    duration_api_ms: opts.tally.apiMs,
    num_turns: opts.tally.numTurns,
    result: isError && !opts.text ? (opts.errorMessage ?? opts.reason) : opts.text,
    ...(isError && opts.errorMessage ? { error: opts.errorMessage } : {}),
    // Claude Code's error results list what went wrong; the Agent SDK reads this on every error result.
    ...(isError ? { errors: [opts.errorMessage ?? opts.reason] } : {}),
    stop_reason: opts.reason,
    session_id: opts.sessionId,
    // Claude Code's consumers read a number here; "unknown" is signalled separately so nobody sums a guess.
    total_cost_usd: opts.tally.costUsd,
    cost_known: opts.tally.costKnown,
    usage: { ...opts.tally.usage },
    permission_denials: opts.tally.denials,
    ...(opts.structuredOutput !== undefined ? { structured_output: opts.structuredOutput } : {}),
  };
}
