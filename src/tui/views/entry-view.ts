// How each transcript entry looks once it is settled: the rows the history commit writes into
// scrollback and the pager shows. (The live zone draws unsettled entries itself: the streaming
// markdown tail, a running tool's spinner.)
import { CUT_NOTICE, type Entry } from "../transcript/entry.ts";
import { renderMarkdown } from "../markdown/index.ts";
import type { Row, Style } from "../render/style.ts";
import { formatDuration, renderToolCall } from "./tool-row.ts";
import { clipSpans, proseRows, span, cleanText } from "./text.ts";
import { ui } from "./theme.ts";

export type EntryViewOptions = {
  width: number;
  links: boolean;
  /** Pager: whole diffs and whole prompts. History: capped. */
  full: boolean;
  /** "wrap": "words", the default: prose breaks between words (continuation rows hard); false: at the edge. */
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
  const words = opts.wordWrap !== false;
  switch (e.kind) {
    case "user":
      return renderUserText(e.text, width, opts.full ? Infinity : USER_LINES, e.steering ? "sent while working" : null, words);
    case "assistant":
      return [...renderMarkdown(e.text, { width, links: opts.links, hangingIndent: words }), ...answerFooter(e, width, words)];
    case "thinking":
      return [thinkingSummary(e.durationMs, width)];
    case "tool":
      return renderToolCall(e.view, { width, frame: 0, now: 0, diffLines: opts.full ? Infinity : undefined, full: opts.full });
    case "notice": {
      const style = e.level === "error" ? ui.error : e.level === "warn" ? ui.warn : ui.dim;
      return e.text.split("\n").flatMap((l, i) => noticeLine(cleanText(l), i === 0, style, width, words));
    }
  }
}

/** Under an answer that did not end on its own: stopped by the user, or cut by the output-token limit. */
export function answerFooter(e: Extract<Entry, { kind: "assistant" }>, width: number, words = true): Row[] {
  if (e.interrupted) return [{ spans: [span("⎿ interrupted", ui.warn)] }];
  if (e.cut) return proseRows([span(CUT_NOTICE, ui.dim)], width, [span("⎿ ", ui.dim)], [span("  ")], words);
  return [];
}

/**
 * One line of a notice under its bullet. A line that is indented itself (an item of /help's list)
 * hangs its continuation two columns further in, under the item's text.
 */
function noticeLine(line: string, first: boolean, style: Style | undefined, width: number, words: boolean): Row[] {
  const lead = /^ */.exec(line)![0].length;
  const hang = " ".repeat(2 + lead + (lead > 0 ? 2 : 0));
  return proseRows([span(line, style)], width, first ? [span("• ", style)] : [span("  ")], [span(hang)], words);
}

export function thinkingSummary(durationMs: number | null, width: number): Row {
  const text = durationMs === null ? "✻ Thought" : `✻ Thought for ${formatDuration(durationMs)}`;
  return { spans: clipSpans([span(text, ui.thinking)], width, true) };
}

export function renderUserText(text: string, width: number, maxLines: number, note: string | null, words = true): Row[] {
  const lines = text.split("\n");
  const shown = lines.slice(0, maxLines);
  const rows: Row[] = [];
  shown.forEach((l, i) => {
    const prefix = i === 0 ? [span("› ", ui.user)] : [span("  ")];
    rows.push(...proseRows([span(cleanText(l), ui.userText)], width, prefix, [span("  ")], words));
  });
  if (lines.length > shown.length) rows.push({ spans: [span(`  … ${lines.length - shown.length} more lines`, ui.dim)] });
  if (note) rows.push({ spans: [span(`  (${note})`, ui.dim)] });
  return rows;
}
