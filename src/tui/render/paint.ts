// The frame diff: turns "what the terminal shows" into "what we want" with as few bytes as we can.
//
// The painter owns a zone of rows starting at a row we never address absolutely (the top of the
// live zone on the main screen, or row 0 of the alternate screen). It keeps a copy of what the
// terminal shows there (`term`), where the terminal's cursor is, which SGR pen is active, and which
// rows the terminal has marked as soft-wrapped continuations. Invariants the code relies on:
//
// - Rows are painted top to bottom, and the cursor only moves relatively (CUU/CUD/CUF/CUB/CHA/CR),
//   so the zone may sit anywhere on screen. Rows past `extent` do not exist yet: they are reached
//   with CR LF, which scrolls the screen (and pushes its top row into scrollback) at the bottom.
// - Printing into the last column leaves the cursor "pending wrap". The next printed character
//   wraps and the terminal marks the new line as a continuation (copy and reflow then treat both
//   rows as one line); that is how a soft row is produced. Any cursor move cancels it. Where the
//   cursor sits meanwhile differs: on the last column (xterm, xterm.js, VTE, kitty) or one past it
//   (tmux). Vertical moves bring both back to the last column, but a relative move left (CUB, BS)
//   counts from a different cell: while a wrap is pending, horizontal moves are absolute (CR, CHA).
// - Trailing blanks are never printed: they are erased with EL, so the terminal's idea of a row's
//   length (what it reflows and copies) equals ours. EL runs with a pen without background, since
//   terminals erase with the current background colour.
// - Overwriting half of a wide grapheme leaves terminal-specific debris, so a changed run is
//   widened until it covers whole wide graphemes on both sides (ours and the terminal's).
// - Hyperlinks (OSC 8) are closed before the cursor moves, so no link spans a line end.
// - After printing a grapheme of several code points (ZWJ emoji, VS16, combining marks) the
//   terminal's column is not known for sure: terminals measure them differently, and some grow a
//   cell as the code points arrive. The next horizontal move is then absolute (CR, CHA), even to
//   the column we think the cursor is at, and relative moves left (BS, CUB) never cross anything
//   but plain one-cell characters.
import { CellBuffer } from "./cells.ts";
import { GraphemeTable, SPACE } from "./graphemes.ts";
import { DEFAULT_STYLE, StyleTable } from "./styles.ts";

/** wrapped[y]: 0 not a continuation, 1 a continuation, UNSURE either, depending on the terminal. */
const UNSURE = 2;

export type PaintOptions = {
  /** Soft rows are realised as terminal soft wraps (main screen). Off for the alternate screen. */
  wraps: boolean;
  /** Rows of `term` past the painted height are erased (ED 0). */
  eraseBelow: boolean;
  /** How many of the painted rows become history after this paint (row `dropTop` must start a line). */
  dropTop: number;
  /**
   * The viewport's height. A paint taller than the screen scrolls its top rows into scrollback as
   * it goes, and no cursor move reaches them again: nothing may move back up that far.
   */
  viewRows?: number;
};

/** A copy of the row just above the zone (the last history row), for joining a soft commit to it. */
export type RowAbove = { cells: CellBuffer; termLen: number };

const GAP_MERGE = 3;
/** A cell of `term` whose content we cannot know (never equal to a grapheme we want). */
const UNKNOWN = 0xffffffff;
/** Below this many cells, printing the moved rows again is about as cheap as IL and its cursor trips. */
const SHIFT_MIN_CELLS = 12;

export class ZonePainter {
  /** What the terminal shows in the zone. */
  readonly term: CellBuffer;
  /** Per row: the terminal marked this row as a continuation of the previous one. */
  wrapped: Uint8Array;
  /** Per row: the terminal's own idea of the row length (last written cell), which it reflows by. */
  termLen: Int32Array;
  /** Rows that exist on screen below the zone top (row 0 always exists: the cursor is on it). */
  extent = 1;
  /**
   * Screen rows below the last of `extent` (rows the zone erased, or the room it started with): a
   * new row moves into one instead of scrolling the screen. As far as we know: a zone assumed to
   * start on the bottom row is right again once it reaches the bottom. Set by the screen on resize.
   */
  rowsBelow = 0;
  cy = 0;
  cx = 0;
  pending = false;
  /** The terminal's column is certainly `cx` (false after printing a multi-code-point grapheme). */
  exact = true;
  pen = DEFAULT_STYLE;
  above: RowAbove | null = null;
  out = "";
  cellsChanged = 0;

  constructor(
    public cols: number,
    private readonly graphemes: GraphemeTable,
    private readonly styles: StyleTable,
  ) {
    this.term = new CellBuffer(cols, 64);
    this.wrapped = new Uint8Array(64);
    this.termLen = new Int32Array(64);
  }

  /** Forget everything: the zone is a single blank row with the cursor at its start. */
  reset(cols: number): void {
    this.cols = cols;
    this.term.reset(cols);
    this.wrapped.fill(0);
    this.termLen.fill(0);
    this.extent = 1;
    this.cy = 0;
    this.cx = 0;
    this.pending = false;
    this.exact = true;
  }

  private ensureRows(n: number): void {
    this.term.ensure(n + 1);
    if (this.wrapped.length <= n) {
      const w = new Uint8Array(Math.max(n + 1, this.wrapped.length * 2));
      w.set(this.wrapped);
      this.wrapped = w;
      const l = new Int32Array(w.length);
      l.set(this.termLen);
      this.termLen = l;
    }
  }

  /** Paints rows [0, want.height) of `want` over the zone. Appends bytes to `out`. */
  paint(want: CellBuffer, opts: PaintOptions): void {
    const H = want.height;
    this.ensureRows(Math.max(H, this.extent) + 1);
    if (opts.wraps) this.shiftRowsDown(want, opts.viewRows ?? Infinity);
    for (let y = 0; y < H; y++) {
      const soft = opts.wraps && want.soft[y] === 1 && (y > 0 ? y !== opts.dropTop : this.above !== null && opts.dropTop > 0);
      if (soft && this.wrapped[y] !== 1) this.establishWrap(want, y);
      else if (!soft && this.wrapped[y] !== 0) this.breakWrap(want, y);
      else if (y >= this.extent) this.newRow(y);
      this.paintRow(want, y, opts.wraps && y + 1 < H && want.soft[y + 1] === 1 && y + 1 !== opts.dropTop);
    }
    if (this.term.height < H) this.term.height = H;
    if (opts.eraseBelow && this.extent > H) {
      if (this.anyContentFrom(H)) {
        this.moveTo(H, 0);
        this.cleanPen();
        this.out += "\x1b[J";
      }
      for (let y = H; y < this.extent; y++) this.blankTermRow(y);
      // The cursor may now rest on the (blank) row below the zone: that row still exists.
      const extent = Math.max(H, 1, this.cy + 1);
      this.rowsBelow += this.extent - extent;
      this.extent = extent;
      this.term.height = H;
    }
    if (opts.dropTop > 0) this.dropTop(opts.dropTop);
  }

  /**
   * The zone grew by n rows in its middle while the rows below the growth point stayed the same:
   * the composer and status line under a streaming answer, every time the answer takes a new row.
   * IL (insert line) moves them down for a dozen bytes instead of printing them again. IL drops the
   * screen's bottom row, so the rows the zone needs are made first with LF, which scrolls the top
   * screen row into scrollback exactly as printing them would. Only rows that start their own line
   * are moved (and the inserted rows are blank and unwrapped), so nothing here depends on how a
   * terminal treats soft-wrap flags under IL. IL also homes the cursor to column 0 (VT102).
   */
  private shiftRowsDown(want: CellBuffer, viewRows: number): void {
    const T = this.term.height;
    const n = want.height - T;
    if (n <= 0 || T < 2) return;
    let i = T;
    let content = 0;
    while (i > 1 && want.soft[i - 1 + n] === 0 && this.wrapped[i - 1] !== 1 && want.rowEquals(i - 1 + n, this.term, i - 1)) {
      i--;
      content += this.term.len[i] ?? 0;
    }
    if (i === T || content < SHIFT_MIN_CELLS || this.anyContentFrom(T)) return;
    // Making T+n rows first scrolls the zone's top rows off the screen when it grows taller than
    // the screen (a tall block committed at once): CUU stops at the top row, so rows still to be
    // painted there would land on the wrong lines. Painting top to bottom never goes back up.
    if (T + n > viewRows) {
      let first = 0;
      while (first < i && want.soft[first] === this.term.soft[first] && want.rowEquals(first, this.term, first)) first++;
      if (T + n - Math.min(first, i) > viewRows) return;
    }
    // Inserted lines (and lines a scrolling LF makes) take the current background.
    this.closeLink();
    this.cleanPen();
    // The rows are made from wherever the cursor is. Whether an LF keeps the column depends on the
    // tty (ONLCR), and xterm homes the column on IL but tmux does not: a CR before IL settles it.
    this.downMaking(T + n - 1);
    this.out += cuu(this.cy - i) + "\r" + (n === 1 ? "\x1b[L" : `\x1b[${n}L`);
    const E = this.extent;
    this.term.insertRows(i, n, E);
    this.wrapped.copyWithin(i + n, i, E - n);
    this.termLen.copyWithin(i + n, i, E - n);
    this.wrapped.fill(0, i, i + n);
    this.termLen.fill(0, i, i + n);
    this.term.height = T + n;
    this.cy = i;
    this.cx = 0;
    this.pending = false;
    this.exact = true;
  }

  /**
   * Moves the cursor down to row y, making the rows past `extent` with LF (scrolling the screen at
   * its bottom); the column is left unknown. Rows that exist are crossed with LF too (one byte
   * from us, CR LF on the wire where the tty has ONLCR), or CUD when that is shorter or when one
   * is a soft-wrapped continuation (an LF landing there makes xterm forget the wrap).
   */
  private downMaking(y: number): void {
    if (y <= this.cy) return;
    const last = Math.min(y, this.extent - 1);
    let s = "";
    if (last > this.cy) s += last - this.cy <= 3 && !this.crossesWrapped(this.cy + 1, last) ? "\n".repeat(last - this.cy) : cud(last - this.cy);
    for (let r = Math.max(last + 1, this.extent); r <= y; r++) {
      s += "\n";
      this.extent = r + 1;
      if (this.rowsBelow > 0) this.rowsBelow--;
      this.blankTermRow(r);
    }
    this.out += s;
    this.cy = y;
    this.pending = false;
    this.exact = false;
  }

  private anyContentFrom(y0: number): boolean {
    for (let y = y0; y < this.extent; y++) if ((this.term.len[y] ?? 0) > 0 || (this.termLen[y] ?? 0) > 0 || this.wrapped[y] === 1) return true;
    return false;
  }

  private blankTermRow(y: number): void {
    this.term.clearRow(y);
    this.wrapped[y] = 0;
    this.termLen[y] = 0;
  }

  /** The first `k` rows became history: the zone now starts below them. */
  dropTop(k: number): void {
    const last = k - 1;
    const cells = new CellBuffer(this.cols, 1);
    cells.copyRowFrom(this.term, last, 0);
    cells.height = 1;
    this.above = { cells, termLen: this.termLen[last] ?? 0 };
    const h = Math.max(this.term.height, this.extent);
    const oldExtent = this.extent;
    // The rows a cursor in a committed row would cross to reach the zone's new top.
    let crossesWrap = false;
    for (let r = this.cy + 1; r <= Math.min(k, oldExtent - 1); r++) if (this.wrapped[r] !== 0) crossesWrap = true;
    this.term.height = h;
    this.term.dropTop(k);
    this.wrapped.copyWithin(0, k, h);
    this.termLen.copyWithin(0, k, h);
    for (let y = Math.max(0, h - k); y < h; y++) { this.wrapped[y] = 0; this.termLen[y] = 0; }
    this.cy -= k;
    this.extent = Math.max(1, this.extent - k);
    if (this.cy < 0) {
      // The cursor sat in a committed row. Rows that exist are crossed with LF (CR LF on the wire
      // with ONLCR) unless one is soft-wrapped (an LF landing there makes xterm forget the wrap;
      // then CUD); rows that do not exist yet are made by CR LF.
      this.cleanPen();
      const existing = Math.min(-this.cy, oldExtent - 1 - (this.cy + k));
      let s = "\r";
      if (existing > 0) s += existing <= 3 && !crossesWrap ? "\n".repeat(existing) : cud(existing);
      const made = -this.cy - Math.max(0, existing);
      s += "\n".repeat(made);
      this.rowsBelow = Math.max(0, this.rowsBelow - made);
      this.out += s;
      this.cy = 0;
      this.cx = 0;
      this.pending = false;
      this.exact = true;
    }
  }

  private newRow(y: number): void {
    // Reach row y-1 first (it exists), then CR LF creates row y, scrolling if at the bottom.
    if (this.cy < y - 1) this.moveTo(y - 1, 0);
    this.cleanPen(); // a scrolling LF fills the new line with the current background
    this.out += this.cx === 0 && !this.pending && this.exact ? "\n" : "\r\n";
    this.cy = y;
    this.cx = 0;
    this.pending = false;
    this.exact = true;
    this.extent = y + 1;
    if (this.rowsBelow > 0) this.rowsBelow--;
    this.blankTermRow(y);
  }

  /** Makes the terminal treat row y as the continuation of row y-1 by printing across the edge. */
  private establishWrap(want: CellBuffer, y: number): void {
    const W = this.cols;
    const prev = y === 0 ? this.above!.cells : this.term;
    const py = y === 0 ? 0 : y - 1;
    const nextWide = want.width[y * W] === 2;
    const alreadyAtEdge = this.cy === y - 1 && this.pending;
    if (!alreadyAtEdge) {
      const lastW = prev.width[py * W + W - 1] ?? 1;
      // A blank last cell before a wide grapheme is the gap the wide grapheme left (not printed, so
      // copy and reflow skip it), unless the row's content really reached the edge with a space.
      const lastBlank = prev.glyph[py * W + W - 1] === SPACE && prev.style[py * W + W - 1] === DEFAULT_STYLE && (prev.ext[py] ?? 0) < W;
      if (lastW === 0) {
        this.moveTo(y - 1, W - 2);
        this.printCell(prev, py, W - 2, y - 1);
      } else if (lastBlank && nextWide) {
        this.moveTo(y - 1, W - 1);
      } else {
        this.moveTo(y - 1, W - 1);
        this.printCell(prev, py, W - 1, y - 1);
      }
    }
    if (y >= this.extent) {
      this.extent = y + 1;
      if (this.rowsBelow > 0) this.rowsBelow--;
      this.blankTermRow(y);
      // If this wrap scrolls, the terminal fills the new line with the pen's background: erase it later.
      if (!this.styles.erasesClean(want.style[y * W] ?? 0)) this.term.len[y] = W;
    }
    if (!this.pending && nextWide && y > 0) {
      // The terminal wraps a wide grapheme that does not fit in the last column and blanks that cell.
      this.termLen[y - 1] = Math.min(this.termLen[y - 1] ?? 0, W - 1);
    }
    // Print the first grapheme of row y (a space if blank): this is the print that wraps.
    this.printCell(want, y, 0, y, true);
    this.wrapped[y] = 1;
  }

  /** Row y must start its own line but the terminal has it as a continuation: erase it from column 0. */
  private breakWrap(want: CellBuffer, y: number): void {
    if (y > 0) {
      // A padding cell printed only to force the wrap would now count as content on reflow. EL
      // from column 0 would also undo row y-1's own soft wrap: a continuation keeps column 0.
      const from = this.wrapped[y - 1] === 1 ? Math.max(want.len[y - 1] ?? 0, 1) : (want.len[y - 1] ?? 0);
      if ((this.termLen[y - 1] ?? 0) > from) {
        this.moveTo(y - 1, from);
        this.cleanPen();
        this.out += "\x1b[K";
        this.termLen[y - 1] = from;
      }
    }
    this.moveTo(y, 0);
    this.cleanPen();
    this.out += "\x1b[K"; // EL from column 0 also clears the line's wrapped flag
    this.blankTermRow(y);
    this.unsureBelow(y);
  }

  /**
   * EL from column 0 on row y was written. xterm keeps row y+1's wrap; tmux keeps its wrap flag on
   * the row that wraps (y), and drops it: a copy there breaks after row y. Row y+1 is made unsure,
   * so the paint prints across the edge again if it is soft and breaks it if not.
   */
  private unsureBelow(y: number): void {
    if (this.wrapped[y + 1] === 1) this.wrapped[y + 1] = UNSURE;
  }

  private paintRow(want: CellBuffer, y: number, continued: boolean): void {
    const W = this.cols;
    const term = this.term;
    const o = y * W;
    // A row continued by a soft row prints its trailing spaces too: a cell never printed is "empty"
    // to the terminal, and reflow drops an empty last cell before a wide grapheme as a wrap gap.
    const wl = continued ? Math.max(want.len[y] ?? 0, want.ext[y] ?? 0) : (want.len[y] ?? 0);
    const tg = term.glyph, ts = term.style, tw = term.width;
    const wg = want.glyph, ws = want.style, ww = want.width;
    let x = 0;
    while (x < wl) {
      const i = o + x;
      if (tg[i] === wg[i] && ts[i] === ws[i] && tw[i] === ww[i] && !(continued && x >= (this.termLen[y] ?? 0))) { x++; continue; }
      let start = x;
      while (start > 0 && (ww[o + start] === 0 || tw[o + start] === 0)) start--;
      // A blank just before a wide grapheme is printed, never moved over: a cell the terminal never
      // printed reads as the gap a wrapped wide grapheme leaves, and reflow deletes it once a resize
      // puts it at a line's end (xterm.js getWrappedLineTrimmedLength), losing the space.
      if (start > 0 && ww[o + start] === 2 && ww[o + start - 1] === 1 && wg[o + start - 1] === SPACE) {
        start--;
        while (start > 0 && (ww[o + start] === 0 || tw[o + start] === 0)) start--;
      }
      let end = x + 1;
      for (;;) {
        while (end < W && (ww[o + end] === 0 || tw[o + end] === 0)) end++;
        if (end >= wl) break;
        // Merge a short run of equal cells if another change follows: printing beats a cursor move.
        let g = end;
        while (g < wl && g - end <= GAP_MERGE && tg[o + g] === wg[o + g] && ts[o + g] === ws[o + g] && tw[o + g] === ww[o + g]) g++;
        if (g >= wl || g - end > GAP_MERGE) break;
        end = g + 1;
      }
      // Just behind the cursor's column (a space the last frame did not print yet): printing the
      // few cells in between again is cheaper than any cursor move.
      if (this.cy === y && !this.pending && this.exact && this.cx < start && start - this.cx <= GAP_MERGE && this.reprintable(y, this.cx, start)) start = this.cx;
      this.moveTo(y, start);
      for (let cx = start; cx < end; ) {
        const w = ww[o + cx] ?? 1;
        if (w === 0) { cx++; continue; }
        this.printCell(want, y, cx, y, false, cx + w < end);
        this.cellsChanged++;
        cx += w;
      }
      x = end;
    }
    const tl = term.len[y] ?? 0;
    const wrappedRow = this.wrapped[y] === 1;
    if (wrappedRow && wl === 0 && tl > 0) {
      // EL from column 0 would also undo the soft wrap: blank column 0 by printing, erase from 1.
      this.moveTo(y, 0);
      this.printCell(want, y, 0, y);
    }
    const padOnly = this.wrapped[y + 1] === 1; // a printed pad in the last column keeps row y+1 wrapped
    if (tl > wl || ((this.termLen[y] ?? 0) > Math.max(wl, wrappedRow ? 1 : 0) && !padOnly)) {
      const from = wrappedRow ? Math.max(wl, 1) : wl;
      if (from < W) {
        this.moveTo(y, from);
        this.cleanPen();
        this.out += "\x1b[K";
        if (from === 0) this.unsureBelow(y);
        this.cellsChanged += Math.max(0, tl - wl);
        term.glyph.fill(SPACE, o + from, o + W); term.style.fill(0, o + from, o + W); term.width.fill(1, o + from, o + W);
        this.termLen[y] = Math.min(this.termLen[y] ?? 0, from);
      }
    }
    term.len[y] = want.len[y] ?? 0;
    term.soft[y] = want.soft[y] ?? 0;
    term.ext[y] = want.ext[y] ?? 0;
  }

  /** Cells [a, b) of row y show what we want, in narrow ASCII and in the current pen: printing them changes nothing. */
  private reprintable(y: number, a: number, b: number): boolean {
    const o = y * this.cols;
    const t = this.term;
    for (let x = a; x < b; x++) {
      const g = t.glyph[o + x] ?? 0;
      if (g < 0x20 || g >= 0x7f || t.width[o + x] !== 1) return false;
      if (t.style[o + x] !== this.pen && !(g === SPACE && this.styles.sameBlank(t.style[o + x] ?? 0, this.pen))) return false;
    }
    return true;
  }

  /**
   * Prints cell (sy, sx) of `src` at the cursor, which is on zone row `ty`. `wraps` marks the print
   * that crosses the right edge into row ty (the cursor then lands on ty).
   */
  private printCell(src: CellBuffer, sy: number, sx: number, ty: number, wraps = false, more = false): void {
    const W = this.cols;
    const si = sy * W + sx;
    const g = src.glyph[si] ?? SPACE;
    const s = src.style[si] ?? 0;
    const w = src.width[si] || 1;
    // A blank shows no glyph: printed in the pen at hand when that looks the same, it saves a
    // transition there and back (the space between two coloured tokens).
    if (this.pen !== s && !(g === SPACE && this.styles.sameBlank(this.pen, s))) {
      this.out += this.styles.transition(this.pen, s);
      this.pen = s;
    }
    this.out += g < 0x80 ? String.fromCharCode(g) : this.graphemes.text(g);
    let x: number;
    if (wraps) {
      this.cy = ty;
      x = 0;
    } else {
      x = sx;
    }
    const term = this.term;
    if (ty >= 0) {
      const ti = ty * W + x;
      term.glyph[ti] = g; term.style[ti] = s; term.width[ti] = w;
      if (w === 2) { term.glyph[ti + 1] = 0; term.style[ti + 1] = s; term.width[ti + 1] = 0; }
      if (x + w > (this.termLen[ty] ?? 0)) this.termLen[ty] = x + w;
      if (g !== SPACE || s !== DEFAULT_STYLE) { if (x + w > (term.len[ty] ?? 0)) term.len[ty] = x + w; }
      if (g >= 0x80 && this.graphemes.isComplex(g)) this.spillUnknown(ty, x + w, g);
    } else if (this.above) {
      if (x + w > this.above.termLen) this.above.termLen = x + w;
    }
    x += w;
    if (x >= W) { this.cx = W - 1; this.pending = true; }
    else {
      this.cx = x;
      this.pending = false;
      // The terminal may measure a multi-code-point grapheme differently: pin the column again
      // before the next cell, or mark the column unknown for whatever comes next.
      if (g >= 0x80 && this.graphemes.isComplex(g)) {
        if (more) this.out += `\x1b[${x + 1}G`;
        else this.exact = false;
      }
    }
  }

  private closeLink(): void {
    if (this.styles.hasLink(this.pen)) {
      const to = this.styles.unlinked(this.pen);
      this.out += this.styles.transition(this.pen, to);
      this.pen = to;
    }
  }

  private cleanPen(): void {
    if (!this.styles.erasesClean(this.pen) || this.styles.hasLink(this.pen)) {
      this.out += this.styles.transition(this.pen, DEFAULT_STYLE);
      this.pen = DEFAULT_STYLE;
    }
  }

  /** Cheapest relative move to (ty, tx); both must exist on screen. */
  moveTo(ty: number, tx: number): void {
    if (this.cy === ty && this.cx === tx && !this.pending && this.exact) return;
    this.closeLink();
    this.moveToRaw(ty, tx);
  }

  private moveToRaw(ty: number, tx: number): void {
    const dy = ty - this.cy;
    let out = this.relativeMove(ty, tx, dy);
    if (dy > 0 && !this.crossesWrapped(this.cy + 1, ty)) {
      // Down by LF, a byte a row from us (CR LF on the wire where the tty has ONLCR: counting it
      // as two changed no wire byte in the stream bench). Whether it keeps the column depends on
      // the tty too, so an absolute horizontal move follows.
      const lfs = "\n".repeat(dy);
      const viaLf = tx === 0
        ? (this.cx === 0 && !this.pending && this.exact ? "" : "\r") + lfs
        : lfs + shorter(`\x1b[${tx + 1}G`, "\r" + (tx === 1 ? "\x1b[C" : `\x1b[${tx}C`));
      if (viaLf.length < out.length) out = viaLf;
    }
    this.out += out;
    this.cy = ty;
    this.cx = tx;
    this.pending = false;
    this.exact = true;
  }

  /** The move by CUU/CUD and a horizontal move that counts from the column the cursor is in. */
  private relativeMove(ty: number, tx: number, dy: number): string {
    let out = "";
    let col = this.cx; // a pending wrap counts as cols-1 once a vertical move has cancelled it
    if (dy < 0) out += dy === -1 ? "\x1b[A" : `\x1b[${-dy}A`;
    else if (dy > 0) out += dy === 1 ? "\x1b[B" : `\x1b[${dy}B`;
    if (col !== tx || !this.exact || (this.pending && dy === 0 && tx === this.cols - 1)) {
      if (tx === 0) out += "\r";
      else {
        const cha = `\x1b[${tx + 1}G`;
        const d = tx - col;
        let rel: string;
        // Still pending (no vertical move came first), or the column is unknown: only absolute
        // moves land on the same cell in every terminal.
        if ((this.pending && dy === 0) || !this.exact) rel = cha;
        else if (d > 0) rel = d === 1 ? "\x1b[C" : `\x1b[${d}C`;
        else if (d < 0 && !this.plainCells(ty, tx, col)) rel = cha;
        else if (d < 0 && -d <= 2) rel = "\b".repeat(-d);
        else if (d < 0) rel = d === -1 ? "\x1b[D" : `\x1b[${-d}D`;
        else rel = cha;
        const viaCr = "\r" + (tx === 1 ? "\x1b[C" : `\x1b[${tx}C`);
        out += rel.length <= cha.length ? (rel.length <= viaCr.length ? rel : viaCr) : cha.length <= viaCr.length ? cha : viaCr;
      }
    }
    return out;
  }

  /**
   * A terminal that measures a multi-code-point grapheme code point by code point draws it wider
   * than we do, over the cells after it. What those cells show is unknown: marked so, the diff
   * prints them again (or erases them) instead of skipping them as unchanged. Cells the same run
   * goes on to print are simply overwritten here again.
   */
  private spillUnknown(y: number, from: number, g: number): void {
    const W = this.cols;
    let to = Math.min(W, from + Math.min(8, this.graphemes.text(g).length));
    while (to < W && this.term.width[y * W + to] === 0) to++;
    if (to <= from) return;
    const o = y * W;
    this.term.glyph.fill(UNKNOWN, o + from, o + to);
    this.term.width.fill(1, o + from, o + to);
    if (to > (this.termLen[y] ?? 0)) this.termLen[y] = to;
    if (to > (this.term.len[y] ?? 0)) this.term.len[y] = to;
  }

  /** Cells [a, b) of row y hold plain one-cell characters (what a relative move left may cross). */
  private plainCells(y: number, a: number, b: number): boolean {
    const o = y * this.cols;
    for (let x = a; x < b; x++) if (this.term.width[o + x] !== 1 || (this.term.glyph[o + x] ?? 0) >= 0x80) return false;
    return true;
  }

  /** True when any row in [from, to] is a soft-wrapped continuation (an LF there would unwrap it). */
  private crossesWrapped(from: number, to: number): boolean {
    for (let r = Math.max(0, from); r <= to; r++) if (this.wrapped[r] === 1) return true;
    return false;
  }

  /** Puts the cursor where the app wants it (or leaves it) at the end of a frame. */
  placeCursor(ty: number, tx: number): void {
    this.moveTo(Math.min(ty, this.extent - 1), Math.min(tx, this.cols - 1));
  }

  take(): string {
    const s = this.out;
    this.out = "";
    return s;
  }
}

function cuu(n: number): string {
  return n <= 0 ? "" : n === 1 ? "\x1b[A" : `\x1b[${n}A`;
}

function cud(n: number): string {
  return n <= 0 ? "" : n === 1 ? "\x1b[B" : `\x1b[${n}B`;
}

function shorter(a: string, b: string): string {
  return b.length < a.length ? b : a;
}
