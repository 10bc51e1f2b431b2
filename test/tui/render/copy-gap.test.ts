// Why a word-wrapped paragraph copies with spaces where the wrap left cells blank (issue 6 asks
// for no padding spaces), and why the renderer cannot avoid it: a row joins the next one (for copy
// and reflow) only when the cursor wrapped from its last column, so that column must be printed;
// the terminal then copies every cell before it, printed or not, as a space. Writing fewer cells
// (moving over the gap instead of printing spaces) changes nothing. tmux 3.3a does the same with
// `capture-pane -J` (checked by hand: `abc def\e[20GXYZ` in a 20-column pane captures as
// "abc def            XYZ"). Clean copy needs rows without a gap, so the markdown layout fills every
// soft-continued row to the edge (src/tui/markdown/wrap.ts); test/tui/markdown/copy-terminal.test.ts
// checks the copy end to end.
import { expect, test } from "bun:test";
import { createTestTerminal } from "../support/terminal.ts";

/** What xterm.js copies for a line group: rows followed by a wrapped row are taken whole. */
function copied(t: ReturnType<typeof createTestTerminal>, first: number): string {
  const b = t.term.buffer.active;
  let s = "";
  for (let i = first; ; i++) {
    const wrappedNext = b.getLine(i + 1)?.isWrapped ?? false;
    s += b.getLine(i)?.translateToString(!wrappedNext) ?? "";
    if (!wrappedNext) return s;
  }
}

test("a soft-wrapped row copies its never-printed gap as spaces, exactly like printed spaces", async () => {
  const t = createTestTerminal({ cols: 20, rows: 5 });
  await t.write("abc def\x1b[20GX" + "YZ\r\n"); // gap moved over, never printed
  await t.write("abc def" + " ".repeat(12) + "X" + "YZ\r\n"); // gap printed as spaces
  expect(t.isWrapped(1)).toBe(true);
  expect(t.isWrapped(3)).toBe(true);
  expect(copied(t, 0)).toBe("abc def" + " ".repeat(12) + "XYZ");
  expect(copied(t, 2)).toBe(copied(t, 0));
  // Without printing the last column there is no wrap at all: the copy gets a line break.
  await t.write("abc def\r\nghi\r\n");
  expect(t.isWrapped(5)).toBe(false);
  t.dispose();
});
