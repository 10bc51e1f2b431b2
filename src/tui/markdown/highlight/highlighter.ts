// Syntax highlighting of code blocks with web-tree-sitter. Loading grammars is async (wasm), so
// the app awaits `preloadHighlighting` once at startup; after that, highlighting is synchronous and
// deterministic, which layout needs (the same text must always give the same rows). A language
// that is not loaded is shown plain.
//
// Output is a list of tokens per line carrying the capture name, not a style: tokens are cached
// with the parsed block and the theme is applied at layout time.
import { Query, type Language, type QueryCapture, type Tree } from "web-tree-sitter";
import { createParser, loadGrammar, type GrammarName, type Parser } from "../../../assets/tree-sitter.ts";
import { grammarForInfo, highlightQueries } from "./queries.ts";

export type Token = { text: string; capture: string | null };
export type LanguageReport = {
  language: GrammarName;
  ok: boolean;
  patterns: number;
  /** Patterns the grammar version rejected (unknown node types, fields, …) and that were left out. */
  dropped: string[];
  error?: string;
};

type Loaded = { parser: Parser; query: Query };
const loaded = new Map<GrammarName, Loaded>();
const reports = new Map<GrammarName, Promise<LanguageReport>>();

export const allGrammars = Object.keys(highlightQueries) as GrammarName[];

/**
 * Load grammars and compile their highlight queries (all by default). `langs` are grammar names or
 * fence names (`py`, `c`, `sh`, …); unknown names are ignored. Resolves with one report per grammar;
 * never rejects: a language that fails to load stays plain and says why in its report.
 */
export function preloadHighlighting(langs: readonly string[] = allGrammars): Promise<LanguageReport[]> {
  const names = new Set<GrammarName>();
  for (const l of langs) {
    const g = (allGrammars as readonly string[]).includes(l) ? (l as GrammarName) : grammarForInfo(l);
    if (g) names.add(g);
  }
  return Promise.all([...names].map(loadLanguage));
}

function loadLanguage(name: GrammarName): Promise<LanguageReport> {
  let report = reports.get(name);
  if (!report) {
    report = (async (): Promise<LanguageReport> => {
      try {
        const language = await loadGrammar(name);
        const parser = await createParser(name);
        const { query, dropped } = compileTolerant(language, highlightQueries[name].join("\n"));
        loaded.set(name, { parser, query });
        return { language: name, ok: true, patterns: query.patternCount(), dropped };
      } catch (e) {
        return { language: name, ok: false, patterns: 0, dropped: [], error: e instanceof Error ? e.message : String(e) };
      }
    })();
    reports.set(name, report);
  }
  return report;
}

export function isHighlightLoaded(name: GrammarName): boolean {
  return loaded.has(name);
}

/**
 * Compile a query, leaving out top-level patterns the grammar rejects. Queries are written against
 * the grammar version in their npm package; the wasm builds we ship may be older or newer, and one
 * unknown node name would otherwise lose the whole language.
 */
export function compileTolerant(language: Language, source: string): { query: Query; dropped: string[] } {
  const dropped: string[] = [];
  let src = source;
  for (let attempt = 0; attempt < 200; attempt++) {
    try {
      return { query: new Query(language, src), dropped };
    } catch (e) {
      const index = (e as { index?: unknown }).index;
      if (typeof index !== "number") throw e;
      const range = patternAt(src, index);
      if (!range) throw e;
      dropped.push(src.slice(range[0], range[1]).trim().replace(/\s+/g, " ").slice(0, 120));
      src = src.slice(0, range[0]) + src.slice(range[1]);
    }
  }
  throw new Error("too many query patterns failed to compile");
}

/** The [start, end) of the top-level query pattern containing `index`. */
function patternAt(src: string, index: number): [number, number] | null {
  let depth = 0;
  let start = -1;
  let i = 0;
  const ranges: [number, number][] = [];
  const close = (end: number) => {
    if (start >= 0) ranges.push([start, end]);
    start = -1;
  };
  while (i < src.length) {
    const c = src[i]!;
    if (c === ";") {
      while (i < src.length && src[i] !== "\n") i++;
      continue;
    }
    if (c === '"') {
      if (depth === 0) {
        close(i);
        start = i;
      }
      i++;
      while (i < src.length && src[i] !== '"') i += src[i] === "\\" ? 2 : 1;
      i++;
      continue;
    }
    if (c === "(" || c === "[") {
      // At depth 0 a group starts a new pattern; captures and quantifiers after it belong to it.
      if (depth === 0) {
        close(i);
        start = i;
      }
      depth++;
    } else if (c === ")" || c === "]") {
      depth--;
    }
    i++;
  }
  close(src.length);
  for (const [s, e] of ranges) if (index >= s && index < e) return [s, e];
  return null;
}

function paintCaptures(lines: string[], captures: QueryCapture[], fromRow: number, toRow: number): Token[][] {
  // Innermost node wins; for the same node the later pattern wins: the shipped queries list the
  // general patterns first (`(identifier) @variable`) and the specific ones after them.
  const items = captures.map((c) => ({
    name: c.name,
    pattern: c.patternIndex,
    start: c.node.startPosition,
    end: c.node.endPosition,
    size: c.node.endIndex - c.node.startIndex,
  }));
  items.sort((a, b) => b.size - a.size || a.pattern - b.pattern);
  const paint: (string | null)[][] = [];
  for (let r = fromRow; r < toRow; r++) paint.push(new Array<string | null>(lines[r]!.length).fill(null));
  for (const it of items) {
    const r0 = Math.max(it.start.row, fromRow);
    const r1 = Math.min(it.end.row, toRow - 1);
    for (let r = r0; r <= r1; r++) {
      const row = paint[r - fromRow]!;
      const c0 = r === it.start.row ? it.start.column : 0;
      const c1 = r === it.end.row ? Math.min(it.end.column, row.length) : row.length;
      for (let c = c0; c < c1; c++) row[c] = it.name;
    }
  }
  const out: Token[][] = [];
  for (let r = fromRow; r < toRow; r++) {
    const line = lines[r]!;
    const row = paint[r - fromRow]!;
    const tokens: Token[] = [];
    let i = 0;
    while (i < line.length) {
      let j = i + 1;
      while (j < line.length && row[j] === row[i]) j++;
      tokens.push({ text: line.slice(i, j), capture: row[i] ?? null });
      i = j;
    }
    out.push(tokens);
  }
  return out;
}

function splitLines(code: string): string[] {
  const lines = code.split("\n");
  if (lines.length > 0 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}

/** Tokens per line for a whole code block, or null when the language is not loaded. */
export function highlightCode(name: GrammarName, code: string): Token[][] | null {
  const lang = loaded.get(name);
  if (!lang) return null;
  const lines = splitLines(code);
  const tree = lang.parser.parse(code);
  if (!tree) return null;
  try {
    return paintCaptures(lines, lang.query.captures(tree.rootNode), 0, lines.length);
  } finally {
    tree.delete();
  }
}

/**
 * Highlighting for a code block that is still streaming: each call passes the block's complete
 * lines so far; only lines not seen before are queried and painted, so a frame costs nothing once
 * its lines are known and a completed line costs one incremental reparse. Earlier lines keep the
 * colours they got when they completed (a later line can change how an earlier one parses, e.g. an
 * opening docstring); the block is highlighted whole once more when it settles.
 */
export class StreamingHighlighter {
  private key = "";
  private lines: string[] = [];
  private tokens: Token[][] = [];
  private tree: Tree | null = null;
  private text = "";

  highlight(name: GrammarName, key: string, complete: readonly string[]): Token[][] | null {
    const lang = loaded.get(name);
    if (!lang) return null;
    const fullKey = name + "\0" + key;
    if (fullKey !== this.key || !this.isPrefix(complete)) this.reset(fullKey);
    if (complete.length === this.lines.length) return this.tokens;
    const from = this.lines.length;
    const added = complete.slice(from);
    const oldText = this.text;
    const newText = oldText + added.map((l) => l + "\n").join("");
    let tree: Tree | null;
    if (this.tree) {
      this.tree.edit({
        startIndex: oldText.length,
        oldEndIndex: oldText.length,
        newEndIndex: newText.length,
        startPosition: { row: from, column: 0 },
        oldEndPosition: { row: from, column: 0 },
        newEndPosition: { row: complete.length, column: 0 },
      } as Parameters<Tree["edit"]>[0]);
      tree = lang.parser.parse(newText, this.tree);
      this.tree.delete();
    } else {
      tree = lang.parser.parse(newText);
    }
    this.tree = tree;
    this.text = newText;
    this.lines = complete.slice();
    if (!tree) return null;
    const caps = lang.query.captures(tree.rootNode, {
      startPosition: { row: from, column: 0 },
      endPosition: { row: complete.length, column: 0 },
    });
    this.tokens = this.tokens.concat(paintCaptures(this.lines, caps, from, complete.length));
    return this.tokens;
  }

  /** Complete lines of one streaming block only grow, so checking the newest known line suffices. */
  private isPrefix(complete: readonly string[]): boolean {
    const n = this.lines.length;
    return complete.length >= n && (n === 0 || complete[n - 1] === this.lines[n - 1]);
  }

  reset(key = ""): void {
    this.tree?.delete();
    this.tree = null;
    this.key = key;
    this.lines = [];
    this.tokens = [];
    this.text = "";
  }
}
