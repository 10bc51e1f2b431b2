// Clipping and cutting styled text, the one way the TUI does it (src/tui/render/spans.ts): whole
// grapheme clusters only, measured by the one width function, never a row wider than asked. Before
// it, markdown's rows were clipped code point by code point while the app's views clipped by
// cluster; the first tests here show what that cost on screen.
import { expect, test } from "bun:test";
import { renderMarkdown } from "../../../src/tui/markdown/index.ts";
import { RowSink } from "../../../src/tui/markdown/row-sink.ts";
import type { Row, Span } from "../../../src/tui/render/style.ts";
import { displayWidth, graphemes } from "../../../src/tui/render/width.ts";
import { clipSpans as viewClip, rowText, wrapSpans } from "../../../src/tui/views/text.ts";

const FAMILY = "👨‍👩‍👧"; // one cluster, 2 columns; its code points measure 2+0+2+0+2
const HEART = "❤️"; // one cluster, 2 columns; its code points measure 1+0
const FLAG = "🇺🇸"; // one cluster, 2 columns; its code points measure 1+1

/** True when `text` ends where a grapheme cluster of `whole` ends. */
const endsOnCluster = (text: string, whole: string) => {
  let at = 0;
  for (const g of graphemes(whole)) {
    if (at === text.length) return true;
    at += g.length;
  }
  return at === text.length;
};

test("markdown's last guard (a row wider than the screen is clipped) cuts whole clusters and never leaves a row too wide", () => {
  const cases: Array<[string, number, string]> = [
    [`ab${FAMILY}c`, 4, `ab${FAMILY}`], // the code-point walk kept "ab👨" and a dangling joiner
    [`abc${HEART}`, 4, "abc"], // the code-point walk kept the heart: 5 columns in a row of 4
    [`abc${FLAG}`, 4, "abc"], // the code-point walk kept half a flag (a lone letter symbol)
  ];
  for (const [text, width, shown] of cases) {
    const sink = new RowSink(width, false);
    sink.hard([{ text }]);
    const row = rowText(sink.rows[0]!);
    expect(row).toBe(shown);
    expect(displayWidth(row)).toBeLessThanOrEqual(width);
    expect(endsOnCluster(row, text)).toBe(true);
  }
});

test("a wide character that does not fit beside a list's marker goes to the next row: never clipped away, never too wide", () => {
  for (const ch of [HEART, FAMILY, "你"]) {
    const rows = renderMarkdown(`- ${ch}${ch}`, { width: 3, links: false });
    const lines = rows.map(rowText);
    for (const l of lines) expect(displayWidth(l)).toBeLessThanOrEqual(3);
    // Nothing lost: the rows hold both characters, and a soft row joins its line for copy.
    expect(lines.join("").replace(/[•\s]/g, "")).toBe(`${ch}${ch}`);
  }
});

test("the app's views clip as before: by cluster, with an ellipsis when asked", () => {
  expect(viewClip([{ text: `ab${FAMILY}cd` }], 4, true).map((s) => s.text).join("")).toBe("ab…");
  expect(viewClip([{ text: `ab${FAMILY}cd` }], 5, true).map((s) => s.text).join("")).toBe(`ab${FAMILY}…`);
  expect(viewClip([{ text: "abc" }], 3, true)).toEqual([{ text: "abc" }]);
  expect(viewClip([{ text: "abc" }], 0)).toEqual([]);
});

test("hard wrap: a prefix wider than the continuation's gets a row of its own rather than pushing a character past the edge", () => {
  const bar: Span[] = [{ text: "> " }];
  const rows: Row[] = wrapSpans([{ text: "xyz" }], 2, bar, []);
  expect(rows.map(rowText)).toEqual(["> ", "xy", "z"]);
  // Equal prefixes: each row takes at least one character, however narrow.
  expect(wrapSpans([{ text: "你好" }], 1).map(rowText)).toEqual(["你", "好"]);
});
