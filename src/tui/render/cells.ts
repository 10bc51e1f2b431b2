// The packed cell grid: one slot per cell in three typed arrays (grapheme id, style id, width), so
// a 200×60 frame is three flat arrays and no objects. Width is 1 for a narrow grapheme, 2 for the
// lead cell of a wide one, 0 for the cell a wide grapheme covers. A blank cell is a space in the
// default style; `len[y]` is one past the last non-blank cell, so trailing blanks cost nothing.
import { GraphemeTable, SPACE, WIDE_TAIL } from "./graphemes.ts";
import { DEFAULT_STYLE, StyleTable } from "./styles.ts";
import type { Row } from "./style.ts";
import { isPrintableAscii, segmentGraphemes } from "./width.ts";

export class CellBuffer {
  glyph: Uint32Array;
  style: Uint32Array;
  width: Uint8Array;
  /** Per row: 1 when the row continues the previous one (a soft wrap). */
  soft: Uint8Array;
  /** Per row: one past the last non-blank cell. */
  len: Int32Array;
  /** Per row: cells the content covers, trailing spaces included (a blank inside it is a real space, not a gap). */
  ext: Int32Array;
  height = 0;

  constructor(public cols: number, private capacity: number) {
    this.glyph = new Uint32Array(cols * capacity).fill(SPACE);
    this.style = new Uint32Array(cols * capacity);
    this.width = new Uint8Array(cols * capacity).fill(1);
    this.soft = new Uint8Array(capacity);
    this.len = new Int32Array(capacity);
    this.ext = new Int32Array(capacity);
  }

  /** Makes room for `rows` rows; keeps content when the width is unchanged. */
  ensure(rows: number): void {
    if (rows <= this.capacity) return;
    const cap = Math.max(rows, this.capacity * 2);
    const grow = <T extends Uint32Array | Uint8Array | Int32Array>(a: T, n: number, fill: number): T => {
      const b = new (a.constructor as new (n: number) => T)(n);
      b.fill(fill);
      b.set(a);
      return b;
    };
    this.glyph = grow(this.glyph, this.cols * cap, SPACE);
    this.style = grow(this.style, this.cols * cap, 0);
    this.width = grow(this.width, this.cols * cap, 1);
    this.soft = grow(this.soft, cap, 0);
    this.len = grow(this.len, cap, 0);
    this.ext = grow(this.ext, cap, 0);
    this.capacity = cap;
  }

  /** Drops all content and changes the width. */
  reset(cols: number): void {
    if (cols !== this.cols) {
      this.cols = cols;
      this.glyph = new Uint32Array(cols * this.capacity);
      this.style = new Uint32Array(cols * this.capacity);
      this.width = new Uint8Array(cols * this.capacity);
    }
    this.glyph.fill(SPACE);
    this.style.fill(0);
    this.width.fill(1);
    this.soft.fill(0);
    this.len.fill(0);
    this.ext.fill(0);
    this.height = 0;
  }

  clearRow(y: number): void {
    const o = y * this.cols;
    this.glyph.fill(SPACE, o, o + this.cols);
    this.style.fill(0, o, o + this.cols);
    this.width.fill(1, o, o + this.cols);
    this.soft[y] = 0;
    this.len[y] = 0;
    this.ext[y] = 0;
  }

  copyRowFrom(src: CellBuffer, sy: number, dy: number): void {
    const n = this.cols;
    this.glyph.set(src.glyph.subarray(sy * n, sy * n + n), dy * n);
    this.style.set(src.style.subarray(sy * n, sy * n + n), dy * n);
    this.width.set(src.width.subarray(sy * n, sy * n + n), dy * n);
    this.soft[dy] = src.soft[sy] ?? 0;
    this.len[dy] = src.len[sy] ?? 0;
    this.ext[dy] = src.ext[sy] ?? 0;
  }

  /** Removes the first `k` rows, moving the rest up. */
  dropTop(k: number): void {
    if (k <= 0) return;
    const n = this.cols;
    const h = this.height;
    this.glyph.copyWithin(0, k * n, h * n);
    this.style.copyWithin(0, k * n, h * n);
    this.width.copyWithin(0, k * n, h * n);
    this.soft.copyWithin(0, k, h);
    this.len.copyWithin(0, k, h);
    this.ext.copyWithin(0, k, h);
    const nh = Math.max(0, h - k);
    for (let y = nh; y < h; y++) this.clearRow(y);
    this.height = nh;
  }

  /** Inserts `n` blank rows at row `at`, moving rows [at, height) down; rows pushed past `height` are dropped. */
  insertRows(at: number, n: number, height: number): void {
    if (n <= 0 || at >= height) return;
    const c = this.cols;
    const to = Math.min(height, at + n);
    this.glyph.copyWithin(to * c, at * c, (height - (to - at)) * c);
    this.style.copyWithin(to * c, at * c, (height - (to - at)) * c);
    this.width.copyWithin(to * c, at * c, (height - (to - at)) * c);
    this.soft.copyWithin(to, at, height - (to - at));
    this.len.copyWithin(to, at, height - (to - at));
    this.ext.copyWithin(to, at, height - (to - at));
    for (let y = at; y < to; y++) this.clearRow(y);
  }

  rowEquals(y: number, other: CellBuffer, oy: number): boolean {
    if (this.len[y] !== other.len[oy] || this.soft[y] !== other.soft[oy]) return false;
    const n = this.cols, a = y * n, b = oy * n, l = this.len[y] ?? 0;
    for (let x = 0; x < l; x++) {
      if (this.glyph[a + x] !== other.glyph[b + x] || this.style[a + x] !== other.style[b + x] || this.width[a + x] !== other.width[b + x]) return false;
    }
    return true;
  }
}

/** Lays one Row into row `y`. Returns false when the row was wider than the buffer (clipped). */
export function writeRow(buf: CellBuffer, y: number, row: Row, graphemes: GraphemeTable, styles: StyleTable): boolean {
  const cols = buf.cols;
  const o = y * cols;
  const { glyph, style, width } = buf;
  let x = 0;
  let last = 0;
  let fits = true;
  outer: for (const span of row.spans) {
    const sid = styles.intern(span.style);
    const text = span.text;
    if (isPrintableAscii(text)) {
      for (let i = 0; i < text.length; i++) {
        if (x >= cols) { fits = false; break outer; }
        const c = text.charCodeAt(i);
        glyph[o + x] = c; style[o + x] = sid; width[o + x] = 1;
        x++;
        if (c !== SPACE || sid !== DEFAULT_STYLE) last = x;
      }
      continue;
    }
    for (const { segment } of segmentGraphemes(text)) {
      const id = graphemes.intern(segment);
      const w = graphemes.width(id);
      if (w === 0) continue; // a lone combining mark or format char has no cell of its own
      // A wide grapheme never starts in the last column: the terminal would wrap it.
      if (x + w > cols) { fits = false; break outer; }
      glyph[o + x] = id; style[o + x] = sid; width[o + x] = w;
      if (w === 2) { glyph[o + x + 1] = WIDE_TAIL; style[o + x + 1] = sid; width[o + x + 1] = 0; }
      x += w;
      if (id !== SPACE || sid !== DEFAULT_STYLE) last = x;
    }
  }
  glyph.fill(SPACE, o + x, o + cols);
  style.fill(0, o + x, o + cols);
  width.fill(1, o + x, o + cols);
  buf.soft[y] = row.soft ? 1 : 0;
  buf.len[y] = last;
  buf.ext[y] = x;
  return fits;
}
