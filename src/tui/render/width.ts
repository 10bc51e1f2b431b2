// The one measure of text for the whole TUI: how many terminal columns it takes, and where it may
// be split. Layout (markdown, the app's views) and the cell grid both measure with this, so a row
// laid out to fit `width` columns takes exactly that many cells.
//
// A grapheme cluster is measured as the cell grid will show it: controls first become their
// stand-ins (src/text/control-chars.ts), and no cluster is wider than 2. Text is the sum of its clusters.
// Which clusters the terminal draws as one cell is its width rule (./width-rules.ts): under a
// per-code-point rule a ZWJ sequence is several cells, and "graphemes" here are those cells.
// The app sets the rule its terminal answered before it lays anything out; the default is the
// grapheme rule (what tests and non-terminal callers measure with).
// Most model output is printable ASCII, where width is length; everything else goes through
// string-width (~10 µs a call), cached because the same words and clusters recur constantly.
import stringWidth from "string-width";
import { neutralizeControls } from "../../text/control-chars.ts";
import { GRAPHEME, cellWidth, codePointWidth, isGrapheme, splitCluster, type WidthRule } from "./width-rules.ts";

const reAsciiPrintable = /^[\x20-\x7e]*$/;
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const CACHE_LIMIT = 20_000;
const textWidths = new Map<string, number>();
const clusterWidths = new Map<string, number>();
let rule: WidthRule = GRAPHEME;
let whole = true;

/** The terminal's width rule for everything measured from now on (set before the first layout). */
export function setWidthRule(r: WidthRule): void {
  if (r === rule) return;
  rule = r;
  whole = isGrapheme(r);
  textWidths.clear();
  clusterWidths.clear();
}

export function widthRule(): WidthRule {
  return rule;
}

/** True when every code unit is printable ASCII (one cell per character). */
export function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f) return false;
  }
  return true;
}

/**
 * Grapheme clusters as Unicode defines them, whatever rule the terminal draws by: the unit of
 * typed input (the decoder) and of editing (the composer's cursor), where an emoji the terminal
 * draws as several cells is still one character to step over or delete. The TUI's one segmenter.
 */
export function unicodeGraphemes(text: string): Intl.Segments {
  return segmenter.segment(text);
}

/** Splits text into the terminal's cells' clusters. Callers take the ASCII fast path before calling this. */
export function segmentGraphemes(text: string): Iterable<{ segment: string }> {
  if (whole) return segmenter.segment(text);
  return cellClusters(text);
}

function* cellClusters(text: string): Iterable<{ segment: string }> {
  for (const { segment } of segmenter.segment(text)) {
    if (segment.length <= 1) yield { segment };
    else for (const cell of splitCluster(segment, rule)) yield { segment: cell };
  }
}

/** User-perceived characters as the terminal draws them: a wide character or an emoji sequence the terminal joins is never split. */
export function graphemes(s: string): string[] {
  if (reAsciiPrintable.test(s)) return s.split("");
  return Array.from(segmentGraphemes(s), (g) => g.segment);
}

/** Columns one grapheme cluster takes in the cell grid: 0 (a lone mark), 1 or 2. */
export function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  let w = clusterWidths.get(g);
  if (w === undefined) {
    const shown = neutralizeControls(g);
    const cp = shown.codePointAt(0) ?? 0;
    const single = shown.length === (cp > 0xffff ? 2 : 1);
    // One code point (most clusters) is measured without string-width's emoji regex: see codePointWidth.
    w = !whole && shown === g ? Math.min(2, cellWidth(g, rule)) : single ? codePointWidth(cp) : Math.min(2, stringWidth(shown));
    if (clusterWidths.size >= CACHE_LIMIT) clusterWidths.clear();
    clusterWidths.set(g, w);
  }
  return w;
}

/** Columns `s` takes on screen: the sum of its clusters' widths. */
export function displayWidth(s: string): number {
  if (reAsciiPrintable.test(s)) return s.length;
  let w = textWidths.get(s);
  if (w === undefined) {
    w = 0;
    for (const { segment } of segmentGraphemes(s)) w += graphemeWidth(segment);
    if (textWidths.size >= CACHE_LIMIT) textWidths.clear();
    textWidths.set(s, w);
  }
  return w;
}
