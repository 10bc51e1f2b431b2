// After the window changed size: where the live zone now is, and erasing it so the next frame
// draws it again from its top.
//
// The terminal has already re-wrapped the screen (reflow) when we hear of the resize, and we only
// ever move the cursor relatively: what matters is how far above the cursor the zone's top row now
// is (zoneTopAfterReflow) and how many of those rows the screen still shows. The cursor stays on
// screen; rows of the zone above the screen's top went into scrollback for good (stranded.ts).
// A shorter window makes xterm.js (VS Code's terminal) and tmux drop the lines below the cursor,
// blank or not, so rows of the zone under the cursor (the status line under the composer) may be
// gone; other terminals keep them. Either way, redrawing the zone leaves no doubt.
import type { ZonePainter } from "../render/paint.ts";
import { zoneTopAfterReflow } from "../render/reflow.ts";
import type { StrandedRows } from "../render/stranded.ts";
import type { StyleTable } from "../render/styles.ts";

export type Resized = {
  /** The width the terminal had (the painter's model may be older, see the full view). */
  from: number;
  cols: number;
  rows: number;
  /** The viewport's height the painter's last frame was drawn for. */
  paintedRows: number;
  heightChanged: boolean;
};

/**
 * Brings the painter's model in line with the resized terminal. Returns the bytes that erase the
 * zone (to go before the frame) and why, or null when the zone is where the model has it.
 */
export function reanchorZone(p: ZonePainter, styles: StyleTable, stranded: StrandedRows, r: Resized): { bytes: string; repaint: string } | null {
  const widthChanged = r.from !== r.cols || p.cols !== r.cols;
  stranded.rewrap(r.cols);
  const below = r.heightChanged && p.cy < p.extent - 1;
  const up = zoneTopAfterReflow(p, r.cols);
  // The cursor's screen row: a shorter window keeps it (dropping the lines below it) unless it
  // no longer fits; re-wrapping keeps it too, scrolling lines into scrollback or back. The zone
  // rows that end above the screen's top are out of reach for good: remembered (stranded) so
  // they are not drawn a second time.
  const cursorY = Math.min(cursorScreenRow(p, r.paintedRows), r.rows - 1);
  const gone = Math.max(0, up - cursorY);
  if (widthChanged || below || gone > 0) {
    if (gone > 0) stranded.strand(p, gone, r.cols);
    const repaint = widthChanged
      ? `resize ${r.from}→${r.cols} cols (live zone top was ${up} rows above the cursor${gone > 0 ? `, ${gone} of them now in scrollback` : ""})`
      : gone > 0
        ? `resize to ${r.rows} rows pushed ${gone} live rows into scrollback`
        : `resize to ${r.rows} rows with ${p.extent - 1 - p.cy} live rows below the cursor`;
    let bytes = p.take();
    if (styles.hasLink(p.pen) || !styles.erasesClean(p.pen)) { bytes += styles.transition(p.pen, 0); p.pen = 0; }
    const reach = up - gone;
    bytes += (reach > 0 ? (reach === 1 ? "\x1b[A" : `\x1b[${reach}A`) : reach < 0 ? (reach === -1 ? "\x1b[B" : `\x1b[${-reach}B`) : "") + "\r\x1b[J";
    p.reset(r.cols);
    p.rowsBelow = r.rows - 1 - Math.max(0, cursorY - reach);
    // History has been reflowed by the terminal, or the row above the zone is out of reach:
    // never join onto it again.
    if (widthChanged || gone > 0) p.above = null;
    return { bytes, repaint };
  }
  if (r.heightChanged) {
    // Rows below the cursor go first when the window gets shorter; a taller one adds rows
    // below only if there were some (otherwise xterm.js brings scrollback lines down).
    if (r.rows < r.paintedRows) p.rowsBelow = Math.max(0, p.rowsBelow - (r.paintedRows - r.rows));
    else if (p.rowsBelow > 0) p.rowsBelow += r.rows - r.paintedRows;
  }
  return null;
}

/**
 * The cursor's row on the screen the painter last drew on, from the rows known below the zone.
 * Where that is not known (the zone started higher up), it is taken lower than it is, which can
 * only leave a stranded row unnoticed (drawn twice), never erase one of history.
 */
function cursorScreenRow(p: ZonePainter, rows: number): number {
  return Math.max(p.cy, Math.min(rows - 1, rows - p.rowsBelow - p.extent + p.cy));
}
