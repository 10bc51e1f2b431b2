// The full-screen view (the transcript pager) on the alternate screen: rows drawn from the top of
// the screen, diffed like the live zone but with no soft wraps and nothing becoming history.
// Entering saves the main screen (1049h); leaving brings it back exactly as it was (1049l).
import { CellBuffer } from "../render/cells.ts";
import type { GraphemeTable } from "../render/graphemes.ts";
import { ZonePainter } from "../render/paint.ts";
import type { Row } from "../render/style.ts";
import type { StyleTable } from "../render/styles.ts";
import type { Cursor, FrameStats } from "./types.ts";
import type { FrameOutput } from "./output.ts";
import type { LayRow } from "./zone.ts";

export class AltScreenView {
  private readonly painter: ZonePainter;
  private readonly want: CellBuffer;
  private rows: Row[] = [];
  private cursor: Cursor | null = null;
  /** Something changed since the last frame of the view. */
  dirty = true;
  private opened = false;
  /** The size the view was last drawn at. */
  private cols: number;
  private height: number;

  constructor(cols: number, rows: number, graphemes: GraphemeTable, private readonly styles: StyleTable, private readonly lay: LayRow) {
    this.painter = new ZonePainter(cols, graphemes, styles);
    this.want = new CellBuffer(cols, rows);
    this.cols = cols;
    this.height = rows;
  }

  /** Replaces the content (rows past the screen's height are ignored). */
  draw(rows: Row[], cursor: Cursor | null): void {
    this.rows = rows;
    this.cursor = cursor;
    this.dirty = true;
  }

  /** Draws the view at `cols`×`rows` if anything changed; `main` is the main screen's painter. */
  frame(cols: number, rows: number, main: ZonePainter, output: FrameOutput): FrameStats | null {
    if (!this.dirty && this.opened && this.cols === cols && this.height === rows) return null;
    this.dirty = false;
    const t0 = performance.now();
    let pre = "";
    const fp = this.painter;
    let repaint: string | null = null;
    if (!this.opened) {
      this.opened = true;
      // Enter with a plain pen (DECSC saves it; terminals differ on restoring it, so leave() resets too).
      pre += this.styles.transition(main.pen, 0) + "\x1b[?1049h\x1b[H";
      main.pen = 0;
      fp.reset(cols);
      fp.extent = rows;
      repaint = "full view opened";
    } else if (this.cols !== cols || this.height !== rows) {
      pre += this.styles.transition(fp.pen, 0) + "\x1b[H\x1b[J";
      fp.pen = 0;
      fp.reset(cols);
      fp.extent = rows;
      repaint = "full view resized";
    }
    this.cols = cols;
    this.height = rows;
    const want = this.want;
    if (want.cols !== cols) want.reset(cols);
    want.ensure(rows + 1);
    const n = Math.min(rows, this.rows.length);
    for (let y = 0; y < rows; y++) {
      const row = this.rows[y];
      if (y < n && row) this.lay(want, y, { spans: row.spans });
      else want.clearRow(y);
    }
    want.height = rows;
    const t1 = performance.now();
    fp.cellsChanged = 0;
    fp.paint(want, { wraps: false, eraseBelow: false, dropTop: 0 });
    if (this.cursor) fp.placeCursor(this.cursor.row, this.cursor.col);
    const shown = output.cursor(this.cursor !== null);
    const body = shown.before + pre + fp.take() + shown.after;
    const stats: FrameStats = { frame: output.stats.frames + 1, bytes: 0, cellsChanged: fp.cellsChanged, buildMs: t1 - t0, diffMs: performance.now() - t1, repaint };
    output.emit(body, stats);
    return stats;
  }

  /**
   * The bytes that leave the alternate screen (null if it was never entered); `main`, the main
   * screen's painter, is told where 1049l leaves the cursor and pen.
   */
  leave(main: ZonePainter): string | null {
    if (!this.opened) return null;
    // 1049l restores the main screen and the cursor (and pen) saved on entry.
    // Whether the restored cursor is still "pending wrap" at the last column differs between
    // terminals (xterm.js drops it): CR puts it somewhere certain.
    const bytes = this.styles.transition(this.painter.pen, 0) + "\x1b[?1049l\x1b[m\r";
    main.pen = 0;
    main.cx = 0;
    main.pending = false;
    return bytes;
  }
}
