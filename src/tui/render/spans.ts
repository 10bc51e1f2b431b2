// Styled text cut to columns: the one way the TUI measures, clips and breaks spans, for the app's
// views (../views/text.ts) and markdown (../markdown/) alike. Text is cut only between grapheme
// clusters as the terminal draws them (./width.ts's `graphemes`), and measured by the one width
// function, so a cut never leaves half a flag, a dangling joiner, or an emoji counted by its code
// points (a heart with VS16 is 1+0 by code point and 2 on screen).
import type { Span } from "./style.ts";
import { displayWidth, graphemes } from "./width.ts";

export function spansWidth(spans: readonly Span[]): number {
  let w = 0;
  for (const s of spans) w += displayWidth(s.text);
  return w;
}

/** The longest head of `text` made of whole clusters that fits in `room` columns, and its width. */
export function fitHead(text: string, room: number): { head: string; width: number } {
  let head = "";
  let width = 0;
  for (const g of graphemes(text)) {
    const gw = displayWidth(g);
    if (width + gw > room) break;
    head += g;
    width += gw;
  }
  return { head, width };
}

/** Cut spans to at most `width` columns; an ellipsis marks the cut when `ellipsis` is set. */
export function clipSpans(spans: readonly Span[], width: number, ellipsis = false): Span[] {
  if (width <= 0) return [];
  if (spansWidth(spans) <= width) return spans.slice();
  const limit = ellipsis ? width - 1 : width;
  const out: Span[] = [];
  let w = 0;
  for (const s of spans) {
    const sw = displayWidth(s.text);
    if (w + sw <= limit) {
      out.push(s);
      w += sw;
      continue;
    }
    const { head } = fitHead(s.text, limit - w);
    if (head) out.push({ text: head, style: s.style });
    if (ellipsis) out.push({ text: "…", style: s.style });
    break;
  }
  return out;
}

/** Spans without the spaces at their end (a new array; the spans are not changed). */
export function trimEndSpans(spans: readonly Span[]): Span[] {
  const out = spans.slice();
  while (out.length > 0) {
    const last = out[out.length - 1]!;
    const text = last.text.trimEnd();
    if (text === last.text) break;
    if (text === "") out.pop();
    else {
      out[out.length - 1] = { ...last, text };
      break;
    }
  }
  return out;
}

/**
 * Hard wrap: spans cut between clusters into rows, with nothing inserted or dropped. The first row
 * has `first` columns for its text (less when `used` of them are taken by text already there), each
 * later row `rest`. A row breaks before a cluster that would overflow it, except a row with no
 * text yet where the next row has no more room: a cluster wider than every row then stays there
 * (the caller clips what is left) rather than breaking forever. So a prefix wider than the
 * continuation's gets a row of its own, and a wide character beside a list marker moves on.
 * Rows are returned as pieces of the spans (one per span at most), the first row possibly empty.
 */
export function breakSpans(spans: readonly Span[], first: number, rest: number, used = 0): Span[][] {
  const rows: Span[][] = [];
  let row: Span[] = [];
  let room = first - used;
  let has = used > 0;
  for (const s of spans) {
    const sw = displayWidth(s.text);
    if (sw <= room) {
      if (s.text) row.push(s);
      room -= sw;
      has ||= s.text !== "";
      continue;
    }
    let chunk = "";
    for (const g of graphemes(s.text)) {
      const gw = displayWidth(g);
      if (gw > room && (has || chunk !== "" || rest > room)) {
        if (chunk) row.push({ text: chunk, style: s.style });
        rows.push(row);
        row = [];
        chunk = "";
        room = rest;
        has = false;
      }
      chunk += g;
      room -= gw;
    }
    if (chunk) {
      row.push({ text: chunk, style: s.style });
      has = true;
    }
  }
  rows.push(row);
  return rows;
}
