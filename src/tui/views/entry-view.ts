// How each transcript entry looks once it is settled: the rows the history commit writes into
// scrollback and the pager shows. (The live zone draws unsettled entries itself: the streaming
// markdown tail, a running tool's spinner.)
import { CUT_NOTICE, type Entry } from "../transcript/entry.ts";
import { renderMarkdown } from "../markdown/index.ts";
import type { Row } from "../render/style.ts";
import { formatDuration, renderToolCall } from "./tool-row.ts";
import { clipSpans, span, softWrapSpans, cleanText } from "./text.ts";
import { ui } from "./theme.ts";

export type EntryViewOptions = {
  width: number;
  links: boolean;
  /** Pager: whole diffs and whole prompts. History: capped. */
  full: boolean;
  /** Answers break between words (continuation rows hard) instead of at the edge. */
  wordWrap?: boolean;
};

/** Lines of a long prompt shown in history (the pager shows all). */
const USER_LINES = 12;

/** A blank row goes before an entry unless it continues a run of tool rows. */
export function needsGap(prev: Entry | undefined, e: Entry): boolean {
  if (!prev) return false;
  if (e.kind === "tool" && prev.kind === "tool") return false;
  return true;
}

export function renderEntry(e: Entry, opts: EntryViewOptions): Row[] {
  const { width } = opts;
  switch (e.kind) {
    case "user":
      return renderUserText(e.text, width, opts.full ? Infinity : USER_LINES, e.steering ? "sent while working" : null);
    case "assistant":
      return [...renderMarkdown(e.text, { width, links: opts.links, hangingIndent: opts.wordWrap === true }), ...answerFooter(e, width)];
    case "thinking":
      return [thinkingSummary(e.durationMs, width)];
    case "tool":
      return renderToolCall(e.view, { width, frame: 0, now: 0, diffLines: opts.full ? Infinity : undefined, full: opts.full });
    case "notice": {
      const style = e.level === "error" ? ui.error : e.level === "warn" ? ui.warn : ui.dim;
      const lines = e.text.split("\n");
      return lines.flatMap((l, i) => softWrapSpans([span(cleanText(l), style)], width, i === 0 ? [span("• ", style)] : [span("  ")]));
    }
  }
}

/** Under an answer that did not end on its own: stopped by the user, or cut by the output-token limit. */
export function answerFooter(e: Extract<Entry, { kind: "assistant" }>, width: number): Row[] {
  if (e.interrupted) return [{ spans: [span("⎿ interrupted", ui.warn)] }];
  if (e.cut) return softWrapSpans([span(CUT_NOTICE, ui.dim)], width, [span("⎿ ", ui.dim)]);
  return [];
}

export function thinkingSummary(durationMs: number | null, width: number): Row {
  const text = durationMs === null ? "✻ Thought" : `✻ Thought for ${formatDuration(durationMs)}`;
  return { spans: clipSpans([span(text, ui.thinking)], width, true) };
}

export function renderUserText(text: string, width: number, maxLines: number, note: string | null): Row[] {
  const lines = text.split("\n");
  const shown = lines.slice(0, maxLines);
  const rows: Row[] = [];
  shown.forEach((l, i) => {
    const prefix = i === 0 ? [span("› ", ui.user)] : [span("  ")];
    rows.push(...softWrapSpans([span(cleanText(l), ui.userText)], width, prefix));
  });
  if (lines.length > shown.length) rows.push({ spans: [span(`  … ${lines.length - shown.length} more lines`, ui.dim)] });
  if (note) rows.push({ spans: [span(`  (${note})`, ui.dim)] });
  return rows;
}
