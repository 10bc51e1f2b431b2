// A window made shorter than the live zone, or narrower so that re-wrapping makes the zone taller
// than the window, pushes the zone's top rows into the terminal's scrollback before we hear of
// it. No cursor move reaches them again and no erase removes them. The screen must never draw
// them a second time below, and a zone with no cursor (the permission panel) puts its hidden
// cursor on its top row once frames stop, so that a shorter window drops its rows instead of
// pushing them.
// Replayed in @xterm/headless; tmux 3.3a drops the lines below the cursor the same way
// (checked by hand: `tmux resize-window -y 8` on the demo's permission prompt).
import { describe, expect, test } from "bun:test";
import type { Row } from "../../../src/tui/render/style.ts";
import { createScreen, type CursorStyle, type Screen } from "../../../src/tui/screen/screen.ts";
import { layoutLine, prng, WORDS } from "../support/model.ts";
import { createTestTerminal } from "../support/terminal.ts";

const FOOTER: Row[] = [
  { spans: [] },
  { spans: [{ text: "» ", style: { bold: true } }, { text: "ask", style: { dim: true } }] },
  { spans: [{ text: "STATUS", style: { fg: { kind: "index", n: 6 } } }] },
];

function setup(cols: number, rows: number, cursorStyle: CursorStyle = "auto") {
  const t = createTestTerminal({ cols, rows });
  let out = "";
  const screen = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows, schedule: false, cursorStyle });
  // Parsed at once: each frame is awaited before the next resize, so none is in flight then.
  const frame = async (): Promise<void> => {
    screen.frame();
    const o = out;
    out = "";
    t.writeNow(o);
  };
  const resize = (c: number, r: number) => {
    t.resize(c, r);
    screen.resize(c, r);
  };
  return { t, screen, frame, resize };
}

const text = (row: Row) => row.spans.map((s) => s.text).join("");
/** All the text the terminal holds, scrollback first, with no spaces or line breaks. */
const allText = (lines: string[]) => lines.join("").replace(/\s+/g, "");

describe("a window shorter than the live zone", () => {
  test("a permission panel with no cursor: once frames stop, its hidden cursor waits on its top row, and none of its rows is left in scrollback", async () => {
    const t = createTestTerminal({ cols: 60, rows: 30 });
    for (let i = 0; i < 40; i++) await t.write(`history ${i}\r\n`);
    // Frames are drawn by hand; only the cursor's parking comes by itself, when frames stop.
    let parked: (() => void) | null = null;
    let written = Promise.resolve();
    const screen: Screen = createScreen({
      output: {
        write: (d) => {
          const top = screen.debugZone().cursorRow === 0;
          written = t.write(d).then(() => { if (top) parked?.(); });
          return true;
        },
      },
      caps: { colorDepth: "truecolor", syncOutput: true }, cols: 60, rows: 30, cursorStyle: "auto", cursorSettleMs: 5,
    });
    const frame = async () => { screen.frame(); await written; };
    const park = () => new Promise<void>((resolve) => (parked = resolve));
    const panel = (n: number): Row[] => Array.from({ length: n }, (_, i) => ({ spans: [{ text: `panel row ${i}${i === n - 1 ? " [y] allow" : ""}` }] }));
    screen.setLive(panel(25), null);
    let waiting = park();
    await frame();
    expect(screen.debugZone().cursorRow).toBe(24); // where the last write ended
    await waiting;
    expect(t.cursor().line).toBe(t.lines().indexOf("panel row 0"));
    t.resize(60, 8);
    screen.resize(60, 8);
    screen.setLive(panel(7), null); // laid out again for 7 rows
    waiting = park();
    await frame();
    await waiting;
    expect(t.lines().filter((l) => l.startsWith("panel row"))).toEqual(panel(7).map(text));
    // Answered: the panel goes, its tool row is committed.
    screen.commit([{ spans: [{ text: "✓ edit done" }] }]);
    screen.setLive(FOOTER, { row: 1, col: 2 });
    await frame();
    t.resize(60, 30);
    screen.resize(60, 30);
    await frame();
    screen.dispose();
    const lines = t.logicalLines();
    expect(lines.filter((l) => l.startsWith("panel"))).toEqual([]);
    expect(lines).toEqual([...Array.from({ length: 40 }, (_, i) => `history ${i}`), "✓ edit done", ...FOOTER.map(text)]);
    t.dispose();
  });

  test("a streaming paragraph taller than the new window: each of its rows once, in order", async () => {
    for (const cursorStyle of ["hardware", "auto", "cell"] as const) {
      const { t, screen, frame, resize } = setup(40, 20, cursorStyle);
      for (let i = 0; i < 30; i++) await t.write(`history ${i}\r\n`);
      let cols = 40, rows = 20;
      let para = "";
      const show = () => {
        const tail = para ? layoutLine([{ text: para }], cols) : [];
        const room = rows - 1 - FOOTER.length;
        const top = tail.slice(Math.max(0, tail.length - room));
        screen.setLive([...top, ...FOOTER], { row: top.length + 1, col: 2 });
      };
      for (let w = 0; w < 60; w++) {
        para += `w${w} `;
        show();
        await frame();
      }
      // 60 words of 4 cells: 6 rows at 40 columns, under 16 rows of room; then 5 rows tall.
      resize(40, 5);
      rows = 5;
      show();
      await frame();
      for (let w = 60; w < 80; w++) {
        para += `w${w} `;
        show();
        await frame();
      }
      resize(cols = 60, rows = 24);
      show();
      await frame();
      screen.commit(layoutLine([{ text: para }], cols));
      para = "";
      screen.setLive([], null);
      await frame();
      const lines = t.logicalLines();
      const words: string[] = [...(allText(lines).match(/w\d+/g) ?? [])];
      expect([cursorStyle, words]).toEqual([cursorStyle, Array.from({ length: 80 }, (_, i) => `w${i}`)]);
      expect(lines.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => `history ${i}`));
      t.dispose();
    }
  });

  // Any sequence of sizes, as long as what the live zone shows is the top of what is not yet
  // committed (the app commits rows it clips off the top rather than hiding them; see the report
  // in the commit): every word once, in order.
  test("seeded sequences of height and width changes: every line once, in order", async () => {
    for (let seed = 1; seed <= 24; seed++) {
      const rnd = prng(seed);
      let cols = 20 + rnd.int(100), rows = 6 + rnd.int(30);
      const { t, screen, frame, resize } = setup(cols, rows, rnd.pick(["hardware", "auto", "cell"] as const));
      const want: string[] = [];
      let para: string[] = [];
      let n = 0;
      const tailRows = () => (para.length ? layoutLine(para.map((w) => ({ text: w })), cols) : []);
      const room = () => Math.max(0, rows - 1 - FOOTER.length);
      const show = () => {
        const tail = tailRows();
        const top = tail.slice(Math.max(0, tail.length - room()));
        if (room() === 0) screen.setLive(FOOTER.slice(FOOTER.length - Math.max(1, rows - 1)), null);
        else screen.setLive([...top, ...FOOTER], { row: top.length + 1, col: 2 });
      };
      const finish = () => {
        if (para.length) screen.commit(tailRows());
        want.push(...para);
        para = [];
      };
      try {
        for (let step = 0; step < 160; step++) {
          const r = rnd.int(100);
          if (r < 70) para.push(`m${n++}${rnd.pick(WORDS)} `);
          else if (r < 82) finish();
          else {
            if (tailRows().length > room()) {
              finish();
              show();
              await frame();
            }
            cols = 20 + rnd.int(100);
            rows = 3 + rnd.int(34);
            resize(cols, rows);
          }
          show();
          await frame();
        }
        finish();
        screen.setLive([], null);
        await frame();
        const got = allText(t.logicalLines());
        expect([...(got.match(/m\d+/g) ?? [])]).toEqual(Array.from({ length: n }, (_, i) => `m${i}`));
        expect(got).toBe(allText(want));
      } catch (e) {
        throw new Error(`seed ${seed}: ${(e as Error).message}`);
      } finally {
        t.dispose();
      }
    }
  }, 60_000);
});
