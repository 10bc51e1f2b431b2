import { expect, test } from "bun:test";
import { TranscriptPager, type PagerSource } from "../../../src/tui/views/pager.ts";
import { rowText } from "../../../src/tui/views/text.ts";
import type { Row } from "../../../src/tui/render/style.ts";

/** 10,000 entries of 1-5 rows each; counts the layouts the pager asks for. */
function source(n: number) {
  const laidOut = new Set<number>();
  let calls = 0;
  const src: PagerSource = {
    count: () => n,
    text: (i) => `entry ${i}${i % 1000 === 7 ? " needle" : ""}`,
    layout: (i, width) => {
      calls++;
      laidOut.add(i);
      const rows: Row[] = [];
      for (let r = 0; r < 1 + (i % 5); r++) rows.push({ spans: [{ text: `entry ${i}${i % 1000 === 7 ? " needle" : ""} row ${r} w${width}` }] });
      return rows;
    },
  };
  return { src, laidOut, calls: () => calls };
}

test("opening at the end of 10,000 entries lays out only what is visible", () => {
  const s = source(10_000);
  const p = new TranscriptPager(s.src, 80, 24);
  p.end();
  const rows = p.render();
  expect(rows.length).toBe(24);
  expect(rowText(rows[22]!)).toBe("entry 9999 row 4 w80");
  expect(s.laidOut.size).toBeLessThan(30);
  expect(rowText(rows[23]!)).toContain("end");
});

test("paging is exact across entries of different heights; Home and End return exactly", () => {
  const s = source(100);
  const p = new TranscriptPager(s.src, 80, 11);
  p.home();
  expect(rowText(p.render()[0]!)).toBe("entry 0 row 0 w80");
  p.pageDown(); // 9 rows: entry0 (1) + entry1 (2) + entry2 (3) + entry3 rows 0-2
  expect(rowText(p.render()[0]!)).toBe("entry 3 row 3 w80");
  p.pageUp();
  expect(rowText(p.render()[0]!)).toBe("entry 0 row 0 w80");
  p.scrollBy(-5);
  expect(rowText(p.render()[0]!)).toBe("entry 0 row 0 w80");
  p.end();
  const last = p.render();
  expect(rowText(last[9]!)).toBe("entry 99 row 4 w80");
  p.scrollBy(5);
  expect(rowText(p.render()[9]!)).toBe("entry 99 row 4 w80");
});

test("prefix sums: a jump to a row lands on the entry holding it, and the total is exact once seen", () => {
  const s = source(50);
  const p = new TranscriptPager(s.src, 80, 10);
  for (let i = 0; i < 50; i++) p.rows(i);
  expect(p.totalRows()).toBe(Array.from({ length: 50 }, (_, i) => 1 + (i % 5)).reduce((a, b) => a + b));
  p.jumpToRow(17); // entries 0..5 hold 1+2+3+4+5+1 = 16 rows; row 17 is entry 6 row 1
  expect(rowText(p.render()[0]!)).toBe("entry 6 row 1 w80");
  expect(p.topRow()).toBe(17);
});

test("search finds entries by text, n and N walk the hits and wrap, and highlights the match", () => {
  const s = source(10_000);
  const p = new TranscriptPager(s.src, 80, 12);
  p.home();
  p.runSearch("needle");
  expect(p.search?.hits.length).toBe(10);
  const shown = p.render().map(rowText);
  expect(shown.some((r) => r.startsWith("entry 7 needle row 0"))).toBe(true);
  p.nextMatch(1); // next row of entry 7
  expect(p.render().map(rowText).join("\n")).toContain("entry 7 needle row 1");
  for (let k = 0; k < 2; k++) p.nextMatch(1);
  expect(p.render().map(rowText).join("\n")).toContain("entry 1007 needle");
  p.nextMatch(-1);
  p.nextMatch(-1);
  const row = p.render().find((r) => rowText(r).startsWith("entry 7 needle row 1"))!;
  expect(row.spans.some((sp) => sp.text === "needle" && sp.style?.bg !== undefined)).toBe(true);
  expect(s.laidOut.size).toBeLessThan(100);
});

test("after the user moves the view (Home, PgDn), n goes to the first match from the view, N to the last one above it", () => {
  const s = source(10_000);
  const p = new TranscriptPager(s.src, 80, 12);
  p.end();
  p.runSearch("needle");
  p.nextMatch(1);
  p.home();
  p.nextMatch(1);
  expect(p.render().map(rowText).join("\n")).toContain("entry 7 needle row 0");
  expect(p.search?.current).toBe(0);
  p.jumpToRow(4500);
  const top = Number(/^entry (\d+)/.exec(rowText(p.render()[0]!))?.[1]);
  const below = Math.ceil((top - 7) / 1000) * 1000 + 7;
  p.nextMatch(1);
  expect(p.render().map(rowText).join("\n")).toContain(`entry ${below} needle row 0`);
  p.jumpToRow(4500);
  p.nextMatch(-1);
  expect(p.render().map(rowText).join("\n")).toContain(`entry ${below - 1000} needle row ${(below - 1000) % 5}`);
});

test("layouts are cached per width: a resize lays out again at the new width, going back reuses", () => {
  const s = source(20);
  const p = new TranscriptPager(s.src, 80, 10);
  p.end();
  p.render();
  const before = s.calls();
  p.render();
  expect(s.calls()).toBe(before);
  p.resize(40, 10);
  expect(rowText(p.render()[0]!)).toContain("w40");
  const at40 = s.calls();
  expect(at40).toBeGreaterThan(before);
  p.resize(80, 10);
  p.render();
  expect(s.calls()).toBe(at40);
});
