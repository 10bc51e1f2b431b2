// The row cache copies a Row's cells from the last frame when the same Row object comes back.
// Oracle: every frame's cells equal those of laying every row out afresh, whatever came back.
import { describe, expect, test } from "bun:test";
import { CellBuffer, writeRow } from "../../../src/tui/render/cells.ts";
import { GraphemeTable } from "../../../src/tui/render/graphemes.ts";
import { RowCache } from "../../../src/tui/render/row-cache.ts";
import type { Row } from "../../../src/tui/render/style.ts";
import { StyleTable } from "../../../src/tui/render/styles.ts";
import { createScreen } from "../../../src/tui/screen/screen.ts";
import { createTestTerminal } from "../support/terminal.ts";

const graphemes = new GraphemeTable();
const styles = new StyleTable("256");
const lay = (buf: CellBuffer, y: number, row: Row) => void writeRow(buf, y, row, graphemes, styles);

function cellsOf(buf: CellBuffer, y: number): string {
  const o = y * buf.cols;
  return JSON.stringify([Array.from(buf.glyph.subarray(o, o + buf.cols)), Array.from(buf.style.subarray(o, o + buf.cols)), Array.from(buf.width.subarray(o, o + buf.cols)), buf.soft[y], buf.len[y], buf.ext[y]]);
}

function expectFresh(buf: CellBuffer, y: number, rows: Row[]): void {
  const fresh = new CellBuffer(buf.cols, rows.length + 1);
  rows.forEach((r, i) => lay(fresh, i, r));
  rows.forEach((_, i) => expect(cellsOf(buf, y + i)).toBe(cellsOf(fresh, i)));
}

describe("row cache", () => {
  const status: Row = { spans: [{ text: "claude · ⎇ main · 12% of context", style: { dim: true } }] };
  const wide: Row = { spans: [{ text: "一二三四五六七八九十" }], soft: true };

  test("a Row that comes back is copied, and equals a fresh layout", () => {
    const cache = new RowCache(40, lay);
    const buf = new CellBuffer(40, 8);
    cache.layFrame(buf, 0, [[{ spans: [{ text: "old tail" }] }], [status]]);
    expect(cache.hits).toBe(0);
    // The status line moves down a row; the row above is new.
    const rows: Row[] = [{ spans: [{ text: "new tail" }] }, { spans: [] }, status];
    buf.reset(40);
    cache.layFrame(buf, 1, [rows]);
    expect(cache.hits).toBe(1);
    expectFresh(buf, 1, rows);
  });

  test("the same Row at a new width is laid out again (a wide row clipped differently)", () => {
    const cache = new RowCache(40, lay);
    let buf = new CellBuffer(40, 8);
    cache.layFrame(buf, 0, [[wide, status]]);
    for (const cols of [9, 40, 21]) {
      const hits = cache.hits;
      buf = new CellBuffer(cols, 8);
      cache.layFrame(buf, 0, [[wide, status]]);
      expect(cache.hits).toBe(hits);
      expectFresh(buf, 0, [wide, status]);
    }
    // Back at an unchanged width the rows are reused.
    buf = new CellBuffer(21, 8);
    cache.layFrame(buf, 0, [[status, wide]]);
    expect(cache.hits).toBe(2);
    expectFresh(buf, 0, [status, wide]);
  });

  test("only the last frame's rows are kept", () => {
    const cache = new RowCache(20, lay);
    const a: Row = { spans: [{ text: "a" }] };
    const buf = new CellBuffer(20, 8);
    cache.layFrame(buf, 0, [[a]]);
    cache.layFrame(buf, 0, [[status]]);
    const hits = cache.hits;
    cache.layFrame(buf, 0, [[a, status]]);
    expect(cache.hits).toBe(hits + 1);
    expectFresh(buf, 0, [a, status]);
  });

  test("the screen keeps one status Row across a resize and shows it at the new width", async () => {
    const t = createTestTerminal({ cols: 30, rows: 6 });
    let out = "";
    const s = createScreen({ output: { write: (d) => ((out += d), true) }, caps: { colorDepth: "256", syncOutput: false }, cols: 30, rows: 6, schedule: false });
    const line: Row = { spans: [{ text: "status · ⎇ main · twenty-nine chars" }] };
    s.setLive([{ spans: [{ text: "» " }] }, line]);
    s.frame();
    await t.write(out);
    out = "";
    s.resize(20, 6);
    t.resize(20, 6);
    s.setLive([{ spans: [{ text: "» " }] }, line]);
    s.frame();
    await t.write(out);
    const screen = t.lines();
    expect(screen.filter((l) => l.includes("status"))).toEqual(["status · ⎇ main · tw"]);
  });
});
