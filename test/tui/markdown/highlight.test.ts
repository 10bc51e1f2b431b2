// Code blocks are highlighted by per-language lexers (src/tui/markdown/highlight/): for every
// language, keywords, strings, comments and function names get their colours; strings and comments
// that span lines are carried across them; streaming code is coloured line by line as lines
// complete, and a streamed block's lines get exactly the colours of the whole block.
import { expect, test } from "bun:test";
import type { Row, Span } from "../../../src/tui/render/style.ts";
import { createMarkdownStream, defaultTheme, renderMarkdown } from "../../../src/tui/markdown/index.ts";
import { highlightCode, StreamingHighlighter, type Token } from "../../../src/tui/markdown/highlight/highlighter.ts";
import { languageForInfo, languages, type LanguageName } from "../../../src/tui/markdown/highlight/languages.ts";
import { prng } from "./gen-doc.ts";

const spans = (rows: readonly Row[]): Span[] => rows.flatMap((r) => r.spans);
const syntax = defaultTheme.syntax;

/** The capture of the first token whose text is `text` (tokens of one capture are merged, so pick distinct texts). */
function captureOf(lines: Token[][], text: string): string | null | undefined {
  for (const line of lines) for (const t of line) if (t.text === text) return t.capture;
  return undefined;
}

type Sample = { info: string; code: string; keyword: string; string: string; comment: string; fn: string };

const samples: Sample[] = [
  { info: "typescript", code: 'interface A { x: number }\nexport function run(a: A) {\n  return go("hi"); // done\n}', keyword: "interface", string: '"hi"', comment: "// done", fn: "go" },
  { info: "tsx", code: 'export function App() {\n  /* jsx */ return <div className="x">hi</div>;\n}', keyword: "export", string: '"x"', comment: "/* jsx */", fn: "App" },
  { info: "javascript", code: "async function load() {\n  await fetch('/a'); // get\n}", keyword: "async", string: "'/a'", comment: "// get", fn: "load" },
  { info: "python", code: 'def greet(name):\n    # say it\n    return "hi " + name', keyword: "return", string: '"hi "', comment: "# say it", fn: "greet" },
  { info: "go", code: 'package main\n\nfunc main() {\n\t// print\n\tfmt.Println("hi")\n}', keyword: "package", string: '"hi"', comment: "// print", fn: "main" },
  { info: "rust", code: 'fn main() {\n    let s = "hi"; // greet\n    helper(s);\n}', keyword: "let", string: '"hi"', comment: "// greet", fn: "helper" },
  { info: "bash", code: 'if [ -f x ]; then\n  echo "hi" # say\nfi', keyword: "then", string: '"hi"', comment: "# say", fn: "echo" },
  { info: "css", code: '/* links */\na::after { content: "x"; }', keyword: "", string: '"x"', comment: "/* links */", fn: "" },
  { info: "java", code: 'class A {\n  void f() { log("x"); } // f\n}', keyword: "class", string: '"x"', comment: "// f", fn: "log" },
  { info: "cpp", code: 'class A { public: int x; };\n// note\nvoid f() { puts("x"); }', keyword: "class", string: '"x"', comment: "// note", fn: "puts" },
  { info: "c", code: 'int main(void) {\n  /* go */\n  return printf("x");\n}', keyword: "return", string: '"x"', comment: "/* go */", fn: "printf" },
  { info: "csharp", code: 'class A {\n  void F() { Log("x"); } // f\n}', keyword: "class", string: '"x"', comment: "// f", fn: "Log" },
  { info: "ruby", code: 'def greet\n  # say\n  say("hi")\nend', keyword: "def", string: '"hi"', comment: "# say", fn: "say" },
  { info: "php", code: '<?php\nfunction f() { return g("x"); } // f', keyword: "function", string: '"x"', comment: "// f", fn: "g" },
  { info: "json", code: '{"a": "x", "b": true}', keyword: "", string: '"x"', comment: "", fn: "" },
  { info: "yaml", code: 'name: "x" # who\nok: true', keyword: "", string: '"x"', comment: "# who", fn: "" },
];

for (const s of samples) {
  test(`${s.info}: keyword, string, comment and function name get their colours; the text is unchanged`, () => {
    const lang = languageForInfo(s.info)!;
    expect(lang).not.toBeNull();
    const lines = highlightCode(lang, s.code);
    if (s.keyword) expect(captureOf(lines, s.keyword)).toBe("keyword");
    expect(captureOf(lines, s.string)).toBe("string");
    if (s.comment) expect(captureOf(lines, s.comment)).toBe("comment");
    if (s.fn) expect(captureOf(lines, s.fn)).toMatch(/^function/);
    expect(lines.map((l) => l.map((t) => t.text).join("")).join("\n")).toBe(s.code);
    // Through markdown, the theme colours them.
    const rows = renderMarkdown("```" + s.info + "\n" + s.code + "\n```\n", { width: 100, links: true });
    expect(spans(rows).find((sp) => sp.text === s.string)?.style).toEqual(syntax.string);
    expect(rows.map((r) => r.spans.map((sp) => sp.text).join("")).join("\n")).toBe(s.code.replace(/\t/g, "    "));
  });
}

test("every language has an alias, and every shipped table is reachable from a fence", () => {
  const reachable = new Set(["ts", "tsx", "js", "py", "go", "rs", "sh", "css", "java", "c", "cpp", "cs", "rb", "php", "json", "yaml"].map(languageForInfo));
  expect([...reachable].sort()).toEqual(Object.keys(languages).sort() as LanguageName[]);
});

test("language-specific names: builtins, types, constants, properties, sigils", () => {
  const ts = highlightCode("typescript", "const n: number = Math.max(MAX_SIZE, this.size, null);");
  expect(captureOf(ts, "number")).toBe("type.builtin");
  expect(captureOf(ts, "Math")).toBe("type");
  expect(captureOf(ts, "max")).toBe("function.method");
  expect(captureOf(ts, "MAX_SIZE")).toBe("constant");
  expect(captureOf(ts, "this")).toBe("variable.builtin");
  expect(captureOf(ts, "size")).toBe("property");
  expect(captureOf(ts, "null")).toBe("constant.builtin");
  const py = highlightCode("python", "@cache\ndef f(x: int) -> None:\n    print(len(x), True)");
  expect(captureOf(py, "@cache")).toBe("function");
  expect(captureOf(py, "f")).toBe("function");
  expect(captureOf(py, "int")).toBe("type.builtin");
  expect(captureOf(py, "None")).toBe("constant.builtin");
  expect(captureOf(py, "print")).toBe("function.builtin");
  const sh = highlightCode("bash", 'FOO=1 make -j4 | grep "$HOME" && ls ${DIR}');
  expect(captureOf(sh, "FOO")).toBe("property");
  expect(captureOf(sh, "make")).toBe("function");
  expect(captureOf(sh, "grep")).toBe("function");
  expect(captureOf(sh, "ls")).toBe("function");
  expect(sh[0]!.find((t) => t.text.includes("-j4"))?.capture).toBeNull();
  expect(captureOf(sh, "$HOME")).toBe("property");
  expect(captureOf(sh, "${DIR}")).toBe("property");
  const css = highlightCode("css", ".card > p:hover { margin: 10px auto; color: #fff; }");
  expect(captureOf(css, "card")).toBe("property");
  expect(captureOf(css, "p")).toBe("tag");
  expect(captureOf(css, "hover")).toBe("attribute");
  expect(captureOf(css, "margin")).toBe("property");
  expect(captureOf(css, "10")).toBe("number");
  expect(captureOf(css, "px")).toBe("type");
  expect(captureOf(css, "#fff")).toBe("string.special");
  const php = highlightCode("php", "$this->save($item);");
  expect(captureOf(php, "$this")).toBe("variable.builtin");
  expect(captureOf(php, "save")).toBe("function.method");
  expect(captureOf(php, "$item")).toBe("variable");
  const rs = highlightCode("rust", "fn f<'a>(s: &'a str) -> u8 { println!(\"{}\", 'x', '😀'); 0 }");
  expect(captureOf(rs, "'😀'")).toBe("string");
  expect(captureOf(rs, "'a")).toBe("label");
  expect(captureOf(rs, "println")).toBe("function.macro");
  expect(captureOf(rs, "'x'")).toBe("string");
  expect(captureOf(rs, "u8")).toBe("type.builtin");
  const rb = highlightCode("ruby", "@name = :sym\nputs key: nil");
  expect(captureOf(rb, "@name")).toBe("property");
  expect(captureOf(rb, ":sym")).toBe("string.special.symbol");
  expect(captureOf(rb, "puts")).toBe("function.builtin");
  expect(captureOf(rb, "nil")).toBe("constant.builtin");
});

test("a regex literal is a string, and a division is not", () => {
  const ts = highlightCode("typescript", 'const r = /"[/]"/g; const h = a / b / c;');
  expect(captureOf(ts, '/"[/]"/g')).toBe("string.regexp");
  expect(ts[0]!.filter((t) => t.capture === "string").length).toBe(0);
});

// A quote inside a construct the table must know (a regex, a character, a raw string, HTML after
// `?>`) would open a string that runs to the end of the block. Each: the language, the code, the
// construct's text and its capture; the last line must be code again.
const quoted: [LanguageName, string, string, string | null][] = [
  ["ruby", "ok = x =~ /can't/\ny = 1", "/can't/", "string.regexp"],
  ["ruby", "ok = s=~/'/\ny = 1", "/'/", "string.regexp"],
  ["ruby", "parts = line.split /'/\ny = 1", "/'/", "string.regexp"],
  ["ruby", "c = ?'\ny = 1", "?'", "string"],
  ["ruby", "same = c==?'\ny = 1", "?'", "string"],
  ["ruby", "puts ?'\ny = 1", "?'", "string"],
  ["ruby", 'q = [?", ?b]\ny = 1', '?"', "string"],
  ["ruby", "s = %q(it's (really))\ny = 1", "%q(it's (really))", "string"],
  ["ruby", "w = %w[don't won't]\ny = 1", "%w[don't won't]", "string"],
  ["ruby", "re = %r{[a-z]{2}'}x\ny = 1", "%r{[a-z]{2}'}", "string.regexp"],
  ["ruby", "re = %r{\n  [a-z]{2}'\n}x\ny = 1", "  [a-z]{2}'", "string.regexp"],
  ["ruby", "after = $'\ny = 1", "$'", "variable"],
  ["rust", 'let s = r##"a "# b"##;\nlet y = 1;', 'r##"a "# b"##', "string"],
  ["rust", 'let p = r"C:\\dir\\";\nlet y = 1;', 'r"C:\\dir\\"', "string"],
  ["bash", "cat <<\\EOF\nit's\nEOF\necho 1", "it's", "string"],
  ["php", "<?php if ($x): ?>\n<p>Don't</p>\n<?php endif; $y = 1;", "<p>Don't</p>", null],
];

for (const [lang, code, text, capture] of quoted) {
  test(`${lang}: ${JSON.stringify(text)} is one ${capture ?? "plain"} token, and the next line is code`, () => {
    const lines = highlightCode(lang, code);
    expect(captureOf(lines, text)).toBe(capture);
    const last = lines[lines.length - 1]!;
    expect(last.filter((t) => t.capture === "string" || t.capture === "comment")).toEqual([]);
    expect(last.some((t) => t.capture !== null)).toBe(true);
  });
}

test("ruby: a ternary's `?` and a division stay operators; ?x is a character only where a value starts", () => {
  const rb = highlightCode("ruby", "x = ok ? 'a' : 'b'\ny = ok ?'c' : 'd'\nz = a / b / c\nn = count % 3 + ?a.ord");
  expect(captureOf(rb, "'a'")).toBe("string");
  expect(captureOf(rb, "'b'")).toBe("string");
  expect(captureOf(rb, "'c'")).toBe("string");
  expect(captureOf(rb, "'d'")).toBe("string");
  expect(rb[2]!.filter((t) => t.capture !== null && t.capture !== "operator")).toEqual([]);
  expect(captureOf(rb, "?a")).toBe("string");
  expect(rb[3]!.find((t) => t.text === "%")?.capture).toBe("operator");
});

test("ruby: `/` after @ivar, $global or a name and a blank is division unless what follows reads as a regex, and a regex never runs across a comment", () => {
  const division = ["@x = @w /2 + @h/2", "half = total /2 + count/4", "z = $w /2 + @@c /3", "n = a /(b + c)", "q = a /b c /d/"];
  for (const line of division) {
    const tokens = highlightCode("ruby", line)[0]!;
    const slashes = tokens.filter((t) => t.text.includes("/"));
    expect(slashes.map((t) => `${t.text}:${t.capture}`)).toEqual(slashes.map((t) => `${t.text}:operator`));
  }
  const rb = highlightCode("ruby", "y = x.size /2 # half/whole\nw = x.size /2 # it's half/whole\nv = 1");
  expect(captureOf(rb, "# half/whole")).toBe("comment");
  expect(captureOf(rb, "# it's half/whole")).toBe("comment");
  expect(rb[2]!.some((t) => t.capture === "number")).toBe(true);
  // A method that takes regexes, a backslash or a quote, or a start no operand has: still a regex.
  const regex: [string, string][] = [
    ["puts /x/", "/x/"],
    ["xs.grep /^a/", "/^a/"],
    ["parts = line.split /,\\s*/", "/,\\s*/"],
    ["t = s.tr /[a-z]+/i", "/[a-z]+/i"],
    ["ok = foo /\\d+/", "/\\d+/"],
    ['m = str /"/', '/"/'],
    ["x.scan /#{pat}/", "/#{pat}/"],
  ];
  for (const [code, text] of regex) expect(captureOf(highlightCode("ruby", code), text)).toBe("string.regexp");
});

test("ruby: after a name, `?` is a ternary's (a ?b :c) unless a quote that does not close follows", () => {
  const rb = highlightCode("ruby", "puts a ?b :c\nputs ?'");
  expect(rb[0]!.find((t) => t.text === "?")?.capture).toBe("operator");
  expect(rb[0]!.some((t) => t.capture === "string")).toBe(false);
  expect(captureOf(rb, "?'")).toBe("string");
});

test("ruby: after __END__ the rest is data, not code", () => {
  const rb = highlightCode("ruby", "puts DATA.read\n__END__\nit's data\ndef not_code");
  expect(rb.slice(1)).toEqual([[{ text: "__END__", capture: "comment" }], [{ text: "it's data", capture: "comment" }], [{ text: "def not_code", capture: "comment" }]]);
});

test("a regex glued to an operator is still a regex (x=/'/)", () => {
  const js = highlightCode("javascript", "x=/'/; y = 'z'");
  expect(captureOf(js, "/'/")).toBe("string.regexp");
  expect(captureOf(js, "'z'")).toBe("string");
});

test("yaml: an apostrophe inside a plain scalar is a letter; a quote where a value starts opens a string", () => {
  const y = highlightCode("yaml", "a: don't # why\nb: 'it''s'\nc: [x, \"y\"]\nh: 5'9\"");
  expect(captureOf(y, "# why")).toBe("comment");
  expect(captureOf(y, "'it''s'")).toBe("string");
  expect(captureOf(y, '"y"')).toBe("string");
  expect(y[3]!.some((t) => t.capture === "string")).toBe(false);
});

test("yaml: a quote after a tag or an anchor opens a string (CloudFormation's !Sub, !Ref); after an alias it does not", () => {
  const y = highlightCode(
    "yaml",
    "Value: !Sub 'arn:aws:s3:::${Bucket}/*'\nName: !Ref \"MyName\"\ndef: &d 'x' # c\nkey: !!str 'it''s # not'\nl: [a, !Ref 'b', *r]\nm: {k: 'v'}\n- &i 'item'\n? 'key'\nn: *ref 'z",
  );
  expect(captureOf(y, "'arn:aws:s3:::${Bucket}/*'")).toBe("string");
  expect(captureOf(y, '"MyName"')).toBe("string");
  expect(captureOf(y, "'x'")).toBe("string");
  expect(captureOf(y, "# c")).toBe("comment");
  expect(captureOf(y, "'it''s # not'")).toBe("string");
  expect(captureOf(y, "'b'")).toBe("string");
  expect(captureOf(y, "'v'")).toBe("string");
  expect(captureOf(y, "'item'")).toBe("string");
  expect(captureOf(y, "'key'")).toBe("string");
  for (const tag of ["!Sub", "!Ref", "!!str"]) expect(captureOf(y, tag)).toBe("type");
  expect(captureOf(y, "*r")).toBe("label");
  // An alias is the whole node: what follows it is not a value.
  expect(y[8]!.some((t) => t.capture === "string")).toBe(false);
});

// Each: the language, the code, a line in the middle of the construct, the capture that line has.
const multiline: [LanguageName, string, string, string][] = [
  ["python", 'x = """first\nsecond line\nthird"""\ny = 1', "second line", "string"],
  ["typescript", "/* one\n   two\n*/ const a = 1;", "   two", "comment"],
  ["typescript", "const t = `a\nmiddle\n${x}`;", "middle", "string"],
  ["go", "s := `raw\ninside\n` + x", "inside", "string"],
  ["rust", 'let s = "one\ntwo\nthree";', "two", "string"],
  ["java", 'String s = """\n  block\n  """;', "  block", "string"],
  ["c_sharp", 'var s = @"one\ntwo\nthree";', "two", "string"],
  ["bash", "cat <<'EOF'\nif not a keyword\nEOF\necho done", "if not a keyword", "string"],
  ["ruby", "s = <<~TEXT\n  def not_code\n  TEXT\nputs s", "  def not_code", "string"],
  ["ruby", "=begin\nclass Nope\n=end\nx = 1", "class Nope", "comment"],
  ["php", "$s = <<<EOT\nfunction nope\nEOT;\necho $s;", "function nope", "string"],
  ["css", "/* a\n b { }\n*/ a { color: red; }", " b { }", "comment"],
  ["cpp", 'auto s = R"(one\nraw "two"\n)";', 'raw "two"', "string"],
];

for (const [lang, code, inner, capture] of multiline) {
  test(`${lang}: a ${capture} across lines colours its middle line, and the code after it is code again`, () => {
    const lines = highlightCode(lang, code);
    const at = code.split("\n").indexOf(inner);
    expect(lines[at]).toEqual([{ text: inner, capture }]);
    const last = lines[lines.length - 1]!;
    expect(last.some((t) => t.capture !== capture && t.text.trim() !== "")).toBe(true);
  });
}

test("streaming in any chunking gives each complete line the whole block's tokens", () => {
  const rand = prng(7);
  for (const [lang, code] of [...multiline.map(([l, c]) => [l, c] as const), ...quoted.map(([l, c]) => [l, c] as const), ...samples.map((s) => [languageForInfo(s.info)!, s.code] as const)]) {
    const whole = highlightCode(lang, code);
    const lines = code.split("\n");
    const h = new StreamingHighlighter();
    let shown = 0;
    while (shown < lines.length) {
      shown = Math.min(lines.length, shown + 1 + Math.floor(rand() * 3));
      const got = h.highlight(lang, "k", lines.slice(0, shown));
      expect(got).toEqual(whole.slice(0, shown));
    }
  }
});

test("a streamed block's rows are the whole block's rows, line by line and at the end", () => {
  const code = ['const a = 1; /* open', "still comment */", "function f(x: number) {", "  return `t ${x}", "  more`; // twice", "}", "export { f };"];
  const s = createMarkdownStream({ width: 80, links: true });
  s.append("```ts\n");
  code.forEach((line, i) => {
    s.append(line + "\n");
    const whole = renderMarkdown("```ts\n" + code.slice(0, i + 1).join("\n") + "\n```", { width: 80, links: true });
    expect(s.tailRows()).toEqual(whole);
  });
});

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
  expect(spans(rows).find((sp) => sp.text === "import")?.style).toEqual(syntax.keyword);
  expect(spans(rows).find((sp) => sp.text === "for")?.style).toEqual(syntax.keyword);
  expect(rows.map((r) => r.spans.map((sp) => sp.text).join("")).some((t) => t.includes("pri"))).toBe(false);
  s.append("nt(x)\n");
  const after = s.tailRows();
  expect(spans(after).find((sp) => sp.text === "print")?.style).toEqual(syntax["function.builtin"]);
});

test("a fence without a highlighted language shows its line as it is typed", () => {
  const s = createMarkdownStream({ width: 80, links: true });
  s.append("```\nplain line\npart");
  expect(s.tailRows().map((r) => r.spans.map((sp) => sp.text).join("")).some((t) => t.includes("part"))).toBe(true);
});

test("hostile long lines come out whole, character for character (their cost is in bench/patterns.bench.ts)", () => {
  const lines: [LanguageName, string][] = [
    ["typescript", "x = /[".repeat(20_000)],
    ["css", "a:b;".repeat(25_000)],
    ["yaml", "a:b".repeat(30_000)],
    ["bash", "${".repeat(50_000)],
    ["cpp", "#".repeat(100_000)],
    ["python", '"\\'.repeat(50_000)],
    ["ruby", "x ?'".repeat(30_000)],
    ["ruby", "puts /[".repeat(20_000)],
    ["ruby", "%q(".repeat(30_000)],
    ["ruby", "t /1 ".repeat(20_000)],
    ["rust", "r#".repeat(50_000)],
    ["php", "?>a<?".repeat(20_000)],
  ];
  for (const [lang, line] of lines) expect(highlightCode(lang, line)[0]!.map((t) => t.text).join("")).toBe(line);
});
