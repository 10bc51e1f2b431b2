// The two-zone screen: history goes into the terminal's own scrollback exactly once; the live zone
// below it is repainted cell by cell. Read "The screen: two zones" in shared/design/ARCHITECTURE.md.
//
//   const screen = createScreen({ output: process.stdout, caps, cols, rows });
//   screen.commit(rows);            // finished rows, laid out at screen.cols: written once, never again
//   screen.setLive(rows, cursor);   // the live zone (≤ rows-1 tall), replaced wholesale each time
//   screen.resize(cols, rows);      // then lay out and setLive again at the new width
//   const view = screen.openFullView(); view.draw(rows); view.close();  // alternate-screen pager
//   screen.frame();                 // render now (tests, benches); otherwise frames are scheduled
//
// Frames are coalesced: every call above only marks the screen dirty; at most one frame per 16 ms
// (slower over SSH or when stdout backs up) renders the latest state with a single write(). With
// nothing dirty no timer runs. Committing rows that the live zone already shows costs no bytes.
// Rows with `soft: true` continue the previous row; they are printed across the right edge so the
// terminal records a soft wrap (copying yields one line, and the terminal reflows them on resize).
//
// Where each job lives: screen-zone.ts (what the live zone holds: the carry, commits, live rows),
// screen-resize.ts (finding and erasing the zone after a resize), screen-cursor.ts (the cursor
// drawn as a cell), screen-full-view.ts (the alternate screen), screen-output.ts (writing and
// scheduling frames); the diff itself is ../render/paint.ts.
import { CellBuffer } from "../render/cells.ts";
import type { ColorDepth } from "../render/colors.ts";
import { GraphemeTable } from "../render/graphemes.ts";
import { ZonePainter } from "../render/paint.ts";
import { StrandedRows } from "../render/stranded.ts";
import type { Row } from "../render/style.ts";
import { StyleTable } from "../render/styles.ts";
import { CellCursor, CursorParking } from "./screen-cursor.ts";
import { AltScreenView } from "./screen-full-view.ts";
import { FrameOutput, logRender } from "./screen-output.ts";
import { reanchorZone } from "./screen-resize.ts";
import { rowLayer, ZoneContent, type LayRow } from "./screen-zone.ts";

/** Where output goes: a TTY stream, a pipe, or a test sink. `write` returns false when backed up. */
export type ScreenOutput = {
  write(data: string): boolean;
  once?(event: "drain", listener: () => void): unknown;
  /**
   * Node's and Bun's tty streams: asks the tty for its size (TIOCGWINSZ) and, if it changed,
   * emits "resize" synchronously, so the app lays out again at the new size before this frame.
   */
  _refreshSize?(): void;
};

export type ScreenCaps = {
  colorDepth: ColorDepth;
  /** DEC 2026 synchronized output: frames are wrapped so the terminal shows them atomically. */
  syncOutput: boolean;
  /** Over SSH frames are spaced further apart. */
  remote?: boolean;
};

export type Cursor = { row: number; col: number };

/**
 * How the live zone's cursor is shown.
 * - "hardware": the terminal's own cursor, moved there at the end of every frame. Every frame that
 *   changes a row above it (a streaming answer over the composer) pays a cursor trip there and back.
 * - "cell": the cursor's cell is drawn inverted and the terminal's cursor stays hidden wherever the
 *   last write ended, so the next streamed characters follow with no cursor move at all.
 * - "auto": "cell" while frames change rows other than the cursor's (streaming, spinners), the
 *   hardware cursor for frames that only touch its row (typing: IME and screen readers follow
 *   the hardware cursor) and again once frames stop for a moment.
 */
export type CursorStyle = "hardware" | "cell" | "auto";

export type FrameStats = {
  frame: number;
  bytes: number;
  cellsChanged: number;
  buildMs: number;
  diffMs: number;
  /** Why the whole live zone was redrawn, when it was. */
  repaint: string | null;
  /** How the cursor was shown in this frame (null: no cursor). */
  cursor?: "hardware" | "cell" | null;
};

export type ScreenStats = {
  frames: number;
  bytes: number;
  fullRepaints: number;
  last: FrameStats | null;
};

export type FullView = {
  readonly cols: number;
  readonly rows: number;
  /** Replaces the full-screen content (rows past the screen height are ignored). */
  draw(rows: Row[], cursor?: Cursor | null): void;
  /** Leaves the alternate screen: the main screen comes back exactly as it was. */
  close(): void;
};

export type ScreenOptions = {
  output: ScreenOutput;
  caps: ScreenCaps;
  cols: number;
  rows: number;
  /** Schedule frames automatically (default true). Tests and benches call frame() themselves. */
  schedule?: boolean;
  /** Called with a line for every full repaint and every broken invariant (a row wider than the screen). */
  log?: (line: string) => void;
  /** Records every byte written (default: $KHAELOR_WRITE_LOG). */
  writeLogPath?: string;
  /** Minimum milliseconds between frames (default 16; 33 when remote). */
  frameIntervalMs?: number;
  /** Frames shorter than this are not wrapped in DEC 2026 (default 64 bytes). */
  syncMinBytes?: number;
  /** How the cursor given to setLive is shown (default "hardware"). */
  cursorStyle?: CursorStyle;
  /**
   * After this long without a frame the hardware cursor comes back ("auto"), or a hidden cursor
   * (no cursor given to setLive) moves to the live zone's top row (default 150 ms).
   */
  cursorSettleMs?: number;
};

export type Screen = {
  readonly cols: number;
  readonly rows: number;
  commit(rows: Row[]): void;
  setLive(rows: Row[], cursor?: Cursor | null): void;
  resize(cols: number, rows: number): void;
  openFullView(): FullView;
  /** Renders now if anything changed; returns the frame's stats or null when nothing was dirty. */
  frame(): FrameStats | null;
  /** Marks everything dirty (e.g. after Ctrl-Z resume), optionally with a new size. */
  invalidate(): void;
  readonly stats: ScreenStats;
  /** For tests and debugging: the cursor's row within the zone, and how the zone is made up. */
  debugZone(): { cursorRow: number; carryRows: number; liveRows: number };
  dispose(): void;
};

export function createScreen(opts: ScreenOptions): Screen {
  return new TwoZoneScreen(opts);
}

class TwoZoneScreen implements Screen {
  cols: number;
  rows: number;
  private readonly graphemes = new GraphemeTable();
  private readonly styles: StyleTable;
  private readonly painter: ZonePainter;
  private readonly want: CellBuffer;
  private readonly zone: ZoneContent;
  /** Rows of the zone a resize pushed out of reach, just above it (see stranded.ts). */
  private readonly stranded: StrandedRows;
  private readonly output: FrameOutput;
  private readonly cellCursor: CellCursor;
  private readonly parking: CursorParking;
  private readonly lay: LayRow;
  private dirty = true;
  private started = false;
  private resizeFrom: number | null = null;
  /** The viewport's height changed since the last frame. */
  private heightChanged = false;
  /** The viewport's height the painter's last frame was drawn for. */
  private paintedRows: number;
  private full: AltScreenView | null = null;
  private disposed = false;
  /** Inside frame()'s size check: a resize listener must not start another frame. */
  private framing = false;

  constructor(private readonly opts: ScreenOptions) {
    this.cols = opts.cols;
    this.rows = opts.rows;
    this.paintedRows = opts.rows;
    this.styles = new StyleTable(opts.caps.colorDepth);
    this.painter = new ZonePainter(opts.cols, this.graphemes, this.styles);
    this.want = new CellBuffer(opts.cols, 64);
    const log = (line: string) => logRender(opts, line);
    this.lay = rowLayer(this.graphemes, this.styles, log);
    this.zone = new ZoneContent(opts.cols, this.lay, log);
    this.stranded = new StrandedRows(opts.cols);
    this.output = new FrameOutput(opts, () => this.frame(), () => this.dirty || (this.full !== null && this.full.dirty));
    this.cellCursor = new CellCursor({
      style: opts.caps.colorDepth === "plain" ? "hardware" : (opts.cursorStyle ?? "hardware"),
      styles: this.styles,
      settleMs: opts.cursorSettleMs ?? 150,
      scheduled: opts.schedule !== false,
      wake: () => this.invalidateSoon(),
      away: () => this.full !== null,
    });
    this.parking = new CursorParking({
      settleMs: opts.cursorSettleMs ?? 150,
      scheduled: opts.schedule !== false,
      wake: () => this.invalidateSoon(),
      away: () => this.full !== null,
    });
  }

  get stats(): ScreenStats {
    return this.output.stats;
  }

  commit(rows: Row[]): void {
    if (rows.length === 0) return;
    this.zone.commit(rows);
    this.invalidateSoon();
  }

  setLive(rows: Row[], cursor: Cursor | null = null): void {
    this.zone.setLive(rows, cursor);
    this.invalidateSoon();
  }

  resize(cols: number, rows: number): void {
    if (cols === this.cols && rows === this.rows) return;
    if (this.resizeFrom === null) this.resizeFrom = this.painter.cols;
    if (rows !== this.rows) this.heightChanged = true;
    if (cols !== this.cols) this.zone.keepPending(this.cols);
    this.cols = cols;
    this.rows = rows;
    this.invalidateSoon();
  }

  invalidate(): void {
    this.dirty = true;
    if (this.full) this.full.dirty = true;
    this.output.schedule();
  }

  private invalidateSoon(): void {
    this.dirty = true;
    this.output.schedule();
  }

  openFullView(): FullView {
    if (this.full) throw new Error("a full-screen view is already open: close it before opening another");
    // The main screen is not brought up to date first: the app may be between a commit and the
    // setLive that continues the committed line, and a frame now would end that line early.
    // Pending changes wait behind the view; 1049l brings the main screen back exactly as we left
    // it, and the first frame after close() draws them.
    this.output.cancel();
    const view = new AltScreenView(this.cols, this.rows, this.graphemes, this.styles, this.lay);
    this.full = view;
    this.output.schedule();
    const screen = this;
    return {
      get cols() { return screen.cols; },
      get rows() { return screen.rows; },
      draw(rows, cursor = null) {
        view.draw(rows, cursor);
        screen.output.schedule();
      },
      close() {
        if (screen.full !== view) return;
        screen.full = null;
        const bytes = view.leave(screen.painter);
        if (bytes !== null) {
          screen.output.emit(bytes, null);
          if (screen.painter.cols !== screen.cols && screen.resizeFrom === null) screen.resizeFrom = screen.painter.cols;
        }
        screen.dirty = true;
        screen.output.schedule();
      },
    };
  }

  frame(): FrameStats | null {
    if (this.disposed || this.framing) return null;
    // The terminal reflows the moment the window changes, but SIGWINCH reaches us later: a frame
    // painted in between moves by the old geometry over reflowed rows (CUU overshoots into history
    // when soft rows were joined) and then the resize erases the wrong rows. Asking the tty first
    // lets the resize (and the app's new layout) come before this frame.
    this.framing = true;
    try { this.opts.output._refreshSize?.(); } catch { /* the terminal may be gone */ }
    this.framing = false;
    this.output.cancel();
    if (this.full) return this.full.frame(this.cols, this.rows, this.painter, this.output);
    if (!this.dirty) return null;
    this.dirty = false;
    const t0 = performance.now();
    const p = this.painter;
    let repaint: string | null = null;
    let pre = "";
    if (!this.started) {
      this.started = true;
      // The zone starts on the cursor's line; clear from there down in case something is below.
      pre += "\r\x1b[J";
    }
    if (this.resizeFrom !== null) {
      const erased = reanchorZone(p, this.styles, this.stranded, { from: this.resizeFrom, cols: this.cols, rows: this.rows, paintedRows: this.paintedRows, heightChanged: this.heightChanged });
      this.resizeFrom = null;
      this.heightChanged = false;
      if (erased) {
        pre += erased.bytes;
        repaint = erased.repaint;
        this.want.reset(this.cols);
      }
    }
    this.paintedRows = this.rows;
    const want = this.want;
    const plan = this.zone.layout(want, this.cols, this.rows, this.stranded);
    const cursor = this.zone.cursor;
    const cellCursor = plan.cursorRow >= 0 && plan.cursorRow < want.height && this.cellCursor.draws(want, p.term, plan.cursorRow, Math.min(this.cols - 1, Math.max(0, cursor!.col)), plan.drop);
    const t1 = performance.now();
    p.cellsChanged = 0;
    p.paint(want, { wraps: true, eraseBelow: true, dropTop: plan.drop, viewRows: this.rows });
    this.zone.keep(want, plan);
    // Cursor: shown where the app wants it (IME and screen readers follow it), hidden otherwise.
    if (cursor && !cellCursor) p.placeCursor(plan.cursorRow - plan.drop, cursor.col);
    const shown = this.output.cursor(cursor !== null && !cellCursor);
    // With no cursor to show, the hidden one waits on the zone's top row once frames stop.
    if (!cursor && this.parking.take()) p.placeCursor(0, 0);
    this.parking.framed(!cursor && (p.cy !== 0 || p.cx !== 0 || p.pending));
    this.cellCursor.framed(cellCursor);
    const body = shown.before + pre + p.take() + shown.after;
    const t2 = performance.now();
    const stats: FrameStats = {
      frame: this.stats.frames + 1,
      bytes: 0,
      cellsChanged: p.cellsChanged,
      buildMs: t1 - t0,
      diffMs: t2 - t1,
      repaint,
      cursor: cursor ? (cellCursor ? "cell" : "hardware") : null,
    };
    if (repaint) logRender(this.opts, `full repaint: ${repaint}`);
    this.output.emit(body, stats);
    return stats;
  }

  debugZone(): { cursorRow: number; carryRows: number; liveRows: number } {
    return { cursorRow: this.painter.cy, ...this.zone.shape(this.rows) };
  }

  dispose(): void {
    this.disposed = true;
    this.output.dispose();
    this.cellCursor.dispose();
    this.parking.dispose();
  }
}
