// What the live zone holds in a frame, top to bottom: committed rows still in it (the "carry"),
// rows committed since the last frame, then the live rows. The painter draws them all; the top
// `drop` rows then become history, written once. Committing rows the zone already shows thus
// costs nothing: the zone's top moves down past them. A committed line that the first live row
// continues (a soft row) stays in the zone until it is finished, so the terminal can record the
// soft wrap; a line taller than the screen is broken where it overflows, its top committed.
import { CellBuffer, writeRow } from "../render/cells.ts";
import type { GraphemeTable } from "../render/graphemes.ts";
import { rechopped } from "../render/reflow.ts";
import { RowCache } from "../render/row-cache.ts";
import type { StrandedRows } from "../render/stranded.ts";
import type { Row } from "../render/style.ts";
import type { StyleTable } from "../render/styles.ts";
import type { Cursor } from "./types.ts";

/** How a frame's rows in `want` divide up. */
export type ZonePlan = {
  /** Committed rows at the top of `want` (the carry first). */
  commits: number;
  /** The cursor's row in `want` (-1: no cursor). */
  cursorRow: number;
  /** Rows at the top of `want` that become history after the paint. */
  drop: number;
};

/** Lays one row into `buf`; a row wider than the screen is clipped, and said so in the log. */
export type LayRow = (buf: CellBuffer, y: number, row: Row) => void;

export function rowLayer(graphemes: GraphemeTable, styles: StyleTable, log: (line: string) => void): LayRow {
  return (buf, y, row) => {
    if (!writeRow(buf, y, row, graphemes, styles)) {
      const text = row.spans.map((s) => s.text).join("");
      log(`row wider than the screen (${buf.cols} cols), clipped: ${JSON.stringify(text.slice(0, 80))}`);
    }
  };
}

export class ZoneContent {
  private carry: CellBuffer;
  private pending: Row[] = [];
  private live: Row[] = [];
  /** The status line and settled rows come back as the same Rows frame after frame. */
  private readonly laid: RowCache;
  /** Where the app wants the cursor, in `live`. */
  cursor: Cursor | null = null;

  constructor(cols: number, private readonly lay: LayRow, private readonly log: (line: string) => void) {
    this.carry = new CellBuffer(cols, 8);
    this.laid = new RowCache(cols, lay);
  }

  commit(rows: Row[]): void {
    for (const r of rows) this.pending.push(r);
  }

  setLive(rows: Row[], cursor: Cursor | null): void {
    this.live = rows;
    this.cursor = cursor;
  }

  /**
   * The window's width changes from `cols`: committed rows not yet written were laid out at that
   * width and cannot be laid out again by the app. They are kept as cells, to be re-wrapped at the
   * new width as the terminal would.
   */
  keepPending(cols: number): void {
    if (this.pending.length === 0) return;
    if (this.carry.cols !== cols) this.carry = rechopped(this.carry, cols);
    this.carry.ensure(this.carry.height + this.pending.length + 1);
    for (const row of this.pending) this.lay(this.carry, this.carry.height++, row);
    this.pending = [];
  }

  /**
   * Lays out the frame into `want` at `cols` for a viewport `rows` tall, leaving out the rows the
   * terminal already holds just above the zone (`stranded`).
   */
  layout(want: CellBuffer, cols: number, rows: number, stranded: StrandedRows): ZonePlan {
    if (this.carry.cols !== cols) this.carry = rechopped(this.carry, cols);
    const commits = this.pending;
    this.pending = [];
    let live = this.live;
    const maxLive = Math.max(1, rows - 1);
    if (live.length > maxLive) {
      this.log(`live zone of ${live.length} rows clipped to ${maxLive} (viewport ${rows} rows): commit finished rows sooner`);
      live = live.slice(live.length - maxLive);
    }
    const carried = this.carry.height;
    const committed = carried + commits.length;
    const laid = committed + live.length;
    want.ensure(laid + 1);
    want.height = laid;
    for (let y = 0; y < carried; y++) want.copyRowFrom(this.carry, y, y);
    this.laid.layFrame(want, carried, [commits, live]);
    const cursorRow = this.cursor ? committed + Math.max(0, this.cursor.row - (this.live.length - live.length)) : -1;
    // Rows the terminal already holds just above the zone are not drawn again.
    const held = stranded.match(want, committed, cursorRow);
    if (held.abandoned > 0) this.log(`${held.abandoned} stranded rows differ from the history committed after them: they stay in scrollback`);
    want.dropTop(held.skip);
    const nCommit = held.commits;
    const liveShown = want.height - nCommit;
    // The line the live zone continues stays in the zone until it is finished.
    let drop = nCommit;
    if (liveShown > 0 && want.soft[nCommit] === 1 && nCommit > 0) {
      let g = nCommit - 1;
      while (g > 0 && want.soft[g] === 1) g--;
      drop = g;
    }
    const overflow = nCommit - drop + liveShown - maxLive;
    if (overflow > 0) drop += overflow; // a line taller than the screen: commit its top, break it there
    return { commits: nCommit, cursorRow: cursorRow >= 0 ? held.cursorRow : -1, drop };
  }

  /** After the paint: the committed rows that stayed in the zone are the new carry. */
  keep(want: CellBuffer, plan: ZonePlan): void {
    const keep = plan.commits - plan.drop;
    const W = want.cols;
    if (this.carry.cols !== W) this.carry = new CellBuffer(W, keep + 1);
    this.carry.reset(W);
    this.carry.ensure(keep + 1);
    for (let i = 0; i < keep; i++) this.carry.copyRowFrom(want, plan.drop + i, i);
    this.carry.height = keep;
  }

  /** For debugZone: committed rows in the zone, and the live rows it shows in a viewport `rows` tall. */
  shape(rows: number): { carryRows: number; liveRows: number } {
    return { carryRows: this.carry.height, liveRows: Math.min(this.live.length, Math.max(1, rows - 1)) };
  }
}
