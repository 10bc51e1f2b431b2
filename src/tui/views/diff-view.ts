// A unified diff (as the edit and write tools hand the UI in display.diff) shown the way a reviewer
// reads it: old and new line numbers in a gutter, removed lines red, added lines green, the code
// itself syntax-highlighted by the file's language (removed lines too, dimmed, so old code is
// still readable but never mistaken for new), long lines wrapped under the gutter. Invisible
// characters (bidi controls, zero-width) show as markers, with a line above saying how many the
// diff holds (./invisibles.ts): the bytes a reviewer reads are the bytes that land.
import { extname } from "node:path";
import { highlightCode, type Token } from "../markdown/highlight/highlighter.ts";
import { languageForInfo } from "../markdown/highlight/languages.ts";
import { defaultTheme, syntaxStyle } from "../markdown/theme.ts";
import type { Row, Span, Style } from "../render/style.ts";
import { invisiblesRows, revealSpans } from "./invisibles.ts";
import { clipSpans, span, wrapSpans } from "./text.ts";
import { ui } from "./theme.ts";

export type DiffLine =
  | { kind: "hunk"; text: string }
  | { kind: "context" | "added" | "removed"; oldNo: number | null; newNo: number | null; text: string };

export type ParsedDiff = { path: string | null; lines: DiffLine[]; added: number; removed: number };

/** Parses `diff -u` / jsdiff createTwoFilesPatch output. File headers are skipped; hunks kept. */
export function parseUnifiedDiff(diff: string): ParsedDiff {
  const lines: DiffLine[] = [];
  let path: string | null = null;
  let oldNo = 0;
  let newNo = 0;
  let inHunk = false;
  let added = 0;
  let removed = 0;
  for (const raw of diff.split("\n")) {
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@(.*)$/.exec(raw);
    if (hunk) {
      oldNo = Number(hunk[1]);
      newNo = Number(hunk[2]);
      inHunk = true;
      lines.push({ kind: "hunk", text: raw });
      continue;
    }
    if (!inHunk) {
      const target = newFilePath(raw);
      if (target !== null) path = target;
      continue;
    }
    const mark = raw[0];
    const text = raw.slice(1);
    if (mark === "+") {
      lines.push({ kind: "added", oldNo: null, newNo: newNo++, text });
      added++;
    } else if (mark === "-") {
      lines.push({ kind: "removed", oldNo: oldNo++, newNo: null, text });
      removed++;
    } else if (mark === " ") {
      lines.push({ kind: "context", oldNo: oldNo++, newNo: newNo++, text });
    } else if (mark === "\\") {
      continue;
    } else if (raw === "") {
      continue;
    } else {
      inHunk = /^(Index:|===|---|diff )/.test(raw) ? false : inHunk;
    }
  }
  return { path, lines, added, removed };
}

export type DiffViewOptions = {
  width: number;
  /** Show at most this many diff lines; the rest is summarised in one row. */
  maxLines?: number;
  /** Overrides the language guessed from the diff's path. */
  path?: string;
  /** The line saying how many invisible characters the diff holds (default true; the permission panel shows its own). */
  countLine?: boolean;
};

/** The text of each line of a diff, for counting what it holds. */
export function diffLineTexts(diff: string | ParsedDiff): string[] {
  return (typeof diff === "string" ? parseUnifiedDiff(diff) : diff).lines.map((l) => l.text);
}

/** Rows for a diff. The gutter is `  old  new ± `; code wraps under itself, never under the gutter. */
export function renderDiff(diff: string | ParsedDiff, opts: DiffViewOptions): Row[] {
  const parsed = typeof diff === "string" ? parseUnifiedDiff(diff) : diff;
  const shown = opts.maxLines !== undefined ? parsed.lines.slice(0, opts.maxLines) : parsed.lines;
  const numW = Math.max(3, String(Math.max(0, ...parsed.lines.map((l) => (l.kind === "hunk" ? 0 : Math.max(l.oldNo ?? 0, l.newNo ?? 0))))).length);
  const tokens = highlightLines(shown, opts.path ?? parsed.path);
  const rows: Row[] = opts.countLine === false ? [] : invisiblesRows(diffLineTexts(parsed), "this change", opts.width);
  const narrow = opts.width < numW * 2 + 12;
  shown.forEach((l, i) => {
    if (l.kind === "hunk") {
      rows.push({ spans: clipSpans(revealSpans(l.text, ui.diffHunk), opts.width) });
      return;
    }
    const sign = l.kind === "added" ? "+" : l.kind === "removed" ? "-" : " ";
    const signStyle = l.kind === "added" ? ui.diffAdded : l.kind === "removed" ? ui.diffRemoved : ui.lineNo;
    const num = (n: number | null) => (n === null ? " ".repeat(numW) : String(n).padStart(numW));
    const gutter: Span[] = narrow
      ? [span(`${num(l.newNo ?? l.oldNo)}${sign}`, signStyle)]
      : [span(`${num(l.oldNo)} ${num(l.newNo)} `, ui.lineNo), span(`${sign} `, signStyle)];
    const gutterW = narrow ? numW + 1 : numW * 2 + 4;
    const code = codeSpans(l, tokens[i] ?? null);
    rows.push(...wrapSpans(code, opts.width, gutter, [span(" ".repeat(gutterW))]));
  });
  const hidden = parsed.lines.length - shown.length;
  if (hidden > 0) rows.push({ spans: [span(`… ${hidden} more diff line${hidden === 1 ? "" : "s"} (/diff shows everything)`, ui.dim)] });
  return rows;
}

function codeSpans(l: Extract<DiffLine, { oldNo: number | null }>, toks: Token[] | null): Span[] {
  const base: Style | undefined = l.kind === "added" ? ui.diffAdded : l.kind === "removed" ? ui.diffRemoved : undefined;
  // Text the highlighter does not colour keeps the line's colour (green added, red removed), so the
  // line reads as added or removed at a glance; a removed line's syntax colours are dimmed.
  if (!toks) return revealSpans(l.text, base);
  return toks.flatMap((t) => {
    const syntax = t.capture ? syntaxStyle(defaultTheme, t.capture) : undefined;
    return revealSpans(t.text, syntax ? (l.kind === "removed" ? { ...syntax, dim: true } : syntax) : base);
  });
}

/**
 * Highlights each hunk as one piece of code per side: the new side (context and added lines) and
 * the old side (context and removed lines), each lexed in its own order, so a removed line is
 * coloured as it read in the old file. A hunk is a fragment (it may start inside a comment or a
 * string); the lexer reads it from its first line, as every diff viewer does, and starts afresh at
 * the next hunk, so a string one hunk leaves open does not colour the rest of the diff.
 */
function highlightLines(lines: DiffLine[], path: string | null): Array<Token[] | null> {
  const out: Array<Token[] | null> = lines.map(() => null);
  if (!path) return out;
  const language = languageForInfo(extname(path).slice(1));
  if (!language) return out;
  const side = (from: number, to: number, kind: "added" | "removed") => {
    const idx: number[] = [];
    const code: string[] = [];
    for (let i = from; i < to; i++) {
      const l = lines[i]!;
      if (l.kind === "context" || l.kind === kind) {
        idx.push(i);
        code.push(l.text);
      }
    }
    if (!idx.some((i) => lines[i]!.kind === kind) && kind === "removed") return;
    const toks = code.length ? highlightCode(language, code.join("\n") + "\n") : null;
    if (!toks) return;
    idx.forEach((lineIndex, k) => {
      // Context lines take the new side's colours.
      if (kind === "added" || lines[lineIndex]!.kind === "removed") out[lineIndex] = toks[k] ?? null;
    });
  };
  for (let from = 0; from < lines.length; ) {
    let to = from + 1;
    while (to < lines.length && lines[to]!.kind !== "hunk") to++;
    side(from, to, "added");
    side(from, to, "removed");
    from = to;
  }
  return out;
}

/** The path of a `+++ b/path<TAB>date` line, or null; a scan, as the regex it replaces was quadratic in tabs. */
function newFilePath(raw: string): string | null {
  if (!raw.startsWith("+++ ")) return null;
  let rest = raw.slice(4);
  const nonSpace = (c: string | undefined) => c !== undefined && !/\s/.test(c);
  if (rest.startsWith("b/") && nonSpace(rest[2])) rest = rest.slice(2);
  if (!nonSpace(rest[0]) || rest.includes("\n")) return null;
  const tab = rest.indexOf("\t", 1);
  return tab === -1 ? rest : rest.slice(0, tab);
}
