// The one measure of text for the whole TUI: how many terminal columns it takes, and where it may
// be split. Layout (markdown, the app's views) and the cell grid both measure with this, so a row
// laid out to fit `width` columns takes exactly that many cells.
//
// A grapheme cluster is measured as the cell grid will show it: controls first become their
// stand-ins (src/text/control-chars.ts), and no cluster is wider than 2. Text is the sum of its clusters.
// Most model output is printable ASCII, where width is length; everything else goes through
// string-width (~10 µs a call), cached because the same words and clusters recur constantly.
import stringWidth from "string-width";
import { neutralizeControls } from "../../text/control-chars.ts";

const reAsciiPrintable = /^[\x20-\x7e]*$/;
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });
const CACHE_LIMIT = 20_000;
const textWidths = new Map<string, number>();
const clusterWidths = new Map<string, number>();

/** True when every code unit is printable ASCII (one cell per character). */
export function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f) return false;
  }
  return true;
}

/** Splits text into grapheme clusters. Callers take the ASCII fast path before calling this. */
export function segmentGraphemes(text: string): Iterable<{ segment: string }> {
  return segmenter.segment(text);
}

/** User-perceived characters, so a wide character or an emoji sequence is never split. */
export function graphemes(s: string): string[] {
  if (reAsciiPrintable.test(s)) return s.split("");
  return Array.from(segmenter.segment(s), (g) => g.segment);
}

/** Columns one grapheme cluster takes in the cell grid: 0 (a lone mark), 1 or 2. */
export function graphemeWidth(g: string): number {
  if (g.length === 1) {
    const c = g.charCodeAt(0);
    if (c >= 0x20 && c < 0x7f) return 1;
  }
  let w = clusterWidths.get(g);
  if (w === undefined) {
    w = Math.min(2, stringWidth(neutralizeControls(g)));
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
    for (const { segment } of segmenter.segment(s)) w += graphemeWidth(segment);
    if (textWidths.size >= CACHE_LIMIT) textWidths.clear();
    textWidths.set(s, w);
  }
  return w;
}
