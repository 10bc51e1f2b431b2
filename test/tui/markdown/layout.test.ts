// Layout of the block constructs: what each looks like, and that nothing exceeds the width.
import { expect, test } from "bun:test";
import type { Row } from "../../../src/tui/render/style.ts";
import { defaultTheme, renderMarkdown } from "../../../src/tui/markdown/index.ts";
import { displayWidth } from "../../../src/tui/render/width.ts";

const lines = (rows: readonly Row[]) => rows.map((r) => r.spans.map((s) => s.text).join(""));
const render = (md: string, width = 60) => renderMarkdown(md, { width, links: true });

test("headings drop their markers and take the level's style", () => {
  const rows = render("# One\n\nTwo\n---\n\n### Three ###");
  expect(lines(rows)).toEqual(["One", "", "Two", "", "Three"]);
  expect(rows[0]!.spans[0]!.style).toEqual(defaultTheme.heading[0]);
  expect(rows[2]!.spans[0]!.style).toEqual(defaultTheme.heading[1]);
});

test("lists: bullets by depth, aligned numbers from the start number, tasks, loose spacing", () => {
  expect(lines(render("- a\n  - b\n    - c"))).toEqual(["• a", "  ◦ b", "    ▪ c"]);
  expect(lines(render("9. nine\n10. ten"))).toEqual([" 9. nine", "10. ten"]);
  expect(lines(render("- [ ] todo\n- [x] done"))).toEqual(["• [ ] todo", "• [x] done"]);
  expect(lines(render("- a\n\n- b"))).toEqual(["• a", "", "• b"]);
});

test("block quotes put a bar on hard rows, including blank rows between their paragraphs", () => {
  expect(lines(render("> one\n>\n> two\n> > nested"))).toEqual(["│ one", "│", "│ two", "│", "│ │ nested"]);
});

test("tables fit the width: natural widths when they fit, wrapped cells when not, records when far too narrow", () => {
  const md = "| key | description |\n|:--|--:|\n| a | short |\n| b | a considerably longer description of the thing |";
  const wide = lines(render(md, 80));
  expect(wide).toEqual([
    "┌─────┬────────────────────────────────────────────────┐",
    "│ key │                                    description │",
    "├─────┼────────────────────────────────────────────────┤",
    "│ a   │                                          short │",
    "│ b   │ a considerably longer description of the thing │",
    "└─────┴────────────────────────────────────────────────┘",
  ]);
  const narrow = lines(render(md, 30));
  for (const l of narrow) expect(displayWidth(l)).toBeLessThanOrEqual(30);
  expect(narrow.length).toBeGreaterThan(wide.length);
  expect(narrow.join("\n")).toContain("considerably");
  const tiny = lines(render(md, 10));
  expect(tiny).toContain("key: a");
  for (const l of tiny) expect(displayWidth(l)).toBeLessThanOrEqual(10);
});

test("thematic breaks span the width; code keeps its text and tabs become spaces", () => {
  expect(lines(render("---", 12))).toEqual(["─".repeat(12)]);
  expect(lines(render("```\n\tx\n```"))).toEqual(["    x"]);
  expect(lines(render("    indented\n    code"))).toEqual(["indented", "code"]);
});

test("every construct at every width stays within the width", () => {
  const md = [
    "# A heading that is long enough to wrap at narrow widths",
    "Para with `code`, **bold**, *em*, ~~del~~ and a https://example.com/very/long/url/that/wraps",
    "- item\n  1. nested ordered item with several words\n     > quote inside",
    "| a | b | c |\n|---|---|---|\n| 1 | 2 | 3 |",
    "```python\ndef f():\n    return 'a long string literal that will need to be cut somewhere'\n```",
    "<div>\nhtml block\n</div>",
  ].join("\n\n");
  for (let w = 1; w <= 50; w++) {
    for (const l of lines(render(md, w))) expect(displayWidth(l)).toBeLessThanOrEqual(w);
  }
});
