// One measure for the whole TUI: what layout measures (displayWidth) is what the cell grid lays
// out, and markdown and the app's views show a control as the same stand-in.
import { expect, test } from "bun:test";
import { CellBuffer, writeRow } from "../../../src/tui/render/cells.ts";
import { GraphemeTable } from "../../../src/tui/render/graphemes.ts";
import { StyleTable } from "../../../src/tui/render/styles.ts";
import { displayWidth } from "../../../src/tui/render/width.ts";
import { renderMarkdown } from "../../../src/tui/markdown/index.ts";
import { cleanText } from "../../../src/tui/views/text.ts";

const samples = [
  "plain ascii",
  "日本語のテキスト",
  "emoji 👍🏽 and 👨‍👩‍👧 family",
  "e\u0301 combining, \u200b zero width",
  "raw \x1b[2J escape, \x07 bell, \x7f del, \x9b c1",
  "tab\there",
  "lone \ud800 high and \udc00 low surrogates",
  "\u1100\u1100\u1161 jamo",
];

test("displayWidth is the number of cells the grid gives the same text", () => {
  const graphemes = new GraphemeTable();
  const styles = new StyleTable("256");
  for (const s of samples) {
    const buf = new CellBuffer(200, 1);
    writeRow(buf, 0, { spans: [{ text: s }] }, graphemes, styles);
    expect({ s, cells: buf.ext[0] }).toEqual({ s, cells: displayWidth(s) });
  }
});

test("markdown and the views show a control as the same stand-in, never raw", () => {
  const evil = "a \x1b[2J b \x07 c \x9b d \ud800 e";
  const md = renderMarkdown(evil, { width: 80, links: true }).map((r) => r.spans.map((s) => s.text).join("")).join("");
  expect(md).toBe(cleanText(evil));
  expect(md).toBe("a \u241b[2J b \u2407 c \ufffd d \ufffd e");
});
