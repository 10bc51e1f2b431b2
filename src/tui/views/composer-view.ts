// The composer on screen: the prompt marker, the text wrapped to the width (each line of a
// multi-line prompt on its own rows), collapsed pastes and @mentions tinted, and where the cursor
// goes. Taller prompts scroll inside `maxRows`, keeping the cursor's row in view.
import type { Row, Span, Style } from "../render/style.ts";
import { cleanText, displayWidth, span } from "./text.ts";
import { ui } from "./theme.ts";
import { graphemes } from "../markdown/width.ts";

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
};

export type ComposerView = { rows: Row[]; cursor: { row: number; col: number } };

const TOKEN = /\[pasted \d+ lines? #\d+\]|@"[^"\n]*"|@[^\s]+/g;

export function renderComposer(v: ComposerViewInput): ComposerView {
  const width = Math.max(4, v.width);
  const marker: Span = span(v.busy ? "» " : "› ", v.busy ? ui.queued : ui.accentBold);
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
    let cur: Span[] = [li === 0 ? marker : indent];
    let curW = 0;
    let pos = offset;
    const flush = () => {
      rows.push({ spans: cur });
      cur = [indent];
      curW = 0;
    };
    for (const g of graphemes(line)) {
      const shown = g === "\t" ? "    " : cleanText(g);
      const gw = displayWidth(shown);
      if (curW + gw > avail && curW > 0) flush();
      if (pos === v.cursor) cursor = { row: rows.length, col: 2 + curW };
      let style: Style | undefined = styles(pos);
      if (v.drawCursor && pos === v.cursor) style = ui.cursor;
      pushSpan(cur, shown, style);
      curW += gw;
      pos += g.length;
    }
    if (pos === v.cursor) {
      if (curW + 1 > avail) flush();
      cursor = { row: rows.length, col: 2 + curW };
      if (v.drawCursor) pushSpan(cur, " ", ui.cursor);
    }
    rows.push({ spans: cur });
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
