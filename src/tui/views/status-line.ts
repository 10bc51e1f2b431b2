// The status line under the composer. Width-responsive: every segment has a priority, and when
// the line does not fit the least important segments drop out whole (a half-cut "claude-son…"
// helps nobody), never the ones a user acts on (permission mode, cost).
import type { PermissionMode } from "../../events/types.ts";
import type { Row, Span, Style } from "../render/style.ts";
import { displayWidth, span } from "./text.ts";
import { ui } from "./theme.ts";
import { formatCost } from "../../model/format-cost.ts";

export type StatusInfo = {
  model: string;
  mode: PermissionMode;
  /** The sandbox's state in words ("sandbox on", "sandbox unavailable: asking"); null when it is off. */
  sandbox?: string | null;
  /** Tokens in the context at the last request (input + cache + output), null before the first. */
  contextTokens: number | null;
  contextWindow: number | null;
  inputTokens: number;
  outputTokens: number;
  /** Cache reads ÷ all prompt tokens over the session, null before the first request. */
  cacheHitRate: number | null;
  /** null: the model has no known price. */
  costUsd: number | null;
  runningProcesses: number;
  gitBranch: string | null;
  /** Shown first while the agent works ("working", "compacting", "retrying in 3s"). */
  activity?: string | null;
  /** The effort level set (/effort, --effort, effortLevel); null when none is. */
  effort?: string | null;
  /** "editorMode": "vim": the composer's mode. */
  vimMode?: "normal" | "insert" | null;
};

/** What each permission mode is called everywhere in the app (the status line, /permissions, notices). */
export const MODE_LABEL: Record<PermissionMode, string> = {
  default: "ask before edits",
  acceptEdits: "accept edits",
  plan: "plan mode",
  bypassPermissions: "bypass permissions",
  dontAsk: "don't ask",
};

type Segment = { priority: number; spans: Span[] };

export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(n < 10_000 ? 1 : 0)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}


/** Higher priority survives longer. */
function segments(s: StatusInfo): Segment[] {
  const out: Segment[] = [];
  if (s.activity) out.push({ priority: 95, spans: [span(s.activity, ui.accent)] });
  out.push({ priority: 100, spans: [span(`⏵ ${MODE_LABEL[s.mode]}`, ui.mode[s.mode])] });
  if (s.vimMode) out.push({ priority: 99, spans: [span(s.vimMode === "normal" ? "-- NORMAL --" : "-- INSERT --", s.vimMode === "normal" ? ui.accent : ui.dim)] });
  out.push({ priority: 70, spans: [span(s.model, ui.dim)] });
  if (s.effort) out.push({ priority: 72, spans: [span(`effort ${s.effort}`, ui.dim)] });
  if (s.contextTokens !== null && s.contextWindow) {
    const exact = (s.contextTokens / s.contextWindow) * 100;
    const pct = Math.min(100, Math.round(exact));
    out.push({ priority: 80, spans: [span(exact > 0 && exact < 1 ? "ctx <1%" : `ctx ${pct}%`, pct >= 80 ? ui.warn : ui.dim)] });
  }
  if (s.inputTokens + s.outputTokens > 0) {
    out.push({ priority: 40, spans: [span(`↑${formatTokens(s.inputTokens)} ↓${formatTokens(s.outputTokens)}`, ui.dim)] });
  }
  if (s.cacheHitRate !== null) out.push({ priority: 30, spans: [span(`cache ${Math.round(s.cacheHitRate * 100)}%`, ui.dim)] });
  out.push({ priority: 90, spans: [span(formatCost(s.costUsd), ui.dim)] });
  // Running processes outlast the model name and the context gauge: a server left running (and
  // stopped when the session ends) matters more than either.
  if (s.runningProcesses > 0) {
    out.push({ priority: 85, spans: [span(`${s.runningProcesses} process${s.runningProcesses === 1 ? "" : "es"}`, ui.warn)] });
  }
  // Which protection is in force is never hidden before the model's name: unavailable is a warning.
  if (s.sandbox) out.push({ priority: 88, spans: [span(s.sandbox, s.sandbox === "sandbox on" ? ui.dim : ui.warn)] });
  if (s.gitBranch) out.push({ priority: 20, spans: [span(`⎇ ${s.gitBranch}`, ui.dim)] });
  return out;
}

const SEP = " · ";

/**
 * The last line drawn and what it was drawn from: every frame asks again (20 a second while an
 * answer streams) and the inputs rarely change, so the same row comes back. The theme is part of
 * the inputs: setTheme replaces the style objects the spans hold.
 */
let last: { info: StatusInfo; width: number; theme: Style; row: Row } | null = null;

function sameInfo(a: StatusInfo, b: StatusInfo): boolean {
  for (const k in a) if (a[k as keyof StatusInfo] !== b[k as keyof StatusInfo]) return false;
  for (const k in b) if (!(k in a) && b[k as keyof StatusInfo] !== undefined) return false;
  return true;
}

export function renderStatusLine(s: StatusInfo, width: number): Row {
  if (last && last.width === width && last.theme === ui.border && sameInfo(last.info, s)) return last.row;
  const row = layoutStatusLine(s, width);
  last = { info: { ...s }, width, theme: ui.border, row };
  return row;
}

function layoutStatusLine(s: StatusInfo, width: number): Row {
  const segs = segments(s);
  const widthOf = (list: Segment[]) =>
    list.reduce((w, g) => w + g.spans.reduce((a, sp) => a + displayWidth(sp.text), 0), 0) + Math.max(0, list.length - 1) * SEP.length;
  let kept = segs;
  while (kept.length > 0 && widthOf(kept) > width) {
    const lowest = kept.reduce((a, b) => (b.priority < a.priority ? b : a));
    kept = kept.filter((g) => g !== lowest);
  }
  const spans: Span[] = [];
  kept.forEach((g, i) => {
    if (i > 0) spans.push(span(SEP, ui.border));
    spans.push(...g.spans);
  });
  return { spans };
}
