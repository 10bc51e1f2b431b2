// Plain-text layout for the app's own views (tool rows, panels, status line, composer): measure,
// clip and wrap styled spans into rows of at most `width` columns. Everything shown here comes
// from the model, tools or the user, so tabs become 4 spaces, newlines one space and controls
// visible stand-ins (src/text/control-chars.ts); widths are the cell grid's own (../render/width.ts).
import { displayWidth, graphemes } from "../render/width.ts";
import { neutralizeControls } from "../../text/control-chars.ts";
import type { Row, Span, Style } from "../render/style.ts";

export { displayWidth };

const TAB = "    ";

/** Safe, single-line text: tabs expanded to 4 spaces, newlines and controls made visible. */
export function cleanText(s: string): string {
  if (/^[\x20-\x7e]*$/.test(s)) return s;
  return neutralizeControls(s.replace(/\t/g, TAB).replace(/\r?\n/g, " "));
}

export function span(text: string, style?: Style): Span {
  return style ? { text, style } : { text };
}

export function row(...spans: Span[]): Row {
  return { spans };
}

export function spansWidth(spans: readonly Span[]): number {
  let w = 0;
  for (const s of spans) w += displayWidth(s.text);
  return w;
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
    let text = "";
    for (const g of graphemes(s.text)) {
      const gw = displayWidth(g);
      if (w + gw > limit) break;
      text += g;
      w += gw;
    }
    if (text) out.push({ text, style: s.style });
    if (ellipsis) out.push({ text: "…", style: s.style });
    break;
  }
  return out;
}

/** Clip one line of plain text to `width` columns, with an ellipsis when cut. */
export function clipText(text: string, width: number): string {
  return clipSpans([{ text }], width, true).map((s) => s.text).join("");
}

/**
 * Hard-wrap spans into rows of `width` columns at grapheme boundaries (no word wrapping: output
 * and code are shown as they are). A wide character never straddles two rows.
 */
export function wrapSpans(spans: readonly Span[], width: number, prefix: Span[] = [], contPrefix: Span[] = prefix): Row[] {
  const rows: Row[] = [];
  let cur: Span[] = prefix.slice();
  let curW = spansWidth(prefix);
  const contW = spansWidth(contPrefix);
  const avail = Math.max(1, width);
  for (const s of spans) {
    let chunk = "";
    for (const g of graphemes(s.text)) {
      const gw = displayWidth(g);
      if (curW + gw > avail && curW > contW) {
        if (chunk) cur.push({ text: chunk, style: s.style });
        rows.push({ spans: cur });
        cur = contPrefix.slice();
        curW = contW;
        chunk = "";
      }
      chunk += g;
      curW += gw;
    }
    if (chunk) cur.push({ text: chunk, style: s.style });
  }
  rows.push({ spans: cur });
  return rows;
}

/**
 * Word-wrap spans into rows of `width` columns: rows break at spaces (the space at a break is not
 * shown); only a word longer than a whole row is broken inside. For labels and prose in panels,
 * where "settings.local.json  t" / "his project" would be unreadable.
 */
export function wordWrapSpans(spans: readonly Span[], width: number, prefix: Span[] = [], contPrefix: Span[] = prefix): Row[] {
  const avail = Math.max(1, width);
  const rows: Row[] = [];
  let cur: Span[] = prefix.slice();
  let curW = spansWidth(prefix);
  let bare = true; // nothing but the prefix on this row yet
  const contW = spansWidth(contPrefix);
  const newRow = () => {
    trimEndSpans(cur);
    rows.push({ spans: cur });
    cur = contPrefix.slice();
    curW = contW;
    bare = true;
  };
  for (const s of spans) {
    for (const m of s.text.matchAll(/\S+\s*|\s+/g)) {
      const piece = m[0];
      const word = piece.trimEnd();
      const wordW = displayWidth(word);
      if (!bare && curW + wordW > avail) newRow();
      if (bare && word === "") continue; // spaces never open a row
      if (curW + wordW > avail) {
        // Longer than a whole row: broken where it must be.
        const broken = wrapSpans([{ text: piece, style: s.style }], avail, cur, contPrefix);
        rows.push(...broken.slice(0, -1));
        cur = broken[broken.length - 1]!.spans.slice();
        curW = spansWidth(cur);
        bare = false;
        continue;
      }
      cur.push({ text: piece, style: s.style });
      curW += displayWidth(piece);
      bare = false;
    }
  }
  trimEndSpans(cur);
  rows.push({ spans: cur });
  return rows;
}

function trimEndSpans(spans: Span[]): void {
  while (spans.length > 0) {
    const last = spans[spans.length - 1]!;
    const t = last.text.trimEnd();
    if (t === last.text) return;
    if (t === "") spans.pop();
    else {
      spans[spans.length - 1] = { ...last, text: t };
      return;
    }
  }
}

/**
 * Like wrapSpans, for text a user may copy (their prompt, a notice): continuation rows are soft and
 * carry no indentation, so the terminal joins them back into one line for copy and reflow.
 */
export function softWrapSpans(spans: readonly Span[], width: number, prefix: Span[]): Row[] {
  return wrapSpans(spans, width, prefix, []).map((r, i) => (i === 0 ? r : { ...r, soft: true }));
}

/** Word-wrap plain text (which may hold newlines) into rows; used for prose in panels and notices. */
export function wrapText(text: string, width: number, style?: Style, indent = ""): Row[] {
  const rows: Row[] = [];
  for (const line of text.split("\n")) {
    const clean = cleanText(line);
    const words = clean.split(/(?<= )/);
    let cur = indent;
    for (const w of words) {
      if (displayWidth(cur + w.trimEnd()) > width && cur.trim() !== "") {
        rows.push({ spans: [span(cur.trimEnd(), style)] });
        cur = indent;
      }
      cur += w;
      while (displayWidth(cur) > width) {
        const head = clipSpans([{ text: cur }], width).map((s) => s.text).join("");
        rows.push({ spans: [span(head, style)] });
        cur = indent + cur.slice(head.length);
        if (head.length === 0) break;
      }
    }
    rows.push({ spans: [span(cur.trimEnd(), style)] });
  }
  return rows;
}

export function pad(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + " ".repeat(width - w);
}

/** The plain text of a row (for tests, search and copy). */
export function rowText(r: Row): string {
  return r.spans.map((s) => s.text).join("");
}
