// What the terminal does to the live zone when its width changes, worked out before we redraw.
//
// A terminal with reflow (xterm.js, VTE, kitty, iTerm2, WezTerm, Windows Terminal) re-wraps
// soft-wrapped lines, and lines longer than the new width, the moment it is resized: before we
// hear of it. To erase exactly the old live zone we must know how far above the cursor its top
// row now is. The model here is xterm.js's (what our tests run against, and what VS Code uses):
// - a line group (a row plus the rows the terminal marked as its continuations) is re-chopped at
//   the new width; a wide grapheme that would straddle the edge starts the next line instead;
// - the group that holds the cursor is left alone (xterm.js `reflowCursorLine: false`);
// - the cursor's line index moves by the total number of lines added or removed, wherever they
//   were added. Lines above the zone shift the zone and the cursor alike, so only the zone counts.
import { CellBuffer } from "./cells.ts";

/**
 * The flattened cells of one group, as the terminal reflows it: a blank last cell before a wide
 * grapheme on the next row is the gap the wrap left, not content. Widths always; glyphs and
 * styles when asked for.
 */
function groupCells(term: CellBuffer, termLen: Int32Array, a: number, b: number, W: number, widths: number[], glyphs?: number[], styles?: number[]): void {
  widths.length = 0;
  if (glyphs) glyphs.length = 0;
  if (styles) styles.length = 0;
  for (let r = a; r <= b; r++) {
    let len: number;
    if (r === b) len = termLen[r] ?? 0;
    else {
      const lastEmpty = (termLen[r] ?? 0) < W;
      const nextWide = term.width[(r + 1) * W] === 2;
      len = lastEmpty && nextWide ? W - 1 : W;
    }
    for (let x = 0; x < len; x++) {
      widths.push(term.width[r * W + x] ?? 1);
      glyphs?.push(term.glyph[r * W + x] ?? 0x20);
      styles?.push(term.style[r * W + x] ?? 0);
    }
  }
}

/** Lines a flattened group takes at `cols`, with wide graphemes never split. */
export function chopCount(widths: ArrayLike<number>, n: number, cols: number): number {
  let pos = 0;
  let count = 0;
  while (pos < n) {
    count++;
    let end = pos + cols;
    if (end >= n) break;
    if (widths[end - 1] === 2) end--;
    pos = end;
  }
  return Math.max(1, count);
}

export type ZoneShape = {
  term: CellBuffer;
  wrapped: Uint8Array;
  termLen: Int32Array;
  extent: number;
  cy: number;
  cols: number;
};

/**
 * Rows between the zone's top and the cursor after the terminal reflows from `z.cols` to `cols`.
 * Negative when the cursor now sits above the zone's top: xterm.js moves the cursor up by the
 * lines a wider window joins below it too, so a cursor on the zone's top row lands in history.
 */
export function zoneTopAfterReflow(z: ZoneShape, cols: number): number {
  const W0 = z.cols;
  if (cols === W0) return z.cy;
  let delta = 0;
  const widths: number[] = [];
  let a = 0;
  while (a < z.extent) {
    let b = a;
    while (b + 1 < z.extent && z.wrapped[b + 1] === 1) b++;
    const holdsCursor = z.cy >= a && z.cy <= b;
    const single = a === b;
    const eligible = cols < W0 ? !single || (z.termLen[a] ?? 0) > cols : !single;
    if (!holdsCursor && eligible) {
      groupCells(z.term, z.termLen, a, b, W0, widths);
      delta += chopCount(widths, widths.length, cols) - (b - a + 1);
    }
    a = b + 1;
  }
  return z.cy + delta;
}

/** A cell no grapheme equals: a row holding it never matches a row we want. */
const UNKNOWN = 0xffffffff;

/**
 * The top `n` rows of the zone as the terminal shows them after reflowing from `z.cols` to
 * `dst.cols` (the rows zoneTopAfterReflow counts), appended to `dst`. Groups above the cursor's are
 * re-chopped as the terminal re-chops them; rows of the cursor's own group are left alone (cut or
 * padded).
 */
export function zoneRowsAfterReflow(z: ZoneShape, n: number, dst: CellBuffer): void {
  const W0 = z.cols, W1 = dst.cols;
  const widths: number[] = [], g: number[] = [], s: number[] = [];
  let made = 0;
  let a = 0;
  while (made < n && a < z.extent) {
    let b = a;
    while (b + 1 < z.extent && z.wrapped[b + 1] === 1) b++;
    if (z.cy >= a && z.cy <= b) {
      // xterm.js leaves the cursor's line as it was: each row cut at a narrower width, padded at
      // a wider one (the padding becomes content when the line is re-wrapped later).
      const w = Math.min(W0, W1);
      for (let r = a; made < n && r <= b; r++, made++) {
        const y = dst.height++;
        dst.ensure(dst.height);
        dst.clearRow(y);
        let last = 0;
        for (let x = 0; x < w; x++) {
          const i = y * W1 + x, j = r * W0 + x;
          dst.glyph[i] = z.term.glyph[j] ?? 0x20; dst.style[i] = z.term.style[j] ?? 0; dst.width[i] = z.term.width[j] ?? 1;
          if (dst.glyph[i] !== 0x20 || dst.style[i] !== 0) last = x + (dst.width[i] === 2 ? 2 : 1);
        }
        if (w < W0 && z.term.width[r * W0 + w] === 0) dst.glyph[y * W1 + w - 1] = UNKNOWN; // a wide grapheme cut in half
        dst.len[y] = Math.min(last, w);
        dst.ext[y] = r < b ? w : Math.min(z.termLen[r] ?? 0, w);
        dst.soft[y] = r === a ? (z.wrapped[a] ?? 0) : 1;
      }
      return;
    }
    groupCells(z.term, z.termLen, a, b, W0, widths, g, s);
    made += appendChopped(dst, g, s, widths, z.wrapped[a] ?? 0, n - made);
    a = b + 1;
  }
}

/**
 * Re-chops rows [0, n) of `src` (laid out at src.cols) at dst.cols, appending to `dst`: the same
 * re-wrap the terminal applies to history, used for committed rows still shown in the live zone.
 */
export function rechopRows(src: CellBuffer, n: number, dst: CellBuffer): void {
  const W0 = src.cols;
  let a = 0;
  const g: number[] = [], s: number[] = [], w: number[] = [];
  while (a < n) {
    let b = a;
    while (b + 1 < n && src.soft[b + 1] === 1) b++;
    g.length = 0; s.length = 0; w.length = 0;
    for (let r = a; r <= b; r++) {
      let len: number;
      if (r === b) len = src.len[r] ?? 0;
      else {
        const i = r * W0 + W0 - 1;
        const lastBlank = src.glyph[i] === 0x20 && src.style[i] === 0 && (src.ext[r] ?? 0) < W0;
        len = lastBlank && src.width[(r + 1) * W0] === 2 ? W0 - 1 : W0;
      }
      for (let x = 0; x < len; x++) { g.push(src.glyph[r * W0 + x] ?? 0x20); s.push(src.style[r * W0 + x] ?? 0); w.push(src.width[r * W0 + x] ?? 1); }
    }
    appendChopped(dst, g, s, w, src.soft[a] ?? 0, Infinity);
    a = b + 1;
  }
}

/** All of `src` re-chopped at `cols` into a new buffer (see rechopRows). */
export function rechopped(src: CellBuffer, cols: number): CellBuffer {
  const dst = new CellBuffer(cols, Math.max(8, src.height * 2));
  rechopRows(src, src.height, dst);
  return dst;
}

/**
 * One line's cells (glyphs, styles, widths) cut into rows of dst.cols appended to `dst`, as a
 * terminal re-wraps it: a wide grapheme that would straddle the edge moves to the next row. The
 * first row keeps `firstSoft`, the rest are soft. At most `max` rows; returns how many were made.
 */
function appendChopped(dst: CellBuffer, g: number[], s: number[], widths: number[], firstSoft: number, max: number): number {
  const W1 = dst.cols;
  let pos = 0;
  let made = 0;
  do {
    if (made >= max) return made;
    let end = Math.min(pos + W1, widths.length);
    if (end < widths.length && widths[end - 1] === 2) end--;
    const y = dst.height++;
    dst.ensure(dst.height);
    dst.clearRow(y);
    let last = 0;
    for (let x = 0; x < end - pos; x++) {
      const i = y * W1 + x;
      dst.glyph[i] = g[pos + x] ?? 0x20; dst.style[i] = s[pos + x] ?? 0; dst.width[i] = widths[pos + x] ?? 1;
      if (dst.glyph[i] !== 0x20 || dst.style[i] !== 0) last = x + (dst.width[i] === 2 ? 2 : 1);
    }
    dst.len[y] = last;
    dst.ext[y] = end - pos;
    dst.soft[y] = made === 0 ? firstSoft : 1;
    made++;
    pos = end;
  } while (pos < widths.length);
  return made;
}
