// Display width of text in terminal columns. Most model output is ASCII, where width is length;
// everything else goes through string-width, cached because the same words recur constantly.
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
