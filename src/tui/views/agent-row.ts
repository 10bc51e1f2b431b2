// A subagent's row under its call: while it runs, what it is (type, model, effort), the tool it
// runs now and its tokens and cost so far; once done, one line saying how it ended.
import type { Row } from "../render/style.ts";
import { agentActivity, agentSummary } from "../transcript/agents.ts";
import type { AgentView } from "../transcript/entry.ts";
import { clipSpans, cleanText, span } from "./text.ts";
import { ui } from "./theme.ts";

export function renderAgentRow(v: AgentView, opts: { width: number; /** The spinner's glyph now. */ glyph: string; indent?: string; /** Say what it was asked to do (a background agent's row stands alone). */ named?: boolean }): Row {
  const indent = opts.indent ?? "  ";
  if (v.status === "running") {
    return { spans: clipSpans([span(`${indent}⎿ `, ui.border), span(opts.glyph, ui.accent), span(" "), span(cleanText(opts.named && v.description ? `${v.description} · ${agentActivity(v)}` : agentActivity(v)), ui.dim)], opts.width, true) };
  }
  const mark = v.status === "completed" ? span("✓", ui.ok) : span("✗", v.status === "cancelled" ? ui.warn : ui.error);
  return { spans: clipSpans([span(`${indent}⎿ `, ui.border), mark, span(" "), span(cleanText(agentSummary(v)), ui.dim)], opts.width, true) };
}
