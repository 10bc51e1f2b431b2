// The two-zone screen: history goes into the terminal's own scrollback exactly once; the live zone
// below it is repainted cell by cell. Read "The screen: two zones" in ARCHITECTURE.md.
//
//   const screen = createScreen({ output: process.stdout, caps, cols, rows });
//   screen.commit(rows);            // finished rows, laid out at screen.cols: written once, never again
//   screen.setLive(rows, cursor);   // the live zone (≤ rows-1 tall), replaced wholesale each time
//   screen.resize(cols, rows);      // then lay out and setLive again at the new width
//   const view = screen.openFullView(); view.draw(rows); view.close();  // alternate-screen pager
//   screen.frame();                 // render now (tests, benches); otherwise frames are scheduled
//
// Frames are coalesced: every call above only marks the screen dirty; at most one frame per 16 ms
// (slower over SSH or when stdout backs up) renders the latest state with a single write(). One
// frame clock (output.ts) wakes for whatever is due first: a change, the caller's layout at the
// time it asked for (requestLayout), the cursor's settling; with nothing due no timer is armed.
// Committing rows that the live zone already shows costs no bytes.
// Rows with `soft: true` continue the previous row; they are printed across the right edge so the
// terminal records a soft wrap (copying yields one line, and the terminal reflows them on resize).
//
// Where each job lives: zone.ts (what the live zone holds: the carry, commits, live rows),
// resize.ts (finding and erasing the zone after a resize), cursor.ts (the cursor drawn as a cell),
// full-view.ts (the alternate screen), output.ts (writing and scheduling frames), types.ts (the
// shapes they share); the diff itself is ../render/paint.ts.
import { CellBuffer } from "../render/cells.ts";
import { GraphemeTable } from "../render/graphemes.ts";
import { ZonePainter } from "../render/paint.ts";
import { StrandedRows } from "../render/stranded.ts";
import type { Row } from "../render/style.ts";
import { StyleTable } from "../render/styles.ts";
import { CellCursor, CursorParking } from "./cursor.ts";
import { AltScreenView } from "./full-view.ts";
import { FrameOutput, logRender } from "./output.ts";
import { reanchorZone } from "./resize.ts";
import type { Cursor, FrameStats, FullView, LayoutWhen, Screen, ScreenOptions, ScreenStats } from "./types.ts";
import { rowLayer, ZoneContent, type LayRow } from "./zone.ts";

export type { Cursor, CursorStyle, FrameStats, FrameTimers, FullView, LayoutWhen, Screen, ScreenCaps, ScreenOptions, ScreenOutput, ScreenStats } from "./types.ts";

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
  /** The caller's layout (requestLayout), and the clock time it is due at. */
  private layout: (() => void) | null = null;
  private layoutAt = Infinity;

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
    this.output = new FrameOutput(opts, () => this.tick(), () => this.due());
    const now = () => this.output.timers.now();
    this.cellCursor = new CellCursor({
      style: opts.caps.colorDepth === "plain" ? "hardware" : (opts.cursorStyle ?? "hardware"),
      styles: this.styles,
      settleMs: opts.cursorSettleMs ?? 150,
      scheduled: opts.schedule !== false,
      now,
      away: () => this.full !== null,
    });
    this.parking = new CursorParking({
      settleMs: opts.cursorSettleMs ?? 150,
      scheduled: opts.schedule !== false,
      now,
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

  requestLayout(layout: () => void, when: LayoutWhen = {}): void {
    const now = this.output.timers.now();
    let at = now + (when.inMs ?? 0);
    if (when.gapMs !== undefined) at = Math.max(at, this.output.lastFrameAt + when.gapMs);
    this.layout = layout;
    this.layoutAt = Math.min(this.layoutAt, at);
    this.output.schedule();
  }

  /** When the next frame is wanted, on the frame clock (Infinity: nothing is due). */
  private due(): number {
    if (this.dirty || this.full?.dirty) return 0;
    return Math.min(this.layout ? this.layoutAt : Infinity, this.cellCursor.dueAt(), this.parking.dueAt());
  }

  /** The frame clock woke: whatever has come due is drawn. */
  private tick(): void {
    const now = this.output.timers.now();
    if (this.cellCursor.tick(now)) this.dirty = true;
    if (this.parking.tick(now)) this.dirty = true;
    this.frame();
  }

  measureLink(): void {
    this.output.measureLink({});
  }

  quietLink(quiet: boolean): void {
    if (this.output.link) this.output.link.quiet = quiet;
  }

  linkAnswered(): void {
    this.output.link?.answered();
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
    const stats = this.draw();
    // What is still due (a layout asked for later, the cursor's settling) arms the clock again.
    this.output.schedule();
    return stats;
  }

  private draw(): FrameStats | null {
    // The terminal reflows the moment the window changes, but SIGWINCH reaches us later: a frame
    // painted in between moves by the old geometry over reflowed rows (CUU overshoots into history
    // when soft rows were joined) and then the resize erases the wrong rows. Asking the tty first
    // lets the resize (and the app's new layout) come before this frame.
    this.framing = true;
    try { this.opts.output._refreshSize?.(); } catch { /* the terminal may be gone */ }
    this.framing = false;
    const layout = this.layout;
    this.layout = null;
    this.layoutAt = Infinity;
    layout?.();
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
