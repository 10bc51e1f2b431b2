// What a user gets when copying from the terminal: a wrapped paragraph is one line (continuation
// rows are soft and carry no indentation), and code and URLs are cut without inserted characters.
import { expect, test } from "bun:test";
import type { Row } from "../../../src/tui/render/style.ts";
import { renderMarkdown } from "../../../src/tui/markdown/index.ts";
import { displayWidth } from "../../../src/tui/render/width.ts";

const rowText = (r: Row) => r.spans.map((s) => s.text).join("");

/** Join rows the way a terminal copy does: soft rows continue the line, hard rows start a new one. */
function copied(rows: readonly Row[]): string {
  let out = "";
  rows.forEach((r, i) => {
    if (i > 0 && !r.soft) out += "\n";
    out += rowText(r);
  });
  return out;
}

const paragraph =
  "Streaming output must copy cleanly: when the user selects a wrapped paragraph in the terminal and pastes it elsewhere, " +
  "it should arrive as one line, with every space where the author put it, and nothing added for decoration.";

test("a wrapped paragraph is one hard row followed by soft rows whose text joins to the paragraph exactly", () => {
  for (const width of [17, 30, 41, 80]) {
    const rows = renderMarkdown(paragraph, { width, links: true });
    expect(rows.length).toBeGreaterThan(1);
    expect(rows[0]!.soft).toBeFalsy();
    expect(rows.slice(1).every((r) => r.soft === true)).toBe(true);
    expect(copied(rows)).toBe(paragraph);
    for (const r of rows) expect(displayWidth(rowText(r))).toBeLessThanOrEqual(width);
  }
});

test("soft breaks in the source become the single space they stand for", () => {
  const rows = renderMarkdown("one line\nnext line\nlast", { width: 80, links: true });
  expect(copied(rows)).toBe("one line next line last");
});

test("list items and quotes wrap without indenting continuation rows", () => {
  const rows = renderMarkdown(`- ${paragraph}\n- short\n\n> ${paragraph}`, { width: 30, links: true });
  const text = copied(rows);
  expect(text).toBe(`• ${paragraph}\n• short\n\n│ ${paragraph}`);
  for (const r of rows.filter((r) => r.soft)) expect(rowText(r).startsWith("  ")).toBe(false);
});

test("nested list items keep their indentation on the first row only", () => {
  const rows = renderMarkdown(`- outer\n  - ${paragraph}`, { width: 40, links: true });
  expect(copied(rows)).toBe(`• outer\n  ◦ ${paragraph}`);
});

test("a long code line is cut into soft rows with nothing inserted, keeping its indentation", () => {
  const line = "    result = some_function_name(argument_one, argument_two, argument_three)  # trailing comment";
  const rows = renderMarkdown("```\n" + line + "\nshort\n```", { width: 24, links: true });
  expect(copied(rows)).toBe(line + "\nshort");
  expect(rows[0]!.soft).toBeFalsy();
  expect(rows.filter((r) => !r.soft).length).toBe(2);
});

test("a URL longer than the row is cut between characters and copies whole", () => {
  const url = "https://example.com/a/very/long/path/that/does/not/fit/on/one/row?query=string&more=1";
  const rows = renderMarkdown(`Open ${url} now.`, { width: 30, links: true });
  expect(copied(rows)).toBe(`Open ${url} now.`);
});

test("links: OSC 8 target in the style when supported, the URL in the text when not", () => {
  const md = "Read [the guide](https://example.com/guide) first.";
  const osc = renderMarkdown(md, { width: 80, links: true });
  expect(copied(osc)).toBe("Read the guide first.");
  expect(osc[0]!.spans.find((s) => s.text.includes("guide"))?.style?.link).toBe("https://example.com/guide");
  const plain = renderMarkdown(md, { width: 80, links: false });
  expect(copied(plain)).toBe("Read the guide (https://example.com/guide) first.");
  expect(plain.flatMap((r) => r.spans).some((s) => s.style?.link)).toBe(false);
  // an autolink is not repeated
  expect(copied(renderMarkdown("<https://x.dev>", { width: 80, links: false }))).toBe("https://x.dev");
});

test("wide characters are never split and rows never exceed the width", () => {
  const cjk = "日本語のテキストは二列幅の文字でできているので折り返しに注意が必要です 🙂👍🏽 mixed text";
  const rows = renderMarkdown(cjk, { width: 11, links: true });
  expect(copied(rows)).toBe(cjk);
  for (const r of rows) expect(displayWidth(rowText(r))).toBeLessThanOrEqual(11);
});

test("hard line breaks end the row: the next row is hard", () => {
  const rows = renderMarkdown("first  \nsecond\\\nthird", { width: 80, links: true });
  expect(rows.map((r) => [rowText(r), !!r.soft])).toEqual([["first", false], ["second", false], ["third", false]]);
});

test("with hangingIndent, continuations are indented and therefore hard rows", () => {
  const rows = renderMarkdown(`- ${paragraph}`, { width: 30, links: true, hangingIndent: true });
  expect(rows.every((r) => !r.soft)).toBe(true);
  expect(rows.slice(1).every((r) => rowText(r).startsWith("  "))).toBe(true);
});

test("control characters in the text never reach the rows", () => {
  const rows = renderMarkdown("evil \x1b[2J text\x07 and \x9b31m\n\n```\ncode \x1b]8;;x\x07\n```", { width: 80, links: true });
  for (const r of rows) for (const s of r.spans) expect(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/.test(s.text)).toBe(false);
  // The stand-ins every view shows (src/text/control-chars.ts): ESC as ␛, BEL as ␇, a C1 control as U+FFFD.
  expect(copied(rows)).toContain("evil \u241b[2J text\u2407 and \uFFFD31m");
});
