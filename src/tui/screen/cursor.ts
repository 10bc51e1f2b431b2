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
//
// Neither keeps a timer: each says when it next wants a frame (dueAt), the screen's frame clock
// wakes at the earliest of everything due, and tick() says whether this one's time has come.
import type { CellBuffer } from "../render/cells.ts";
import type { StyleTable } from "../render/styles.ts";
import type { CursorStyle } from "./types.ts";

export type CellCursorOptions = {
  style: CursorStyle;
  styles: StyleTable;
  /** "auto": after this long without a frame the hardware cursor comes back. */
  settleMs: number;
  /** Frames are scheduled (tests and benches draw them themselves: no settling). */
  scheduled: boolean;
  /** The frame clock's time. */
  now(): number;
  /** Something else owns the terminal (the full-screen view): no settling now. */
  away(): boolean;
};

export class CellCursor {
  /** The last frame drew the cursor as a cell. */
  private shown = false;
  private settled = false;
  /** When the hardware cursor comes back if no frame comes first. */
  private settleAt = Infinity;
  private disposed = false;

  constructor(private readonly opts: CellCursorOptions) {}

  /** When this wants a frame (Infinity: not at all). */
  dueAt(): number {
    return this.settleAt;
  }

  /** The frame clock woke: true when the settling frame is due now. */
  tick(now: number): boolean {
    if (now < this.settleAt) return false;
    this.settleAt = Infinity;
    if (!this.shown || this.opts.away()) return false;
    this.settled = true;
    return true;
  }

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
    // "auto": once frames stop, the hardware cursor comes back where the cell cursor is.
    const settles = cell && this.opts.style === "auto" && this.opts.scheduled && !this.disposed;
    this.settleAt = settles ? this.opts.now() + this.opts.settleMs : Infinity;
  }

  dispose(): void {
    this.disposed = true;
    this.settleAt = Infinity;
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
}

export type CursorParkingOptions = {
  /** How long frames must have stopped. */
  settleMs: number;
  /** Frames are scheduled (tests and benches draw them themselves: the cursor is never parked). */
  scheduled: boolean;
  /** The frame clock's time. */
  now(): number;
  /** Something else owns the terminal (the full-screen view): not now. */
  away(): boolean;
};

export class CursorParking {
  private due = false;
  /** When the cursor is parked if no frame comes first. */
  private parkAt = Infinity;
  private disposed = false;

  constructor(private readonly opts: CursorParkingOptions) {}

  /** When this wants a frame (Infinity: not at all). */
  dueAt(): number {
    return this.parkAt;
  }

  /** The frame clock woke: true when the parking frame is due now. */
  tick(now: number): boolean {
    if (now < this.parkAt) return false;
    this.parkAt = Infinity;
    if (this.opts.away()) return false;
    this.due = true;
    return true;
  }

  /** Whether this frame moves the hidden cursor to the zone's top row. */
  take(): boolean {
    const due = this.due;
    this.due = false;
    return due;
  }

  /** The frame is out; `away` when it left a hidden cursor anywhere but the zone's top-left cell. */
  framed(away: boolean): void {
    this.parkAt = away && this.opts.scheduled && !this.disposed ? this.opts.now() + this.opts.settleMs : Infinity;
  }

  dispose(): void {
    this.disposed = true;
    this.parkAt = Infinity;
  }
}
