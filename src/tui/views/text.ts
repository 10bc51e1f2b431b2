// Plain-text layout for the app's own views (tool rows, panels, status line, composer): measure,
// clip and wrap styled spans into rows of at most `width` columns, cut the one way markdown cuts
// them too (../render/spans.ts). Everything shown here comes
// from the model, tools or the user, so tabs become 4 spaces, newlines one space and controls
// visible stand-ins (src/text/control-chars.ts); widths are the cell grid's own (../render/width.ts).
import { breakSpans, clipSpans, fitHead, spansWidth, trimEndSpans } from "../render/spans.ts";
import { wrapPieces } from "../markdown/wrap.ts";
import { displayWidth } from "../render/width.ts";
import { neutralizeControls } from "../../text/control-chars.ts";
import type { Row, Span, Style } from "../render/style.ts";

export { clipSpans, displayWidth, spansWidth };

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

/** Clip one line of plain text to `width` columns, with an ellipsis when cut. */
export function clipText(text: string, width: number): string {
  return clipSpans([{ text }], width, true).map((s) => s.text).join("");
}

/**
 * Hard-wrap spans into rows of `width` columns at grapheme boundaries (no word wrapping: output
 * and code are shown as they are). A wide character never straddles two rows.
 */
export function wrapSpans(spans: readonly Span[], width: number, prefix: Span[] = [], contPrefix: Span[] = prefix): Row[] {
  const avail = Math.max(1, width);
  const rows = breakSpans(spans, avail - spansWidth(prefix), avail - spansWidth(contPrefix));
  return rows.map((r, i) => ({ spans: [...(i === 0 ? prefix : contPrefix), ...r] }));
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
    rows.push({ spans: trimEndSpans(cur) });
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
  rows.push({ spans: trimEndSpans(cur) });
  return rows;
}

/**
 * Like wrapSpans, for text a user may copy (their prompt, a notice): continuation rows are soft and
 * carry no indentation, so the terminal joins them back into one line for copy and reflow.
 */
export function softWrapSpans(spans: readonly Span[], width: number, prefix: Span[]): Row[] {
  return wrapSpans(spans, width, prefix, []).map((r, i) => (i === 0 ? r : { ...r, soft: true }));
}

/**
 * The app's own prose in the transcript (a notice, /help, the user's prompt), one line of it, as
 * the "wrap" setting says. `words` (the default): rows break between words the way answers do
 * (../markdown/wrap.ts), later rows hard under `contPrefix`, and a word wider than the room a row
 * gives it fills to the edge in soft rows, so a copy of it is whole. Otherwise ("edge") as
 * softWrapSpans: every row filled to the edge, continuations soft.
 */
export function proseRows(spans: readonly Span[], width: number, prefix: Span[], contPrefix: Span[], words: boolean): Row[] {
  if (!words) return softWrapSpans(spans, width, prefix);
  const avail = Math.max(1, width);
  const prefixW = spansWidth(prefix);
  const contW = spansWidth(contPrefix);
  const rows: Row[] = [];
  const fit = (row: Span[]) => (spansWidth(row) <= avail ? row : clipSpans(row, avail));
  wrapPieces(spans, {
    nextAvail: () => Math.max(1, avail - prefixW),
    restAvail: () => Math.max(1, avail - contW),
    softAvail: () => avail,
    hard: (row) => void rows.push({ spans: fit([...(rows.length === 0 ? prefix : contPrefix), ...row]) }),
    soft: (row) => void rows.push({ spans: fit(row), soft: true }),
    softContinuations: false,
  });
  // A row that breaks between words keeps its space in wrapPieces (its rows join to the text);
  // where a hard row follows it is not worth a cell.
  return rows.map((r, i) => (rows[i + 1]?.soft ? r : { ...r, spans: trimEndSpans(r.spans) }));
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
        const { head } = fitHead(cur, width);
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
