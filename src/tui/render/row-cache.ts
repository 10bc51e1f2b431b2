// Most of a frame's rows are the ones the last frame laid out: the app hands back the same Row
// objects for the status line and for settled rows, and only the streaming tail is new. Laying a
// row out segments its text into graphemes; copying its cells from the last frame is three memcpys.
// A row's cells depend only on the Row and the width (grapheme and style ids are never reused), so
// identity is the key: Rows, their spans and styles are never changed once handed to the screen
// (the style table already keys on style identity). Only the last frame's rows are kept.
import { CellBuffer } from "./cells.ts";
import type { Row } from "./style.ts";

export type LayOne = (buf: CellBuffer, y: number, row: Row) => void;

export class RowCache {
  /** The last frame's rows: each Row's index in `cells`. */
  private index = new Map<Row, number>();
  private cells: CellBuffer;
  /** Filled during a frame, then swapped with the above. */
  private nextIndex = new Map<Row, number>();
  private next: CellBuffer;
  /** For tests and benches: rows copied rather than laid out. */
  hits = 0;

  constructor(cols: number, private readonly lay: LayOne) {
    this.cells = new CellBuffer(cols, 8);
    this.next = new CellBuffer(cols, 8);
  }

  /** Lays `groups` into `buf` one after another from row `y`; they are the rows remembered for the next frame. */
  layFrame(buf: CellBuffer, y: number, groups: readonly (readonly Row[])[]): void {
    const cols = buf.cols;
    const old = this.cells.cols === cols ? this.index : null;
    let n = 0;
    for (const g of groups) n += g.length;
    const next = this.next;
    if (next.cols !== cols) next.reset(cols);
    next.ensure(n + 1);
    const nextIndex = this.nextIndex;
    nextIndex.clear();
    let i = 0;
    for (const g of groups) {
      for (const row of g) {
        const j = old?.get(row);
        if (j === undefined) this.lay(buf, y, row);
        else {
          buf.copyRowFrom(this.cells, j, y);
          this.hits++;
        }
        next.copyRowFrom(buf, y, i);
        nextIndex.set(row, i);
        y++;
        i++;
      }
    }
    next.height = i;
    this.next = this.cells;
    this.nextIndex = this.index;
    this.cells = next;
    this.index = nextIndex;
  }
}
