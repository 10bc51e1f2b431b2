// What a status-line command reads on stdin: Claude Code's JSON for it (hook_event_name "Status"),
// so a script written for Claude Code runs unchanged. The tallies it needs beyond the session's
// own (lines changed, time spent waiting for the API) are kept here from the session's events.
import type { AgentSession } from "../../agent/types.ts";
import type { AgentEvent } from "../../events/types.ts";
import { modelInfo } from "../../model/models.ts";
import { parseUnifiedDiff } from "../../tui/views/diff-view.ts";
import { VERSION } from "../../version.ts";

export type UsageTotals = { input: number; output: number; cacheRead: number; cacheWrite: number; lastContext: number | null };

type LastUsage = { input_tokens: number; output_tokens: number; cache_creation_input_tokens: number; cache_read_input_tokens: number };

export type StatusTallies = { observe(e: AgentEvent): void; linesAdded: number; linesRemoved: number; apiMs: number; lastUsage: LastUsage | null };

export function statusTallies(now: () => number): StatusTallies {
  let requestAt: number | null = null;
  const t: StatusTallies = {
    linesAdded: 0,
    linesRemoved: 0,
    apiMs: 0,
    lastUsage: null,
    observe(e) {
      if (e.type === "message_start") requestAt = now();
      else if (e.type === "assistant_message") {
        const u = e.message.usage;
        t.lastUsage = { input_tokens: u.input_tokens, output_tokens: u.output_tokens, cache_creation_input_tokens: u.cache_creation_input_tokens, cache_read_input_tokens: u.cache_read_input_tokens };
        if (requestAt !== null) t.apiMs += Math.max(0, now() - requestAt);
        requestAt = null;
      } else if (e.type === "tool_result" && !e.isError && e.display?.diff) {
        const { added, removed } = parseUnifiedDiff(e.display.diff);
        t.linesAdded += added;
        t.linesRemoved += removed;
      }
    },
  };
  return t;
}

/** "claude-opus-5-5" → "Opus 5.5"; a name we cannot read stays as it is. */
export function displayName(model: string): string {
  const m = /^claude-(opus|sonnet|haiku)-(\d+)(?:-(\d))?(?:-\d{8})?$/.exec(model);
  if (!m) return model;
  const family = m[1]!.charAt(0).toUpperCase() + m[1]!.slice(1);
  return `${family} ${m[2]}${m[3] ? `.${m[3]}` : ""}`;
}

export function statusLineInput(o: {
  session: AgentSession;
  usage: UsageTotals;
  tallies: StatusTallies;
  startedAt: number;
  now: number;
  vimMode?: "normal" | "insert" | null;
}): Record<string, unknown> {
  const s = o.session;
  const model = s.model();
  const size = modelInfo(model)?.contextWindow ?? null;
  const used = o.usage.lastContext;
  const pct = size && used !== null ? Math.min(100, Math.round((used / size) * 1000) / 10) : null;
  return {
    hook_event_name: "Status",
    session_id: s.sessionId,
    transcript_path: s.logPath,
    cwd: s.cwd,
    model: { id: model, display_name: displayName(model) },
    workspace: { current_dir: s.cwd, project_dir: s.cwd },
    version: VERSION,
    output_style: { name: "default" },
    permission_mode: s.permissionMode(),
    cost: {
      total_cost_usd: s.costSoFar(),
      total_duration_ms: Math.max(0, o.now - o.startedAt),
      total_api_duration_ms: o.tallies.apiMs,
      total_lines_added: o.tallies.linesAdded,
      total_lines_removed: o.tallies.linesRemoved,
    },
    context_window: {
      total_input_tokens: o.usage.input + o.usage.cacheRead + o.usage.cacheWrite,
      total_output_tokens: o.usage.output,
      context_window_size: size,
      current_usage: o.tallies.lastUsage,
      used_percentage: pct,
      remaining_percentage: pct === null ? null : Math.round((100 - pct) * 10) / 10,
    },
    exceeds_200k_tokens: (used ?? 0) > 200_000,
    ...(o.vimMode ? { vim: { mode: o.vimMode === "normal" ? "NORMAL" : "INSERT" } } : {}),
  };
}
