// The composer on screen: the prompt marker, the text wrapped to the width (each line of a
// multi-line prompt on its own rows), collapsed pastes and @mentions tinted, and where the cursor
// goes. Taller prompts scroll inside `maxRows`, keeping the cursor's row in view.
import type { Row, Span, Style } from "../render/style.ts";
import { cleanText, displayWidth, span } from "./text.ts";
import { ui } from "./theme.ts";
import { graphemes } from "../render/width.ts";

export type ComposerViewInput = {
  text: string;
  cursor: number;
  width: number;
  maxRows: number;
  /** Shown dimmed when the text is empty. */
  hint?: string;
  /** Draws the cursor as an inverse cell (terminals without a visible hardware cursor, and tests). */
  drawCursor?: boolean;
  /** The agent is working: the marker says that a sent message will be queued. */
  busy?: boolean;
  /** Shell mode: the marker is `!`, what is sent runs in the user's shell. */
  shell?: boolean;
};

export type ComposerView = { rows: Row[]; cursor: { row: number; col: number } };

const TOKEN = /\[pasted \d+ lines? #\d+\]|@"[^"\n]*"|@[^\s]+/g;

export function renderComposer(v: ComposerViewInput): ComposerView {
  const width = Math.max(4, v.width);
  const marker: Span = v.shell ? span("! ", ui.warn) : span(v.busy ? "» " : "› ", v.busy ? ui.queued : ui.accentBold);
  const indent: Span = span("  ");
  const avail = width - 2;
  const rows: Row[] = [];
  let cursor = { row: 0, col: 2 };
  if (v.text === "") {
    const hint = v.hint ? [span(v.hint.slice(0, Math.max(0, avail - 1)), ui.placeholder)] : [];
    rows.push({ spans: [marker, ...(v.drawCursor ? [span(" ", ui.cursor)] : []), ...hint] });
    return { rows, cursor };
  }
  const styles = tokenStyles(v.text);
  let offset = 0;
  const lines = v.text.split("\n");
  lines.forEach((line, li) => {
    // Graphemes with their place in the text, then rows broken after the last space that fits
    // (word wrap, as the user reads prose); a word longer than the row is broken where it must be.
    const items: Array<{ shown: string; w: number; pos: number; space: boolean }> = [];
    let pos = offset;
    for (const g of graphemes(line)) {
      const shown = g === "\t" ? "    " : cleanText(g);
      items.push({ shown, w: displayWidth(shown), pos, space: g === " " || g === "\t" });
      pos += g.length;
    }
    const starts = [0];
    // A space that does not fit where a row ends hangs there unseen instead of opening the next row.
    const hanging = new Set<number>();
    let rowStart = 0;
    let acc = 0;
    let afterSpace = -1;
    items.forEach((it, i) => {
      if (acc + it.w > avail && acc > 0) {
        if (it.space && i < items.length - 1) {
          hanging.add(i);
          starts.push(i + 1);
          rowStart = i + 1;
          acc = 0;
          afterSpace = -1;
          return;
        }
        const at = afterSpace > rowStart ? afterSpace : i;
        starts.push(at);
        rowStart = at;
        acc = 0;
        for (let j = at; j < i; j++) acc += items[j]!.w;
        afterSpace = -1;
      }
      acc += it.w;
      if (it.space) afterSpace = i + 1;
    });
    starts.forEach((from, r) => {
      const to = starts[r + 1] ?? items.length;
      const cur: Span[] = [r === 0 && li === 0 ? marker : indent];
      let w = 0;
      for (let j = from; j < to; j++) {
        const it = items[j]!;
        if (hanging.has(j)) {
          if (it.pos === v.cursor) cursor = { row: rows.length + 1, col: 2 };
          continue;
        }
        if (it.pos === v.cursor) cursor = { row: rows.length, col: 2 + w };
        let style: Style | undefined = styles(it.pos);
        if (v.drawCursor && it.pos === v.cursor) style = ui.cursor;
        pushSpan(cur, it.shown, style);
        w += it.w;
      }
      if (to === items.length && pos === v.cursor) {
        if (w + 1 > avail && w > 0) {
          rows.push({ spans: cur });
          const next: Span[] = [indent];
          cursor = { row: rows.length, col: 2 };
          if (v.drawCursor) pushSpan(next, " ", ui.cursor);
          rows.push({ spans: next });
          return;
        }
        cursor = { row: rows.length, col: 2 + w };
        if (v.drawCursor) pushSpan(cur, " ", ui.cursor);
      }
      rows.push({ spans: cur });
    });
    offset = pos + 1;
  });
  if (rows.length <= v.maxRows) return { rows, cursor };
  // Scroll: keep the cursor row in view, as low as possible.
  const top = Math.max(0, Math.min(cursor.row - v.maxRows + 1, rows.length - v.maxRows));
  const start = Math.min(top, cursor.row);
  return { rows: rows.slice(start, start + v.maxRows), cursor: { row: cursor.row - start, col: cursor.col } };
}

function pushSpan(spans: Span[], text: string, style: Style | undefined): void {
  const last = spans[spans.length - 1];
  if (last && last.style === style && spans.length > 1) last.text += text;
  else spans.push(style ? { text, style } : { text });
}

/** Style lookup by text index for pastes and mentions. */
function tokenStyles(text: string): (i: number) => Style | undefined {
  const ranges: Array<[number, number, Style]> = [];
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m; m = TOKEN.exec(text)) {
    const start = m.index;
    if (m[0].startsWith("@") && start > 0 && !/\s/.test(text[start - 1] ?? "")) continue;
    ranges.push([start, start + m[0].length, m[0].startsWith("@") ? ui.mention : ui.paste]);
  }
  if (ranges.length === 0) return () => undefined;
  return (i) => {
    for (const [a, b, s] of ranges) if (i >= a && i < b) return s;
    return undefined;
  };
}
