// The live tail looks finished while it streams: unclosed inline syntax is healed, and syntax that
// cannot be shown correctly yet is held back until its line completes.
import { expect, test } from "bun:test";
import type { Row, Span } from "../../../src/tui/render/style.ts";
import { createMarkdownStream } from "../../../src/tui/markdown/index.ts";
import { LINK_HOLD, TABLE_HOLD } from "../../../src/tui/markdown/heal.ts";

/** What the screen shows mid-stream: settled rows, then the live tail. */
function tail(text: string, links = true): Row[] {
  const s = createMarkdownStream({ width: 80, links });
  s.append(text);
  return [...s.settledRows(), ...s.tailRows()];
}
const text = (rows: Row[]) => rows.map((r) => r.spans.map((s) => s.text).join("")).join("\n");
const spanWith = (rows: Row[], t: string): Span | undefined => rows.flatMap((r) => r.spans).find((s) => s.text.includes(t));

test("an unclosed **bold renders bold without its asterisks", () => {
  const rows = tail("Some **bold wor");
  expect(text(rows)).toBe("Some bold wor");
  expect(spanWith(rows, "bold wor")?.style?.bold).toBe(true);
});

test("nested unclosed emphasis closes innermost first", () => {
  const rows = tail("a **strong and *both");
  expect(text(rows)).toBe("a strong and both");
  const both = spanWith(rows, "both")!;
  expect(both.style?.bold && both.style?.italic).toBe(true);
});

test("a delimiter run just typed after a space is hidden until it means something", () => {
  expect(text(tail("wait for it **"))).toBe("wait for it");
  expect(text(tail("closing soon: **done**"))).toBe("closing soon: done");
});

test("a half-written code span shows as code; a lone backtick is hidden", () => {
  const rows = tail("run `npm inst");
  expect(text(rows)).toBe("run npm inst");
  expect(spanWith(rows, "npm inst")?.style?.fg).toBeDefined();
  expect(text(tail("run `"))).toBe("run");
});

test("a half-written link is held back from its bracket; the text before it still streams", () => {
  expect(text(tail("see [the do"))).toBe("see");
  expect(text(tail("see [the docs]"))).toBe("see");
  expect(text(tail("see [the docs](https://exa"))).toBe("see");
  expect(text(tail("see [the docs](https://exa", false))).toBe("see");
  expect(text(tail("see ![a cat](cat.pn"))).toBe("see");
  expect(text(tail("**see [the do"))).toBe("see");
  expect(spanWith(tail("**see [the do"), "see")?.style?.bold).toBe(true);
});

test("a closed link appears whole and styled, as in the finished text", () => {
  const rows = tail("see [the docs](https://example.com) and");
  expect(text(rows)).toBe("see the docs and");
  expect(spanWith(rows, "the docs")?.style?.link).toBe("https://example.com");
  expect(text(tail("see [the docs](https://example.com)", false))).toBe("see the docs (https://example.com)");
  const s = createMarkdownStream({ width: 80, links: true });
  for (const ch of "see [the docs](https://example.com) now") s.append(ch);
  const live = [...s.settledRows(), ...s.tailRows()];
  s.finish();
  expect(live).toEqual(s.settledRows().slice());
});

test("a bracket that runs on past LINK_HOLD characters shows as text: a stray [ holds nothing long", () => {
  const long = "x".repeat(LINK_HOLD + 1);
  expect(text(tail(`see [${long}`))).toBe(`see ${long}`);
  expect(text(tail(`see [${"x".repeat(LINK_HOLD - 1)}`))).toBe("see");
  // Past the hold, a link being written shows as the link it is becoming, as before.
  const rows = tail(`see [${long}](https://exa`);
  expect(spanWith(rows, long)?.style?.link).toBe("https://exa");
  expect(text(tail("a \\[b"))).toBe("a [b");
  expect(text(tail("run `a[0"))).toBe("run a[0");
});

test("a lone list marker, quote marker or heading hash is held back until its line has content", () => {
  expect(text(tail("para\n\n- "))).toBe("para");
  expect(text(tail("para\n\n12."))).toBe("para");
  expect(text(tail("para\n\n- [ ]"))).toBe("para");
  expect(text(tail("para\n\n#"))).toBe("para");
  expect(text(tail("para\n\n- it"))).toBe("para\n\n• it");
});

test("a table header is held back until its delimiter row completes", () => {
  expect(text(tail("Intro\n\n| a | b |\n"))).toBe("Intro");
  expect(text(tail("Intro\n\n| a | b |\n|---|-"))).toBe("Intro");
});

test("a streaming table is held back until it ends, then shows whole at its final widths", () => {
  expect(text(tail("Intro\n\n| a | b |\n|---|---|\n"))).toBe("Intro");
  expect(text(tail("Intro\n\n| a | b |\n|---|---|\n| 1 | 22 |\n| 333 | 4"))).toBe("Intro");
  const doc = "Intro\n\n| a | b |\n|---|---|\n| 1 | 22 |\n| 333 | 4 |\n\nAfter";
  const rows = tail(doc);
  expect(text(rows)).toContain("│ 333 │ 4  │");
  expect(text(rows)).not.toContain("|");
  // In a list the table ends without settling: it shows in the tail, as it will when finished.
  const inList = "- item\n\n  | a | b |\n  |---|---|\n  | 1 | 22 |\n\n  more";
  const s = createMarkdownStream({ width: 80, links: true });
  s.append(inList);
  const live = [...s.settledRows(), ...s.tailRows()];
  s.finish();
  expect(live).toEqual(s.settledRows().slice());
});

test("a table past TABLE_HOLD rows shows its complete rows as they arrive", () => {
  const body = Array.from({ length: TABLE_HOLD + 1 }, (_, i) => `| ${i} | x |\n`).join("");
  const lines = text(tail(`| a | b |\n|---|---|\n${body}| 99 | y`)).split("\n").filter((l) => l.startsWith("│"));
  expect(lines.length).toBe(TABLE_HOLD + 2);
  expect(lines[lines.length - 1]).toBe(`│ ${TABLE_HOLD} │ x │`);
  expect(text(tail(`| a | b |\n|---|---|\n${body.split("\n").slice(1).join("\n")}`))).toBe("");
});

test("a fence being typed is held back; a closing fence being typed is not shown as code", () => {
  expect(text(tail("x\n\n```pyth"))).toBe("x");
  expect(text(tail("x\n\n```python\nprint(1)\n``"))).toBe("x\n\nprint(1)");
});

test("a streaming code line shows as it is written", () => {
  expect(text(tail("```\nline one\nline tw"))).toBe("line one\nline tw");
});

test("healing never reaches settled rows or the finished document", () => {
  const s = createMarkdownStream({ width: 80, links: true });
  s.append("Some **bold\n\nnext");
  s.append("\n");
  s.finish();
  expect(text(s.settledRows().slice())).toBe("Some **bold\n\nnext");
});

test("a header row still being written is held back too", () => {
  expect(text(tail("Intro\n\n| a | b"))).toBe("Intro");
});

test("once no more text is coming (a tool call follows the answer's text), a held table and half link show", () => {
  const md = createMarkdownStream({ width: 60, links: false });
  md.append("Results:\n\n| a | b |\n|---|---|\n| 1 | 2 |\n");
  expect(text(md.tailRows())).not.toContain("1");
  md.textEnded();
  expect(text(md.tailRows())).toContain("│ 1 │ 2 │");

  const link = createMarkdownStream({ width: 60, links: false });
  link.append("See [the guide](https://ex.com/g");
  expect(text(link.tailRows())).not.toContain("the guide");
  link.textEnded();
  expect(text(link.tailRows())).toContain("the guide");
});
