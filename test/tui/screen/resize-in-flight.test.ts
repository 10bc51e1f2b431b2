// The limit: a frame still in flight (written, not yet parsed) when the terminal resizes.
//
// xterm.js applies a resize at once and parses queued output after it; a terminal reading our
// bytes from a pty does the same with whatever it has not read yet. The frame was laid out for
// the old size and lands on the re-wrapped screen. When we hear of the resize we cannot tell
// whether the terminal parsed that frame before or after re-wrapping: nothing comes back from the
// terminal on this path. Below, the two orders leave the terminal's cursor on the same cell of a
// screen of the same size, but the row above the zone is history in one order and a stale row of
// the zone in the other. Whatever bytes we write act on that row alike in both: keeping it
// doubles a line in one order, erasing or overwriting it loses one in the other. A cursor
// position report (ESC [ 6 n) cannot tell the orders apart either: the cursor is on the same cell.
// Only the terminal saying at which size it parsed the frame could: a size report (CSI 18 t) sent
// with each frame and read back by the input side, where the terminal answers it (xterm.js only
// with its windowOptions.getWinSizeChars option set).
import { describe, expect, test } from "bun:test";
import type { Row } from "../../../src/tui/render/style.ts";
import { createScreen, type CursorStyle } from "../../../src/tui/screen/screen.ts";
import { layoutLine } from "../support/model.ts";
import { createTestTerminal } from "../support/terminal.ts";

const FOOTER: Row[] = [{ spans: [] }, { spans: [{ text: "> ask" }] }, { spans: [{ text: "STATUS" }] }];

type Case = { cols: number; rows: number; style: CursorStyle; words: string[]; extra: string; toCols: number };

/**
 * History h0..h{rows+1}, then a paragraph streamed word by word above a composer and status
 * line. The frame adding `extra` is written; the terminal resizes to `toCols` either after parsing
 * it or before. Then the screen hears of the resize, the paragraph ends and is committed.
 */
async function run(c: Case, parsedFirst: boolean) {
  let cols = c.cols;
  const t = createTestTerminal({ cols, rows: c.rows });
  const history = Array.from({ length: c.rows + 2 }, (_, i) => `h${i}`);
  for (const h of history) await t.write(`${h}\r\n`);
  let out = "";
  const screen = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "plain", syncOutput: false }, cols, rows: c.rows, schedule: false, cursorStyle: c.style });
  const take = () => { const o = out; out = ""; return o; };
  let text = "";
  const show = () => {
    const tail = text ? layoutLine([{ text }], cols) : [];
    screen.setLive([...tail, ...FOOTER], { row: tail.length + 1, col: 2 });
  };
  for (const w of c.words) {
    text += w;
    show();
    screen.frame();
    await t.write(take());
  }
  text += c.extra;
  show();
  screen.frame();
  const inFlight = take();
  if (parsedFirst) {
    await t.write(inFlight);
    t.resize(c.toCols, c.rows);
  } else {
    const parsed = t.write(inFlight);
    t.resize(c.toCols, c.rows);
    await parsed;
  }
  const b = t.term.buffer.active;
  const cursor = { row: b.cursorY, col: b.cursorX };
  const screenRows = t.screen().map((r) => r.trimEnd());
  cols = c.toCols;
  screen.resize(cols, c.rows);
  show();
  screen.frame();
  const repaint = take();
  await t.write(repaint);
  screen.commit(layoutLine([{ text }], cols));
  screen.setLive([], null);
  screen.frame();
  await t.write(take());
  const lines = t.logicalLines();
  t.dispose();
  return { cursor, screenRows, repaint, lines, history };
}

describe("a frame in flight when the terminal resizes (the limit)", () => {
  test("the same cursor, the same bytes from us: exact in one order, a line doubled in the other", async () => {
    const c: Case = { cols: 24, rows: 6, style: "hardware", words: [" abc", " abc", " a", " abcdef", " abcd"], extra: " wxyz", toCols: 21 };
    const first = await run(c, true);
    const second = await run(c, false);
    expect(second.cursor).toEqual(first.cursor);
    // Row 0 is the last line of history if the frame was parsed first; re-wrapped first, the
    // frame's own wrap pushed h7 up and row 0 is the zone's top row, which then stays behind.
    expect(first.screenRows).toEqual(["h7", " abc abc a abcdef abc", "d wxyz", "", "> ask", "STATUS"]);
    expect(second.screenRows).toEqual([" abc abc a abcdef abc", "d", "wxyz", "", "> ask", "STATUS"]);
    expect(second.repaint).toBe(first.repaint);
    const paragraph = " abc abc a abcdef abcd wxyz";
    expect(first.lines).toEqual([...first.history, paragraph]);
    expect(second.lines).toEqual([...second.history, " abc abc a abcdef abc", paragraph]);
  });

  test("…and a line of history lost in the other", async () => {
    const c: Case = { cols: 13, rows: 6, style: "cell", words: [" ab", " ab", " ab", " abcd"], extra: " wxyz", toCols: 8 };
    const first = await run(c, true);
    const second = await run(c, false);
    expect(second.cursor).toEqual(first.cursor);
    // Row 0 is the zone's top row if the frame was parsed first (re-wrapping it pushed h7 up);
    // re-wrapped first, row 0 still holds h7, which the same erase then removes.
    expect(first.screenRows).toEqual([" ab ab a", "b abcd w", "xyz", "", "> ask", "STATUS"]);
    expect(second.screenRows).toEqual(["h7", " ab ab a", "b wxyz", "", "> ask", "STATUS"]);
    expect(second.repaint).toBe(first.repaint);
    const paragraph = " ab ab ab abcd wxyz";
    expect(first.lines).toEqual([...first.history, paragraph]);
    expect(second.lines).toEqual([...second.history.filter((h) => h !== "h7"), paragraph]);
  });
});
