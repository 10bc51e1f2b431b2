// Seeded random markdown documents for property tests: every construct the renderer supports,
// in random order and nesting, with the edge cases streaming trips over (blank-line runs, fences
// containing blank lines, CRLF, a missing final newline, wide characters).
export { seededRandom as prng } from "../../support/prng.ts";

const WORDS = [
  "the", "stream", "settles", "blocks", "quickly", "parser", "width", "terminal", "row", "copy",
  "über", "naïve", "日本語", "テキスト", "🙂", "emoji👍🏽", "a", "is", "and", "https://example.com/a/really/long/path?with=query&and=more",
  "`code span`", "**bold text**", "*italic*", "_under_", "~~struck~~", "[a link](https://example.org/x)",
  "<https://auto.link/x>", "foo_bar_baz", "2*3*4", "**unclosed", "`tick", "[half](http://x", "a\\*b", "&amp;", "&copy;",
];

export function genDoc(rand: () => number): string {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));
  const sentence = (n = int(3, 25)) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const para = () => {
    const lines = int(1, 3);
    return Array.from({ length: lines }, (_, i) => sentence() + (i < lines - 1 && rand() < 0.2 ? "  " : "")).join("\n");
  };
  const code = () => {
    const lang = pick(["python", "ts", "diff", "", "unknownlang", "bash"]);
    const bodies: Record<string, string[]> = {
      python: ["def f(x):", "    return x + 1  # add", "", 'print("hi")', 'x = """doc', 'string"""'],
      ts: ["const x: number = 1;", "function f(a: string) {", "  return a;", "}", "", "// comment"],
      diff: ["--- a/x", "+++ b/x", "@@ -1 +1 @@", "-old", "+new", " same"],
      bash: ["echo hi | grep h", "if [ -f x ]; then", "  rm x", "fi"],
      "": ["plain text", "\tindented with tab", ""],
      unknownlang: ["whatever { }", "  more"],
    };
    const body = Array.from({ length: int(1, 6) }, () => pick(bodies[lang]!));
    const fence = rand() < 0.8 ? "```" : "~~~~";
    return `${fence}${lang}\n${body.join("\n")}\n${fence}`;
  };
  const list = (depth: number): string => {
    const ordered = rand() < 0.4;
    const n = int(1, 4);
    const loose = rand() < 0.3;
    const indent = "  ".repeat(depth);
    const items: string[] = [];
    for (let i = 0; i < n; i++) {
      const marker = ordered ? `${i + 1}.` : "-";
      const task = !ordered && rand() < 0.2 ? (rand() < 0.5 ? "[ ] " : "[x] ") : "";
      let item = `${indent}${marker} ${task}${sentence(int(1, 15))}`;
      if (depth < 2 && rand() < 0.25) item += "\n" + list(depth + 1);
      items.push(item);
    }
    return items.join(loose ? "\n\n" : "\n");
  };
  const table = () => {
    const cols = int(1, 4);
    const row = () => "| " + Array.from({ length: cols }, () => sentence(int(1, 6))).join(" | ") + " |";
    const delim = "|" + Array.from({ length: cols }, () => pick(["---", ":--", "--:", ":-:"])).join("|") + "|";
    return [row(), delim, ...Array.from({ length: int(0, 4) }, row)].join("\n");
  };
  const blocks: (() => string)[] = [
    () => "#".repeat(int(1, 6)) + " " + sentence(int(1, 8)),
    () => sentence(int(1, 6)) + "\n" + pick(["===", "---"]),
    para,
    para,
    code,
    () => list(0),
    table,
    () => pick(["---", "***", "___"]),
    () => "> " + sentence() + "\n> " + sentence() + (rand() < 0.3 ? "\n>\n> - " + sentence(4) : ""),
    () => "    indented code\n    more code",
    () => "[ref]: https://example.net/ref\n\nsee [ref] here",
  ];
  const n = int(1, 12);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(pick(blocks)());
  let doc = parts.map((p) => p + "\n".repeat(rand() < 0.15 ? int(0, 1) : int(1, 3))).join("\n");
  if (rand() < 0.2) doc = doc.replace(/\n$/, "");
  if (rand() < 0.1) doc = doc.replace(/\n/g, "\r\n");
  return doc;
}

/** Random chunk boundaries: 1..maxSize characters (surrogate pairs may be split; the stream must cope). */
export function chunk(text: string, rand: () => number, maxSize: number): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < text.length) {
    const n = 1 + Math.floor(rand() * maxSize);
    out.push(text.slice(i, i + n));
    i += n;
  }
  return out;
}
