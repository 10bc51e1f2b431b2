// Rows of the live zone that a resize pushed into the terminal's scrollback.
//
// The terminal keeps its cursor on screen when the window changes. A shorter window drops the
// lines below the cursor first (xterm.js, tmux) and then pushes the top lines into scrollback; a
// narrower one re-wraps the zone taller and pushes the top lines the same way. When the zone had
// more rows above the cursor than the new screen has, its top rows are now out of reach: no
// cursor move gets there and no erase removes them. They sit just above the zone, where the next
// history would go, so the screen remembers them here and skips the rows it is about to draw
// (history first) that are the same ones: what the terminal holds is then read once, in order.
//
// The last line among them may have been cut where the screen's top was (its rows below were on
// screen and erased). If the terminal re-wraps it at another width before it is matched, its rows
// no longer line up with rows laid out at the new width: it is compared cell by cell as a prefix
// of the line, and only the rest of that line is drawn (as a line of its own: a soft wrap cannot
// reach back into scrollback).
import { CellBuffer } from "./cells.ts";
import { rechopped, zoneRowsAfterReflow, type ZoneShape } from "./reflow.ts";

export type StrandedMatch = {
  /** Rows to drop from the top of `want`: the terminal already shows them. */
  skip: number;
  /** Committed rows still to draw (after the skip), and the cursor's row (-1: none). */
  commits: number;
  cursorRow: number;
  /** The stranded rows turned out to differ from committed history: they stay as they are. */
  abandoned: number;
};

export class StrandedRows {
  private rows: CellBuffer;

  constructor(cols: number) {
    this.rows = new CellBuffer(cols, 8);
  }

  get count(): number {
    return this.rows.height;
  }

  /** The zone's top `n` rows after the terminal re-wrapped it (or not) at `cols`, which it pushed out of reach. */
  strand(zone: ZoneShape, n: number, cols: number): void {
    const f = this.rows;
    if (cols !== zone.cols) {
      zoneRowsAfterReflow(zone, n, f);
      return;
    }
    f.ensure(f.height + n + 1);
    for (let y = 0; y < n; y++) {
      f.copyRowFrom(zone.term, y, f.height);
      f.soft[f.height++] = zone.wrapped[y] ?? 0;
    }
  }

  /** The terminal re-wraps scrollback at a new width. Rows that continue a line of history cannot be followed there: forgotten. */
  rewrap(cols: number): void {
    const f = this.rows;
    if (f.cols === cols) return;
    this.rows = f.height > 0 && f.soft[0] !== 1 ? rechopped(f, cols) : new CellBuffer(cols, 8);
  }

  /**
   * Matches the top rows of `want` (`commits` committed rows, then live rows) against the stranded
   * rows. Committed rows found there are history now; live rows found there are not drawn again
   * but stay stranded (until committed or changed). Never the cursor's row or those below it.
   * A committed row that differs ends it: the stranded rows stay in scrollback as they are.
   * `want` is changed in place when a cut line's rest is laid out again.
   */
  match(want: CellBuffer, commits: number, cursorRow: number): StrandedMatch {
    const f = this.rows;
    const same: StrandedMatch = { skip: 0, commits, cursorRow, abandoned: 0 };
    if (f.height === 0) return same;
    const limit = cursorRow >= 0 ? cursorRow : want.height;
    const n = Math.min(f.height, want.height, limit);
    let k = 0;
    while (k < n && want.rowEquals(k, f, k)) k++;
    if (k < n) {
      const cut = this.matchCutLine(want, k, commits, limit);
      if (cut) {
        const { start, delta } = cut;
        if (start < commits) this.rows.reset(f.cols);
        else f.dropTop(Math.min(start, commits));
        return { skip: start, commits: Math.max(0, commits + (start < commits ? delta : 0) - start), cursorRow: cursorRow >= 0 ? cursorRow + delta - start : -1, abandoned: 0 };
      }
    }
    if (k < commits && k < f.height) {
      const abandoned = f.height - k;
      this.rows.reset(f.cols);
      return { skip: k, commits: commits - k, cursorRow: cursorRow >= 0 ? cursorRow - k : -1, abandoned };
    }
    f.dropTop(Math.min(k, commits));
    return { skip: k, commits: Math.max(0, commits - k), cursorRow: cursorRow >= 0 ? cursorRow - k : -1, abandoned: 0 };
  }

  /**
   * The stranded rows' last line, from its first row `start` (rows before it matched), as a
   * prefix of the line `want` has there: its rows in `want` are replaced by the rest, laid out
   * as a line of its own. Null when it is not one, or the line holds the cursor or straddles
   * committed and live rows.
   */
  private matchCutLine(want: CellBuffer, k: number, commits: number, limit: number): { start: number; delta: number } | null {
    const f = this.rows;
    let start = k;
    while (start > 0 && f.soft[start] === 1) start--;
    if (start > 0 && want.soft[start] === 1) return null;
    let end = start; // the line's last row in want
    while (end + 1 < want.height && want.soft[end + 1] === 1) end++;
    if (end >= limit || (start < commits && end >= commits)) return null;
    // The stranded rows from `start` on may be several lines: a line cut at the screen's top
    // whose rest was then drawn (and cut again) as a line of its own.
    const had = flatten(f, start, f.height);
    const line = flatten(want, start, end + 1);
    let i = 0, j = 0;
    while (i < had.cells.length) {
      const c = i / 3;
      if (j < line.cells.length && had.cells[i] === line.cells[j] && had.cells[i + 1] === line.cells[j + 1] && had.cells[i + 2] === line.cells[j + 2]) {
        i += 3;
        j += 3;
      } else if (had.slack[c] === SLACK) i += 3;
      else if (had.slack[c] === LINE_START && j < line.cells.length && line.cells[j] === 0x20 && line.cells[j + 1] === 0) j += 3; // a blank the cut line's end dropped
      else return null;
    }
    // The rest of the line, re-chopped at the width as rows of its own.
    const rest = new CellBuffer(want.cols, 4);
    const cells = restOf(want, start, end + 1, j / 3);
    if (cells.length > 0) chop(cells, rest);
    const delta = rest.height - (end + 1 - start);
    const tail = new CellBuffer(want.cols, Math.max(1, want.height - end));
    for (let y = end + 1; y < want.height; y++) tail.copyRowFrom(want, y, tail.height++);
    want.ensure(start + rest.height + tail.height + 1);
    for (let y = 0; y < rest.height; y++) want.copyRowFrom(rest, y, start + y);
    for (let y = 0; y < tail.height; y++) want.copyRowFrom(tail, y, start + rest.height + y);
    want.height = start + rest.height + tail.height;
    return { start, delta };
  }
}

/** Flattened cells that may be skipped: blanks ending a row, a new line's first cell. */
const SLACK = 1;
const LINE_START = 2;

/**
 * The cells (glyph, style, width triples) rows [a, b) cover, as the terminal joins them, with
 * what each may be: blanks ending a continued row may be padding the terminal added (xterm.js pads
 * the cursor's line when the window gets wider) rather than content; a line ends without its
 * trailing blanks.
 */
function flatten(buf: CellBuffer, a: number, b: number): { cells: number[]; slack: number[] } {
  const cells: number[] = [];
  const slack: number[] = [];
  const W = buf.cols;
  for (let y = a; y < b; y++) {
    const continued = y + 1 < b && buf.soft[y + 1] === 1;
    const content = buf.len[y] ?? 0;
    const n = continued ? (buf.ext[y] ?? 0) : content;
    const starts = y > a && buf.soft[y] !== 1;
    for (let x = 0; x < n; x++) {
      const i = y * W + x;
      cells.push(buf.glyph[i] ?? 0x20, buf.style[i] ?? 0, buf.width[i] ?? 1);
      slack.push(x >= content ? SLACK : x === 0 && starts ? LINE_START : 0);
    }
  }
  return { cells, slack };
}

/** The line's cells after the first `skip`, without trailing blanks. */
function restOf(buf: CellBuffer, a: number, b: number, skip: number): number[] {
  const out: number[] = [];
  const W = buf.cols;
  let i = 0;
  for (let y = a; y < b; y++) {
    const n = y === b - 1 ? (buf.len[y] ?? 0) : (buf.ext[y] ?? 0);
    for (let x = 0; x < n; x++, i++) {
      if (i < skip) continue;
      const c = y * W + x;
      out.push(buf.glyph[c] ?? 0x20, buf.style[c] ?? 0, buf.width[c] ?? 1);
    }
  }
  while (out.length > 0 && out[out.length - 3] === 0x20 && out[out.length - 2] === 0 && out[out.length - 1] === 1) out.length -= 3;
  return out;
}

/** Lays flattened cells out as rows of `dst` (a first row, then soft ones), wide graphemes never split. */
function chop(cells: number[], dst: CellBuffer): void {
  const W = dst.cols;
  const n = cells.length / 3;
  let pos = 0;
  do {
    let end = Math.min(pos + W, n);
    if (end < n && cells[(end - 1) * 3 + 2] === 2) end--;
    const y = dst.height++;
    dst.ensure(dst.height + 1);
    dst.clearRow(y);
    let last = 0;
    for (let x = 0; x < end - pos; x++) {
      const i = y * W + x, c = (pos + x) * 3;
      dst.glyph[i] = cells[c]!; dst.style[i] = cells[c + 1]!; dst.width[i] = cells[c + 2]!;
      if (dst.glyph[i] !== 0x20 || dst.style[i] !== 0) last = x + (dst.width[i] === 2 ? 2 : 1);
    }
    dst.len[y] = last;
    dst.ext[y] = end - pos;
    dst.soft[y] = pos === 0 ? 0 : 1;
    pos = end;
  } while (pos < n);
}
