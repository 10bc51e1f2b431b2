// Subagents' rows as plain data: each folded from agent_start, agent_progress and agent_end only.
// A child's streamed deltas (agent_event) never touch a row: four children streaming at once must
// not cost a layout per delta (the bench's "agents" row).
import type { AgentEndEvent, AgentLiveEvent, AgentUsage } from "../../events/types.ts";
import type { AgentView } from "./entry.ts";

type Start = Extract<AgentLiveEvent, { type: "agent_start" }>;
type Progress = Extract<AgentLiveEvent, { type: "agent_progress" }>;

/** Tokens as the agent tool's result counts them (what the model read and wrote). */
export const agentTokens = (u: AgentUsage): number => u.input_tokens + u.output_tokens;

export function startedView(e: Start, now: number): AgentView {
  return {
    agentId: e.agentId,
    toolUseId: e.toolUseId,
    type: e.agentType,
    description: e.description,
    model: e.model,
    effort: e.effort ?? null,
    background: e.background,
    logPath: e.logPath,
    tool: null,
    tokens: 0,
    costUsd: 0,
    steps: 0,
    startedAt: now,
    status: "running",
    durationMs: null,
    branch: null,
  };
}

export function progressed(v: AgentView, e: Progress): void {
  v.tool = e.tool;
  v.tokens = agentTokens(e.usage);
  v.costUsd = e.costUsd;
  v.steps = e.steps;
}

/** Its end: the view it had, or one made from the log's agent_end alone (a resumed session). */
export function endedView(v: AgentView | undefined, e: AgentEndEvent): AgentView {
  const view: AgentView = v ?? {
    agentId: e.agentId,
    toolUseId: e.toolUseId,
    type: e.agentType,
    description: "",
    model: null,
    effort: null,
    background: e.background === true,
    // Relative to the parent's log: the pager reads the child's conversation from it.
    logPath: e.log,
    tool: null,
    tokens: 0,
    costUsd: null,
    steps: 0,
    startedAt: null,
    status: "running",
    durationMs: null,
    branch: null,
  };
  view.status = e.status;
  view.tool = null;
  view.tokens = agentTokens(e.usage);
  view.costUsd = e.costUsd;
  view.durationMs = e.durationMs;
  view.branch = e.worktree?.branch ?? null;
  return view;
}

export function formatTokens(n: number): string {
  return n < 1000 ? `${n}` : n < 1_000_000 ? `${(n / 1000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(1)}M`;
}

export function formatCost(c: number | null): string {
  return c === null ? "cost unknown" : `$${c.toFixed(4)}`;
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)}ms` : ms < 60_000 ? `${(ms / 1000).toFixed(1)}s` : `${Math.floor(ms / 60_000)}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s`;
}

/** A finished agent in one line: status, duration, steps, tokens, cost, the branch it left. */
export function agentSummary(v: AgentView): string {
  return [
    `${v.type} ${v.status}`,
    ...(v.durationMs !== null ? [formatMs(v.durationMs)] : []),
    ...(v.steps > 0 ? [`${v.steps} step${v.steps === 1 ? "" : "s"}`] : []),
    `${formatTokens(v.tokens)} tokens`,
    formatCost(v.costUsd),
    ...(v.branch ? [`branch ${v.branch}`] : []),
  ].join(" · ");
}

/** A running agent in one line: type, model, effort, the tool it runs now, tokens and cost so far. */
export function agentActivity(v: AgentView): string {
  return [
    v.type,
    ...(v.model ? [v.model] : []),
    ...(v.effort ? [`effort ${v.effort}`] : []),
    v.tool ? toolNow(v.tool) : v.steps === 0 ? "starting" : "thinking",
    `${formatTokens(v.tokens)} tokens`,
    formatCost(v.costUsd),
  ].join(" · ");
}

/** `Bash(npm test)`: a summary that starts with its tool's own name ("bash: …", "write a.txt") says it once. */
function toolNow(t: { name: string; summary: string }): string {
  const lead = t.name.toLowerCase();
  const low = t.summary.toLowerCase();
  const what = low.startsWith(lead) && /^[: ]/.test(low.slice(lead.length)) ? t.summary.slice(lead.length + 1).trim() : t.summary;
  return `${t.name}(${what})`;
}
