// A subagent as an ACP client sees it: its parent's agent call is a tool call whose content is
// the child's progress (its type and model, the tool it runs now, tokens and cost so far), updated
// on agent_progress only (a child's own deltas are not sent), and completed or failed when the
// child ends. A background agent's call answers at once, so it stays in progress until then.
import type { SessionUpdate, ToolCallContent } from "@agentclientprotocol/sdk";
import type { AgentEvent, AgentUsage } from "../../events/types.ts";

type AgentLive = Extract<AgentEvent, { type: "agent_start" | "agent_progress" | "agent_event" | "agent_end" }>;
type Child = { type: string; model: string; effort?: string; description: string; background: boolean };

const text = (t: string): ToolCallContent => ({ type: "content", content: { type: "text", text: t } });
const tokens = (u: AgentUsage) => u.input_tokens + u.output_tokens;
const cost = (c: number | null) => (c === null ? "cost unknown" : `$${c.toFixed(4)}`);

export function createAgentUpdates() {
  const children = new Map<string, Child>();
  /** Background agents still running, by their call's id. */
  const background = new Set<string>();
  const translate = (e: AgentLive): SessionUpdate[] => {
    switch (e.type) {
      case "agent_start": {
        const c: Child = { type: e.agentType, model: e.model, ...(e.effort ? { effort: e.effort } : {}), description: e.description, background: e.background };
        children.set(e.agentId, c);
        if (e.background) background.add(e.toolUseId);
        return [update(e.toolUseId, [text(`${head(c)} · starting`)])];
      }
      case "agent_progress": {
        const c = children.get(e.agentId);
        if (!c) return [];
        const now = e.tool ? toolNow(e.tool) : e.steps === 0 ? "starting" : "thinking";
        return [update(e.toolUseId, [text(`${head(c)} · ${now} · ${tokens(e.usage)} tokens · ${cost(e.costUsd)} · ${e.steps} step${e.steps === 1 ? "" : "s"}`)])];
      }
      case "agent_end": {
        children.delete(e.agentId);
        // A foreground call's own result follows with the child's answer and its status.
        if (!background.delete(e.toolUseId)) return [];
        const summary = `${e.agentType} ${e.status} · ${Math.round(e.durationMs)} ms · ${tokens(e.usage)} tokens · ${cost(e.costUsd)}${e.worktree ? ` · branch ${e.worktree.branch}` : ""}`;
        return [{ sessionUpdate: "tool_call_update", toolCallId: e.toolUseId, status: e.status === "completed" ? "completed" : "failed", content: [text(summary)] }];
      }
      default:
        return [];
    }
  };
  return {
    translate,
    /** A background agent's call is answered while its child still runs. */
    running: (toolUseId: string) => background.has(toolUseId),
  };
}

function head(c: Child): string {
  return [c.type, c.model, ...(c.effort ? [`effort ${c.effort}`] : [])].join(" · ");
}

function update(toolCallId: string, content: ToolCallContent[]): SessionUpdate {
  return { sessionUpdate: "tool_call_update", toolCallId, status: "in_progress", content };
}

/** `Read(a.txt)`: a summary that starts with its tool's own name ("read a.txt") says it once. */
function toolNow(t: { name: string; summary: string }): string {
  const lead = t.name.toLowerCase();
  const low = t.summary.toLowerCase();
  return `${t.name}(${low.startsWith(lead) && /^[: ]/.test(low.slice(lead.length)) ? t.summary.slice(lead.length + 1).trim() : t.summary})`;
}
