// Display width of text in terminal columns, and where text may be split. Most model output is
// ASCII, where width is length; everything else goes through string-width, cached because the
// same words recur constantly.
import stringWidth from "string-width";

const reAsciiPrintable = /^[\x20-\x7e]*$/;
const cache = new Map<string, number>();
const CACHE_LIMIT = 20_000;

export function displayWidth(s: string): number {
  if (reAsciiPrintable.test(s)) return s.length;
  let w = cache.get(s);
  if (w === undefined) {
    w = stringWidth(s);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(s, w);
  }
  return w;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

/** User-perceived characters, so a wide character or an emoji sequence is never split. */
export function graphemes(s: string): string[] {
  if (reAsciiPrintable.test(s)) return s.split("");
  return Array.from(segmenter.segment(s), (g) => g.segment);
}

/** Splits text into grapheme clusters. Callers take the ASCII fast path before calling this. */
export function segmentGraphemes(text: string): Iterable<{ segment: string }> {
  return segmenter.segment(text);
}

/** True when every code unit is printable ASCII (one cell per character). */
export function isPrintableAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c >= 0x7f) return false;
  }
  return true;
}
