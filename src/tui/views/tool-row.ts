// One tool call as the user sees it: a single summary line (spinner while running, ✓ or ✗ when
// done, the duration), then what matters about it: the live tail of a running command's output,
// the diff of an edit or write, or the reason it failed. A finished row is committed to history.
import type { Row, Span } from "../render/style.ts";
import { renderAgentRow } from "./agent-row.ts";
import { renderDiff } from "./diff-view.ts";
import { cleanText, clipSpans, span, wrapSpans, wrapText } from "./text.ts";
import { ui } from "./theme.ts";
import { trimEndChars } from "../../text/trim-chars.ts";
import type { ToolCallView } from "../transcript/entry.ts";
import { TAIL_LINES } from "../transcript/output-tail.ts";

export const SPINNER = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
/** Diff lines shown under an edit in the live zone and history (the pager and /diff show all). */
export const DIFF_LINES = 40;
const ERROR_LINES = 4;

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)}s`;
  const m = Math.floor(ms / 60_000);
  return `${m}m${String(Math.round((ms % 60_000) / 1000)).padStart(2, "0")}s`;
}

function mark(t: ToolCallView, frame: number): Span {
  switch (t.status) {
    case "pending":
      return span("○", ui.dim);
    case "running":
      return span(SPINNER[frame % SPINNER.length] ?? "·", ui.accent);
    case "ok":
      return span("✓", ui.ok);
    case "interrupted":
      return span("✗", ui.warn);
    default:
      return span("✗", ui.error);
  }
}

/** full: the pager's view (the whole output and diff); otherwise the capped view of the live zone and history. */
export type ToolRowOptions = {
  width: number;
  frame: number;
  now: number;
  diffLines?: number;
  full?: boolean;
  /** The permission panel is asking about this call: nothing on the row moves until the user answers. */
  awaitingAnswer?: boolean;
};

export function renderToolCall(t: ToolCallView, opts: ToolRowOptions): Row[] {
  const { width } = opts;
  const awaiting = opts.awaitingAnswer === true && t.status === "running";
  const elapsed = awaiting ? null : (t.durationMs ?? (t.startedAt !== null && t.status === "running" ? opts.now - t.startedAt : null));
  const tail: Span[] = [];
  if (awaiting) tail.push(span("  waiting for your answer", ui.warn));
  // A denied call never ran: its "duration" would be the time the user took to answer.
  if (elapsed !== null && t.status !== "denied" && (t.status !== "running" || elapsed >= 1000)) tail.push(span(` ${formatDuration(elapsed)}`, ui.dim));
  if (t.status === "denied") tail.push(span(" denied", ui.error));
  if (t.status === "interrupted") tail.push(span(" interrupted", ui.warn));
  const head: Span[] = [awaiting ? span("?", ui.warn) : mark(t, opts.frame), span(" "), span(cleanText(t.summary), t.status === "pending" ? ui.dim : ui.bold)];
  const tailW = tail.reduce((w, s) => w + s.text.length, 0);
  const rows: Row[] = [{ spans: [...clipSpans(head, Math.max(1, width - tailW), true), ...tail] }];
  const indent = "  ";
  // A background agent outlives its call's row (which is history at once): the live zone shows it.
  for (const a of t.agents ?? []) if (!a.background) rows.push(renderAgentRow(a, { width, glyph: SPINNER[opts.frame % SPINNER.length] ?? "·" }));
  if (t.status === "running" && t.outputTail.length > 0) {
    for (const line of visibleTail(t.outputTail).slice(-TAIL_LINES)) {
      rows.push({ spans: clipSpans([span(`${indent}│ `, ui.border), span(cleanText(line), ui.dim)], width, true) });
    }
  }
  const settled = t.status === "ok" || t.status === "error" || t.status === "interrupted";
  const fullOutput = opts.full && settled && t.output !== undefined && !(t.diff && t.status === "ok");
  if (fullOutput) {
    // The pager is the one place a long line can be read whole: it wraps instead of clipping.
    const bar = [span(`${indent}│ `, ui.border)];
    for (const line of trimEndChars(t.output!, "\n").split("\n")) rows.push(...wrapSpans([span(cleanText(line), ui.dim)], width, bar));
  } else if (settled && t.resultTail && t.resultTail.length > 0) {
    for (const line of t.resultTail) rows.push({ spans: clipSpans([span(`${indent}│ `, ui.border), span(cleanText(line), ui.dim)], width, true) });
  }
  if (t.diff && (t.status === "ok" || t.status === "pending" || t.status === "running")) {
    const diffRows = renderDiff(t.diff, { width: Math.max(1, width - indent.length), maxLines: opts.diffLines ?? DIFF_LINES, path: t.path });
    for (const r of diffRows) rows.push({ spans: [span(indent), ...r.spans], soft: r.soft });
  }
  if (t.error && t.status !== "ok" && !fullOutput) {
    const lines = t.error.split("\n").filter((l) => l.trim() !== "");
    const shown = lines.slice(0, ERROR_LINES).join("\n");
    rows.push(...wrapText(shown, Math.max(1, width), t.status === "interrupted" ? ui.warn : ui.error, indent));
    if (lines.length > ERROR_LINES) rows.push({ spans: [span(`${indent}… ${lines.length - ERROR_LINES} more lines`, ui.dim)] });
  }
  return rows;
}

/** The tail without the empty line a final newline leaves open. */
export function visibleTail(lines: string[]): string[] {
  const l = lines.slice();
  while (l.length > 0 && (l[l.length - 1] ?? "") === "") l.pop();
  return l;
}
