// Code blocks are highlighted with the grammars' own highlight queries, for every grammar we ship;
// streaming code is coloured line by line as lines complete.
import { beforeAll, expect, test } from "bun:test";
import type { Row, Span } from "../../../src/tui/render/style.ts";
import { createMarkdownStream, defaultTheme, preloadHighlighting, renderMarkdown, type LanguageReport } from "../../../src/tui/markdown/index.ts";
import { compileTolerant, highlightCode } from "../../../src/tui/markdown/highlight/highlighter.ts";
import { loadGrammar } from "../../../src/assets/tree-sitter.ts";

let reports: LanguageReport[] = [];
beforeAll(async () => {
  reports = await preloadHighlighting();
});

const spans = (rows: readonly Row[]): Span[] => rows.flatMap((r) => r.spans);
const keyword = defaultTheme.syntax.keyword;

const samples: [info: string, code: string, kw: string][] = [
  ["typescript", "interface A { x: number }\nexport const a: A = { x: 1 };", "interface"],
  ["tsx", "export function App() { return <div>hi</div>; }", "function"],
  ["javascript", "async function f() { await g(); }", "async"],
  ["python", "def f(x):\n    return x", "def"],
  ["go", "package main\nfunc main() {}", "func"],
  ["rust", "fn main() { let x = 1; }", "fn"],
  ["bash", "if [ -f x ]; then echo hi; fi", "then"],
  ["css", "@media screen { a { color: red; } }", "@media"],
  ["java", "class A { void f() { return; } }", "class"],
  ["cpp", "class A { public: int x; };", "class"],
  ["c", "int main(void) { return 0; }", "return"],
  ["csharp", "class A { void F() { return; } }", "class"],
  ["ruby", "def f\n  1\nend", "def"],
  ["php", "<?php\nfunction f() { return 1; }", "function"],
];

test("every shipped grammar loads and its highlight query compiles", () => {
  console.log(reports.map((r) => `${r.language}: ${r.ok ? `${r.patterns} patterns` : r.error}${r.dropped.length ? `, dropped ${r.dropped.length}` : ""}`).join("\n"));
  expect(reports.filter((r) => !r.ok)).toEqual([]);
  expect(reports.length).toBe(13);
});

for (const [info, code, kw] of samples) {
  test(`${info}: the keyword \`${kw}\` gets the keyword colour`, () => {
    const rows = renderMarkdown("```" + info + "\n" + code + "\n```\n", { width: 80, links: true });
    const span = spans(rows).find((s) => s.text === kw);
    expect(span?.style).toEqual(keyword);
    // and the code comes out unchanged, character for character
    expect(rows.map((r) => r.spans.map((s) => s.text).join("")).join("\n")).toBe(code);
  });
}

test("an unknown language is plain, and a diff is coloured by line type", () => {
  const plain = renderMarkdown("```klingon\nqapla' if def\n```", { width: 80, links: true });
  expect(spans(plain).every((s) => s.style === undefined)).toBe(true);
  const diff = renderMarkdown("```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-old\n+new\n same\n```", { width: 80, links: true });
  const styleOf = (t: string) => spans(diff).find((s) => s.text === t)?.style;
  expect(styleOf("-old")).toEqual(defaultTheme.diff.removed);
  expect(styleOf("+new")).toEqual(defaultTheme.diff.added);
  expect(styleOf("@@ -1 +1 @@")).toEqual(defaultTheme.diff.hunk);
  expect(styleOf("--- a/x")).toEqual(defaultTheme.diff.header);
  expect(styleOf(" same")).toBeUndefined();
});

test("streaming code is coloured as each line completes; the line being written waits for its newline", () => {
  // Shown as typed, the line would be painted twice: plain now, in colour once complete.
  const s = createMarkdownStream({ width: 80, links: true });
  s.append("```python\nimport os\nfor x in os.listdir():\n    pri");
  const rows = s.tailRows();
  expect(spans(rows).find((sp) => sp.text === "import")?.style).toEqual(keyword);
  expect(spans(rows).find((sp) => sp.text === "for")?.style).toEqual(keyword);
  expect(rows.map((r) => r.spans.map((sp) => sp.text).join("")).some((t) => t.includes("pri"))).toBe(false);
  s.append("nt(x)\n");
  const after = s.tailRows();
  expect(spans(after).find((sp) => sp.text === "print")?.style).toEqual(defaultTheme.syntax["function.builtin"]);
});

test("a fence without a highlighted language shows its line as it is typed", () => {
  const s = createMarkdownStream({ width: 80, links: true });
  s.append("```\nplain line\npart");
  expect(s.tailRows().map((r) => r.spans.map((sp) => sp.text).join("")).some((t) => t.includes("part"))).toBe(true);
});

test("streaming highlight of complete lines matches whole-block highlight for ordinary code", () => {
  const code = ["const a = 1;", "function f(x: number) {", "  return x * 2; // twice", "}", "export { f };"];
  const s = createMarkdownStream({ width: 80, links: true });
  s.append("```ts\n");
  for (const line of code) s.append(line + "\n");
  const streamed = s.tailRows();
  const whole = renderMarkdown("```ts\n" + code.join("\n") + "\n```", { width: 80, links: true });
  expect(streamed).toEqual(whole);
});

test("a query pattern the grammar rejects is dropped and the rest still highlights", async () => {
  const lang = await loadGrammar("python");
  const { query, dropped } = compileTolerant(lang, '(no_such_node) @keyword\n"def" @keyword\n(comment) @comment\n(also_missing field: (x)) @x');
  expect(dropped).toEqual(["(no_such_node) @keyword", "(also_missing field: (x)) @x"]);
  expect(query.patternCount()).toBe(2);
  expect(highlightCode("python", "def f(): pass\n")?.[0]?.[0]).toEqual({ text: "def", capture: "keyword" });
});
