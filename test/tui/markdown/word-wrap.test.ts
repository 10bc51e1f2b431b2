// "wrap": "words" (the default): prose breaks between words with a hanging indent; code, URLs and
// tokens wider than a row still fill to the edge in soft rows, so a copy of them is whole.
import { describe, expect, test } from "bun:test";
import type { Row } from "../../../src/tui/render/style.ts";
import { renderMarkdown } from "../../../src/tui/markdown/index.ts";
import { displayWidth } from "../../../src/tui/render/width.ts";
import { wordCuts } from "../support/word-cuts.ts";

const rowText = (r: Row) => r.spans.map((s) => s.text).join("");
const words = (md: string, width: number) => renderMarkdown(md, { width, links: true, hangingIndent: true });
/** Join rows as a terminal copy does: soft rows continue the line, hard rows start a new one. */
function copied(rows: readonly Row[]): string {
  return rows.map((r, i) => (i > 0 && !r.soft ? "\n" : "") + rowText(r)).join("");
}

const PROSE =
  "Wrapping between words keeps every single word of this sentence whole on its row, and the ANTHROPIC_API_KEY variable or $EDITOR " +
  "are never cut in two: the reader reads far more than the reader copies.";

describe("prose", () => {
  for (const width of [17, 30, 40, 41, 60, 80]) {
    test(`at ${width} columns no row of a paragraph, list item, quote or heading ends inside a word`, () => {
      const md = `## A heading that is long enough to wrap at narrow widths\n\n${PROSE}\n\n- ${PROSE}\n  - ${PROSE}\n\n> ${PROSE}\n\n1. ${PROSE}`;
      const rows = words(md, width);
      const texts = rows.map(rowText);
      expect(wordCuts(texts, md, width / 2)).toEqual([]);
      for (const t of texts) expect(displayWidth(t)).toBeLessThanOrEqual(width);
      // Every word is still there, in order.
      expect(texts.join(" ").split(/[\s│•◦#.]+/).filter((w) => /\w/.test(w)).join(" ")).toContain("keeps every single word of this sentence whole");
    });
  }

  test("continuation rows hang under the item's text, as hard rows", () => {
    const rows = words(`- ${PROSE}\n\n> ${PROSE}`, 30);
    const item = rows.slice(0, rows.findIndex((r) => rowText(r) === ""));
    expect(item.length).toBeGreaterThan(2);
    expect(item.every((r) => !r.soft)).toBe(true);
    expect(item.slice(1).every((r) => /^ {2}\S/.test(rowText(r)))).toBe(true);
    const quote = rows.slice(rows.findIndex((r) => rowText(r) === "") + 1);
    expect(quote.every((r) => rowText(r).startsWith("│ "))).toBe(true);
  });

  test("table cells wrap between words", () => {
    const md = "| Step | Why |\n|---|---|\n| 1 | look at slugify and its test before anything else is changed |";
    const texts = words(md, 40).map(rowText);
    expect(texts.some((t) => t.includes("look at"))).toBe(true);
    expect(wordCuts(texts.map((t) => t.replace(/[│ ]+$/, "")), md, 20)).toEqual([]);
  });
});

describe("what still fills to the edge", () => {
  test("a code line longer than the row fills it to the edge; its continuations are soft, so a copy gives the line whole", () => {
    const line = "    result = some_function_name(argument_one, argument_two, argument_three)  # trailing comment";
    const rows = words("- item\n\n  ```\n" + line + "\n  short\n  ```", 24);
    const code = rows.slice(rows.findIndex((r) => rowText(r).includes("result")));
    expect(displayWidth(rowText(code[0]!))).toBe(24);
    expect(code[1]!.soft).toBe(true);
    expect(copied(rows)).toContain(line);
  });

  test("a URL wider than the row starts a row of its own and fills to the edge in soft rows: it copies whole", () => {
    const url = "https://example.com/a/very/long/path/that/does/not/fit/on/one/row?query=string&more=1";
    const rows = words(`- Open ${url} now, then read on.`, 30);
    const at = rows.findIndex((r) => rowText(r).includes("https://"));
    expect(rowText(rows[at]!)).toMatch(/^ {2}https:\/\//);
    expect(displayWidth(rowText(rows[at]!))).toBe(30);
    expect(rows[at + 1]!.soft).toBe(true);
    expect(copied(rows).split("\n").some((l) => l.includes(url))).toBe(true);
    expect(wordCuts(rows.map(rowText), `Open now, then read on.`, 15)).toEqual([]);
  });

  test("a word wider than the row is broken between characters, nothing lost", () => {
    const long = "Supercalifragilisticexpialidocious_and_then_some_more";
    const rows = words(`Short ${long} end.`, 20);
    expect(copied(rows).split("\n").some((l) => l.includes(long))).toBe(true);
    expect(copied(rows).replace(/\n/g, " ").replace(/ +/g, " ")).toBe(`Short ${long} end.`);
    for (const r of rows) expect(displayWidth(rowText(r))).toBeLessThanOrEqual(20);
  });

  test("CJK (no spaces) breaks between characters; wide emoji never straddle the edge", () => {
    const cjk = "日本語のテキストは二列幅の文字でできているので折り返しに注意が必要です 🙂👍🏽 mixed text";
    const rows = words(cjk, 11);
    for (const r of rows) expect(displayWidth(rowText(r))).toBeLessThanOrEqual(11);
    expect(copied(rows).split("\n").some((l) => l.includes(cjk.split(" ")[0]!))).toBe(true);
    expect(copied(rows).replace(/\n/g, " ").replace(/ +/g, " ")).toBe(cjk);
  });
});
