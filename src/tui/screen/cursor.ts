// Where the terminal's cursor is between frames when it is not shown where the app wants it.
//
// CellCursor: the live zone's cursor drawn as an inverted cell (CursorStyle "cell", and "auto"
// while frames change rows other than the cursor's): the terminal's own cursor stays hidden
// wherever the last write ended, so streamed text follows with no cursor trip to the composer and
// back. "auto" hands the hardware cursor back for frames that only touch the cursor's row (typing:
// IME and screen readers follow the hardware cursor) and once frames stop for a moment.
//
// CursorParking: with no cursor to show at all (the permission panel), the hidden cursor moves to
// the zone's top row once frames stop. A shorter window then drops the zone's rows below it
// (xterm.js, tmux) instead of pushing the rows above it into scrollback, where they could never be
// erased. Not after every frame: a stream with no cursor would pay a trip to the top and back.
import type { CellBuffer } from "../render/cells.ts";
import type { StyleTable } from "../render/styles.ts";
import type { CursorStyle } from "./types.ts";

export type CellCursorOptions = {
  style: CursorStyle;
  styles: StyleTable;
  /** "auto": after this long without a frame the hardware cursor comes back. */
  settleMs: number;
  /** Frames are scheduled (tests and benches draw them themselves: no settle timer). */
  scheduled: boolean;
  /** Asks for a frame (the one that brings the hardware cursor back). */
  wake(): void;
  /** Something else owns the terminal (the full-screen view): no settling now. */
  away(): boolean;
};

export class CellCursor {
  /** The last frame drew the cursor as a cell. */
  private shown = false;
  private settled = false;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(private readonly opts: CellCursorOptions) {}

  /**
   * Whether this frame shows the cursor at (y, x) of `want` as an inverted cell; when it does, the
   * cell is drawn into `want` here. `term` is what the terminal shows; `drop` rows become history.
   */
  draws(want: CellBuffer, term: CellBuffer, y: number, x: number, drop: number): boolean {
    const mode = this.opts.style;
    if (mode === "hardware") return false;
    if (mode === "cell") return this.invert(want, y, x);
    if (this.settled) { this.settled = false; return false; }
    // Anything but the cursor's row changes (or rows become history): the cursor would have to
    // travel there and back. A frame that changes only the cursor's row is typing.
    let others = drop > 0 || want.height !== term.height;
    for (let y2 = 0; !others && y2 < want.height; y2++) others = y2 !== y && !want.rowEquals(y2, term, y2);
    if (others) return this.invert(want, y, x);
    // Nothing changed at all (the cell cursor already shows, in the same place): keep it, so a
    // pause in a stream does not flip the cursor back and forth.
    if (!this.shown) return false;
    const W = want.cols;
    const o = y * W;
    const saved = { style: want.style.slice(o, o + W), len: want.len[y] ?? 0, ext: want.ext[y] ?? 0 };
    if (this.invert(want, y, x) && want.rowEquals(y, term, y)) return true;
    want.style.set(saved.style, o);
    want.len[y] = saved.len;
    want.ext[y] = saved.ext;
    return false;
  }

  /** The frame is out, with the cursor drawn as a cell or not. */
  framed(cell: boolean): void {
    this.shown = cell;
    if (cell) this.armSettle();
  }

  dispose(): void {
    this.disposed = true;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
  }

  /** Draws the cursor into row y of `want` at column x: the cell (or the wide grapheme covering it) inverted. */
  private invert(buf: CellBuffer, y: number, x: number): boolean {
    const W = buf.cols;
    if (buf.width[y * W + x] === 0 && x > 0) x--;
    const i = y * W + x;
    const inv = this.opts.styles.inverted(buf.style[i] ?? 0);
    if (inv === null) return false;
    buf.style[i] = inv;
    const w = buf.width[i] === 2 ? 2 : 1;
    if (w === 2) buf.style[i + 1] = inv;
    if ((buf.len[y] ?? 0) < x + w) buf.len[y] = x + w;
    if ((buf.ext[y] ?? 0) < x + w) buf.ext[y] = x + w;
    return true;
  }

  /** "auto": once frames stop, bring the hardware cursor back where the cell cursor is. */
  private armSettle(): void {
    if (this.opts.style !== "auto" || !this.opts.scheduled || this.disposed) return;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (!this.shown || this.opts.away()) return;
      this.settled = true;
      this.opts.wake();
    }, this.opts.settleMs);
  }
}

export type CursorParkingOptions = {
  /** How long frames must have stopped. */
  settleMs: number;
  /** Frames are scheduled (tests and benches draw them themselves: the cursor is never parked). */
  scheduled: boolean;
  /** Asks for a frame (the one that parks the cursor). */
  wake(): void;
  /** Something else owns the terminal (the full-screen view): not now. */
  away(): boolean;
};

export class CursorParking {
  private due = false;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private disposed = false;

  constructor(private readonly opts: CursorParkingOptions) {}

  /** Whether this frame moves the hidden cursor to the zone's top row. */
  take(): boolean {
    const due = this.due;
    this.due = false;
    return due;
  }

  /** The frame is out; `away` when it left a hidden cursor anywhere but the zone's top-left cell. */
  framed(away: boolean): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!away || !this.opts.scheduled || this.disposed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      if (this.opts.away()) return;
      this.due = true;
      this.opts.wake();
    }, this.opts.settleMs);
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
