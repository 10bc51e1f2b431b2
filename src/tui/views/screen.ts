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
// While a committed line is still being continued by the live zone (its last row is followed by
// a soft live row), its rows stay in the zone (the "carry") until the line is finished.
import { appendFileSync } from "node:fs";
import { CellBuffer, writeRow } from "../render/cells.ts";
import type { ColorDepth } from "../render/colors.ts";
import { GraphemeTable } from "../render/graphemes.ts";
import { ZonePainter } from "../render/paint.ts";
import { rechopRows, zoneTopAfterReflow } from "../render/reflow.ts";
import { StrandedRows } from "../render/stranded.ts";
import type { Row } from "../render/style.ts";
import { StyleTable } from "../render/styles.ts";

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
  /** "auto": after this long without a frame the hardware cursor comes back (default 150 ms). */
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

const SYNC_BEGIN = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";

export function createScreen(opts: ScreenOptions): Screen {
  return new TwoZoneScreen(opts);
}

class TwoZoneScreen implements Screen {
  cols: number;
  rows: number;
  readonly stats: ScreenStats = { frames: 0, bytes: 0, fullRepaints: 0, last: null };
  private readonly graphemes = new GraphemeTable();
  private readonly styles: StyleTable;
  private readonly painter: ZonePainter;
  private readonly want: CellBuffer;
  private carry: CellBuffer;
  /** Rows of the zone a resize pushed out of reach, just above it (see stranded.ts). */
  private readonly stranded: StrandedRows;
  private pendingCommits: Row[] = [];
  private live: Row[] = [];
  private cursor: Cursor | null = null;
  private dirty = true;
  private started = false;
  private resizeFrom: number | null = null;
  /** The viewport's height changed since the last frame. */
  private heightChanged = false;
  /** The viewport's height the painter's last frame was drawn for. */
  private paintedRows: number;
  private cursorShown = true;
  private full: FullViewState | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waitingDrain = false;
  private lastFrameAt = -Infinity;
  private interval: number;
  private readonly baseInterval: number;
  private readonly writeLog: string | undefined;
  private disposed = false;
  /** Inside frame()'s size check: a resize listener must not start another frame. */
  private framing = false;
  /** "auto": the last frame drew the cursor as a cell. */
  private cellCursor = false;
  private settleTimer: ReturnType<typeof setTimeout> | null = null;
  private settled = false;

  constructor(private readonly opts: ScreenOptions) {
    this.cols = opts.cols;
    this.rows = opts.rows;
    this.paintedRows = opts.rows;
    this.styles = new StyleTable(opts.caps.colorDepth);
    this.painter = new ZonePainter(opts.cols, this.graphemes, this.styles);
    this.want = new CellBuffer(opts.cols, 64);
    this.carry = new CellBuffer(opts.cols, 8);
    this.stranded = new StrandedRows(opts.cols);
    this.baseInterval = opts.frameIntervalMs ?? (opts.caps.remote ? 33 : 16);
    this.interval = this.baseInterval;
    this.writeLog = opts.writeLogPath ?? process.env.KHAELOR_WRITE_LOG ?? undefined;
  }

  commit(rows: Row[]): void {
    if (rows.length === 0) return;
    for (const r of rows) this.pendingCommits.push(r);
    this.invalidateSoon();
  }

  setLive(rows: Row[], cursor: Cursor | null = null): void {
    this.live = rows;
    this.cursor = cursor;
    this.invalidateSoon();
  }

  resize(cols: number, rows: number): void {
    if (cols === this.cols && rows === this.rows) return;
    if (this.resizeFrom === null) this.resizeFrom = this.painter.cols;
    if (rows !== this.rows) this.heightChanged = true;
    if (this.pendingCommits.length > 0 && cols !== this.cols) {
      // Committed rows not yet written were laid out at the old width and cannot be laid out again
      // by the app: keep them as cells, to be re-wrapped at the new width as the terminal would.
      if (this.carry.cols !== this.cols) this.carry = this.rechopped(this.carry, this.cols);
      this.carry.ensure(this.carry.height + this.pendingCommits.length + 1);
      for (const row of this.pendingCommits) this.layRow(this.carry, this.carry.height++, row, this.cols);
      this.pendingCommits = [];
    }
    this.cols = cols;
    this.rows = rows;
    this.invalidateSoon();
  }

  invalidate(): void {
    this.dirty = true;
    if (this.full) this.full.dirty = true;
    this.schedule();
  }

  private invalidateSoon(): void {
    this.dirty = true;
    this.schedule();
  }

  openFullView(): FullView {
    if (this.full) throw new Error("a full-screen view is already open: close it before opening another");
    // The main screen is not brought up to date first: the app may be between a commit and the
    // setLive that continues the committed line, and a frame now would end that line early.
    // Pending changes wait behind the view; 1049l brings the main screen back exactly as we left
    // it, and the first frame after close() draws them.
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    const state: FullViewState = {
      painter: new ZonePainter(this.cols, this.graphemes, this.styles),
      want: new CellBuffer(this.cols, this.rows),
      rows: [],
      cursor: null,
      dirty: true,
      opened: false,
      cols: this.cols,
      height: this.rows,
      mainCols: this.painter.cols,
    };
    this.full = state;
    this.schedule();
    const screen = this;
    return {
      get cols() { return screen.cols; },
      get rows() { return screen.rows; },
      draw(rows, cursor = null) {
        state.rows = rows;
        state.cursor = cursor;
        state.dirty = true;
        screen.schedule();
      },
      close() {
        if (screen.full !== state) return;
        screen.full = null;
        if (state.opened) {
          // 1049l restores the main screen and the cursor (and pen) saved on entry.
          // Whether the restored cursor is still "pending wrap" at the last column differs between
          // terminals (xterm.js drops it): CR puts it somewhere certain.
          screen.emit(screen.styles.transition(state.painter.pen, 0) + "\x1b[?1049l\x1b[m\r", null);
          screen.painter.pen = 0;
          screen.painter.cx = 0;
          screen.painter.pending = false;
          if (screen.painter.cols !== screen.cols && screen.resizeFrom === null) screen.resizeFrom = screen.painter.cols;
        }
        screen.dirty = true;
        screen.schedule();
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
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
    if (this.full) return this.frameFull(this.full);
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
      const from = this.resizeFrom;
      this.resizeFrom = null;
      const heightChanged = this.heightChanged;
      this.heightChanged = false;
      const widthChanged = from !== this.cols || p.cols !== this.cols;
      this.stranded.rewrap(this.cols);
      // A shorter window makes xterm.js (VS Code's terminal) and tmux drop the lines below the
      // cursor, blank or not: rows of the zone under the cursor (the status line under the
      // composer) may be gone. Other terminals keep them. Either way, redrawing the zone leaves no doubt.
      const below = heightChanged && p.cy < p.extent - 1;
      const up = zoneTopAfterReflow(p, this.cols);
      // The cursor's screen row: a shorter window keeps it (dropping the lines below it) unless it
      // no longer fits; re-wrapping keeps it too, scrolling lines into scrollback or back. The zone
      // rows that end above the screen's top are out of reach for good: remembered (stranded) so
      // they are not drawn a second time.
      const cursorY = Math.min(this.cursorScreenRow(), this.rows - 1);
      const gone = Math.max(0, up - cursorY);
      if (widthChanged || below || gone > 0) {
        if (gone > 0) this.stranded.strand(p, gone, this.cols);
        repaint = widthChanged
          ? `resize ${from}→${this.cols} cols (live zone top was ${up} rows above the cursor${gone > 0 ? `, ${gone} of them now in scrollback` : ""})`
          : gone > 0
            ? `resize to ${this.rows} rows pushed ${gone} live rows into scrollback`
            : `resize to ${this.rows} rows with ${p.extent - 1 - p.cy} live rows below the cursor`;
        pre += p.take();
        if (this.styles.hasLink(p.pen) || !this.styles.erasesClean(p.pen)) { pre += this.styles.transition(p.pen, 0); p.pen = 0; }
        const reach = up - gone;
        pre += (reach > 0 ? (reach === 1 ? "\x1b[A" : `\x1b[${reach}A`) : reach < 0 ? (reach === -1 ? "\x1b[B" : `\x1b[${-reach}B`) : "") + "\r\x1b[J";
        p.reset(this.cols);
        p.rowsBelow = this.rows - 1 - Math.max(0, cursorY - reach);
        // History has been reflowed by the terminal, or the row above the zone is out of reach:
        // never join onto it again.
        if (widthChanged || gone > 0) p.above = null;
        this.want.reset(this.cols);
      } else if (heightChanged) {
        // Rows below the cursor go first when the window gets shorter; a taller one adds rows
        // below only if there were some (otherwise xterm.js brings scrollback lines down).
        if (this.rows < this.paintedRows) p.rowsBelow = Math.max(0, p.rowsBelow - (this.paintedRows - this.rows));
        else if (p.rowsBelow > 0) p.rowsBelow += this.rows - this.paintedRows;
      }
    }
    this.paintedRows = this.rows;
    if (this.carry.cols !== this.cols) this.carry = this.rechopped(this.carry, this.cols);
    // Lay out: carry rows, then newly committed rows, then the live rows.
    const want = this.want;
    const W = this.cols;
    const commits = this.pendingCommits;
    this.pendingCommits = [];
    let live = this.live;
    const maxLive = Math.max(1, this.rows - 1);
    if (live.length > maxLive) {
      this.log(`live zone of ${live.length} rows clipped to ${maxLive} (viewport ${this.rows} rows): commit finished rows sooner`);
      live = live.slice(live.length - maxLive);
    }
    const carried = this.carry.height;
    const committed = carried + commits.length;
    const laid = committed + live.length;
    want.ensure(laid + 1);
    want.height = laid;
    for (let y = 0; y < carried; y++) want.copyRowFrom(this.carry, y, y);
    let y = carried;
    for (const row of commits) this.layRow(want, y++, row, W);
    for (const row of live) this.layRow(want, y++, row, W);
    let cursorRow = this.cursor ? committed + Math.max(0, this.cursor.row - (this.live.length - live.length)) : -1;
    // Rows the terminal already holds just above the zone are not drawn again.
    const held = this.stranded.match(want, committed, cursorRow);
    if (held.abandoned > 0) this.log(`${held.abandoned} stranded rows differ from the history committed after them: they stay in scrollback`);
    want.dropTop(held.skip);
    const nCommit = held.commits;
    const total = want.height;
    if (cursorRow >= 0) cursorRow = held.cursorRow;
    const liveShown = total - nCommit;
    // The line the live zone continues stays in the zone until it is finished.
    let drop = nCommit;
    if (liveShown > 0 && want.soft[nCommit] === 1 && nCommit > 0) {
      let g = nCommit - 1;
      while (g > 0 && want.soft[g] === 1) g--;
      drop = g;
    }
    const overflow = nCommit - drop + liveShown - maxLive;
    if (overflow > 0) drop += overflow; // a line taller than the screen: commit its top, break it there
    const cellCursor = cursorRow >= 0 && cursorRow < total && this.drawsCursorCell(cursorRow, Math.min(W - 1, Math.max(0, this.cursor!.col)), drop);
    const t1 = performance.now();
    p.cellsChanged = 0;
    p.paint(want, { wraps: true, eraseBelow: true, dropTop: drop, viewRows: this.rows });
    // Keep the rows that stayed in the zone as the new carry.
    const keep = nCommit - drop;
    if (this.carry.cols !== W) this.carry = new CellBuffer(W, keep + 1);
    this.carry.reset(W);
    this.carry.ensure(keep + 1);
    for (let i = 0; i < keep; i++) this.carry.copyRowFrom(want, drop + i, i);
    this.carry.height = keep;
    // Cursor: shown where the app wants it (IME and screen readers follow it), hidden otherwise.
    let tail = "";
    if (this.cursor && !cellCursor) {
      p.placeCursor(cursorRow - drop, this.cursor.col);
      if (!this.cursorShown) { tail = "\x1b[?25h"; this.cursorShown = true; }
    } else if (this.cursorShown) {
      pre = "\x1b[?25l" + pre;
      this.cursorShown = false;
    }
    // With no cursor to show, the hidden one waits on the zone's top row: a shorter window then
    // drops the zone's rows below it (xterm.js, tmux) instead of pushing the rows above it into
    // scrollback, where they could never be erased.
    if (!this.cursor) p.placeCursor(0, 0);
    this.cellCursor = cellCursor;
    if (cellCursor) this.armSettle();
    const body = pre + p.take() + tail;
    const t2 = performance.now();
    const stats: FrameStats = {
      frame: this.stats.frames + 1,
      bytes: 0,
      cellsChanged: p.cellsChanged,
      buildMs: t1 - t0,
      diffMs: t2 - t1,
      repaint,
      cursor: this.cursor ? (cellCursor ? "cell" : "hardware") : null,
    };
    if (repaint) this.log(`full repaint: ${repaint}`);
    this.emit(body, stats);
    return stats;
  }

  /**
   * Whether this frame shows the cursor as an inverted cell (see CursorStyle); when it does, the
   * cell is drawn into `want` here.
   */
  private drawsCursorCell(y: number, x: number, drop: number): boolean {
    const mode = this.opts.caps.colorDepth === "plain" ? "hardware" : (this.opts.cursorStyle ?? "hardware");
    if (mode === "hardware") return false;
    if (mode === "cell") return this.invertCell(y, x);
    if (this.settled) { this.settled = false; return false; }
    const p = this.painter;
    const want = this.want;
    // Anything but the cursor's row changes (or rows become history): the cursor would have to
    // travel there and back. A frame that changes only the cursor's row is typing.
    let others = drop > 0 || want.height !== p.term.height;
    for (let y2 = 0; !others && y2 < want.height; y2++) others = y2 !== y && !want.rowEquals(y2, p.term, y2);
    if (others) return this.invertCell(y, x);
    // Nothing changed at all (the cell cursor already shows, in the same place): keep it, so a
    // pause in a stream does not flip the cursor back and forth.
    if (!this.cellCursor) return false;
    const W = want.cols;
    const o = y * W;
    const saved = { style: want.style.slice(o, o + W), len: want.len[y] ?? 0, ext: want.ext[y] ?? 0 };
    if (this.invertCell(y, x) && want.rowEquals(y, p.term, y)) return true;
    want.style.set(saved.style, o);
    want.len[y] = saved.len;
    want.ext[y] = saved.ext;
    return false;
  }

  /** Draws the cursor into row y of `want` at column x: the cell (or the wide grapheme covering it) inverted. */
  private invertCell(y: number, x: number): boolean {
    const buf = this.want;
    const W = buf.cols;
    if (buf.width[y * W + x] === 0 && x > 0) x--;
    const i = y * W + x;
    const inv = this.styles.inverted(buf.style[i] ?? 0);
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
    if (this.opts.cursorStyle !== "auto" || this.opts.schedule === false || this.disposed) return;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = setTimeout(() => {
      this.settleTimer = null;
      if (!this.cellCursor || this.full) return;
      this.settled = true;
      this.invalidateSoon();
    }, this.opts.cursorSettleMs ?? 150);
  }

  /**
   * The cursor's row on the screen the painter last drew on, from the rows known below the zone.
   * Where that is not known (the zone started higher up), it is taken lower than it is, which can
   * only leave a stranded row unnoticed (drawn twice), never erase one of history.
   */
  private cursorScreenRow(): number {
    const p = this.painter;
    return Math.max(p.cy, Math.min(this.paintedRows - 1, this.paintedRows - p.rowsBelow - p.extent + p.cy));
  }

  private rechopped(src: CellBuffer, cols: number): CellBuffer {
    const dst = new CellBuffer(cols, Math.max(8, src.height * 2));
    rechopRows(src, src.height, dst);
    return dst;
  }

  private layRow(buf: CellBuffer, y: number, row: Row, W: number): void {
    if (!writeRow(buf, y, row, this.graphemes, this.styles)) {
      const text = row.spans.map((s) => s.text).join("");
      this.log(`row wider than the screen (${W} cols), clipped: ${JSON.stringify(text.slice(0, 80))}`);
    }
  }

  private frameFull(state: FullViewState): FrameStats | null {
    if (!state.dirty && state.opened && state.cols === this.cols && state.height === this.rows) return null;
    state.dirty = false;
    const t0 = performance.now();
    let pre = "";
    const fp = state.painter;
    let repaint: string | null = null;
    if (!state.opened) {
      state.opened = true;
      // Enter with a plain pen (DECSC saves it; terminals differ on restoring it, so close resets too).
      pre += this.styles.transition(this.painter.pen, 0) + "\x1b[?1049h\x1b[H";
      this.painter.pen = 0;
      fp.reset(this.cols);
      fp.extent = this.rows;
      repaint = "full view opened";
    } else if (state.cols !== this.cols || state.height !== this.rows) {
      pre += this.styles.transition(fp.pen, 0) + "\x1b[H\x1b[J";
      fp.pen = 0;
      fp.reset(this.cols);
      fp.extent = this.rows;
      repaint = "full view resized";
    }
    state.cols = this.cols;
    state.height = this.rows;
    const want = state.want;
    if (want.cols !== this.cols) want.reset(this.cols);
    want.ensure(this.rows + 1);
    const n = Math.min(this.rows, state.rows.length);
    for (let y = 0; y < this.rows; y++) {
      const row = state.rows[y];
      if (y < n && row) this.layRow(want, y, { spans: row.spans }, this.cols);
      else want.clearRow(y);
    }
    want.height = this.rows;
    const t1 = performance.now();
    fp.cellsChanged = 0;
    fp.paint(want, { wraps: false, eraseBelow: false, dropTop: 0 });
    let tail = "";
    if (state.cursor) {
      fp.placeCursor(state.cursor.row, state.cursor.col);
      if (!this.cursorShown) { tail = "\x1b[?25h"; this.cursorShown = true; }
    } else if (this.cursorShown) {
      pre = "\x1b[?25l" + pre;
      this.cursorShown = false;
    }
    const body = pre + fp.take() + tail;
    const stats: FrameStats = { frame: this.stats.frames + 1, bytes: 0, cellsChanged: fp.cellsChanged, buildMs: t1 - t0, diffMs: performance.now() - t1, repaint };
    this.emit(body, stats);
    return stats;
  }

  /** One write() per frame, wrapped in synchronized output when the terminal has it. */
  private emit(body: string, stats: FrameStats | null): void {
    if (body.length === 0) {
      if (stats) { this.stats.frames++; this.stats.last = stats; }
      return;
    }
    // A small frame reaches the terminal in one read and cannot tear: the 16 bytes of DEC 2026
    // would more than double a keystroke's echo. Anything larger is wrapped.
    const data = this.opts.caps.syncOutput && body.length > (this.opts.syncMinBytes ?? 64) ? SYNC_BEGIN + body + SYNC_END : body;
    if (this.writeLog) {
      try { appendFileSync(this.writeLog, data); } catch { /* debugging aid only */ }
    }
    const ok = this.opts.output.write(data);
    this.lastFrameAt = performance.now();
    const bytes = Buffer.byteLength(data);
    this.stats.bytes += bytes;
    if (stats) {
      stats.bytes = bytes;
      this.stats.frames++;
      if (stats.repaint) this.stats.fullRepaints++;
      this.stats.last = stats;
    }
    if (!ok && this.opts.output.once) {
      // stdout is backed up: no frame until it drains, then the latest state only; space frames out.
      this.waitingDrain = true;
      this.interval = Math.min(250, this.interval * 2);
      this.opts.output.once("drain", () => {
        this.waitingDrain = false;
        if (this.dirty || (this.full && this.full.dirty)) this.schedule();
      });
    } else if (this.interval > this.baseInterval) {
      this.interval = Math.max(this.baseInterval, Math.floor(this.interval * 0.75));
    }
  }

  private schedule(): void {
    if (this.opts.schedule === false || this.disposed) return;
    if (this.timer || this.waitingDrain) return;
    const delay = Math.max(0, this.lastFrameAt + this.interval - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.frame();
    }, delay);
  }

  private log(line: string): void {
    this.opts.log?.(line);
    const file = process.env.KHAELOR_RENDER_LOG;
    if (file) {
      try { appendFileSync(file, `${new Date().toISOString()} ${line}\n`); } catch { /* debugging aid only */ }
    }
  }

  debugZone(): { cursorRow: number; carryRows: number; liveRows: number } {
    return { cursorRow: this.painter.cy, carryRows: this.carry.height, liveRows: Math.min(this.live.length, Math.max(1, this.rows - 1)) };
  }

  dispose(): void {
    this.disposed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.settleTimer) clearTimeout(this.settleTimer);
    this.settleTimer = null;
  }
}

type FullViewState = {
  painter: ZonePainter;
  want: CellBuffer;
  rows: Row[];
  cursor: Cursor | null;
  dirty: boolean;
  opened: boolean;
  cols: number;
  height: number;
  mainCols: number;
};
