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

// Planes 0, 1 and 14 whole (every emoji, mark and format character), the rest sampled.
test("one code point measures as string-width says", async () => {
  const { default: stringWidth } = await import("string-width");
  const { codePointWidth } = await import("../../../src/tui/render/width-rules.ts");
  const wrong: string[] = [];
  for (let cp = 0; cp <= 0x10ffff; cp += cp < 0x20000 || (cp >= 0xe0000 && cp < 0xe1000) ? 1 : 251) {
    const want = Math.min(2, stringWidth(String.fromCodePoint(cp)));
    const got = codePointWidth(cp);
    if (got !== want && wrong.length < 10) wrong.push(`U+${cp.toString(16)}: ${got}, string-width ${want}`);
  }
  expect(wrong).toEqual([]);
});
