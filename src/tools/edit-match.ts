// The replacement cascade behind the edit tool. Models copy old_string from memory, and memory is
// fuzzy in predictable ways: indentation, tabs, trailing spaces, blank lines, escaped quotes,
// line-number prefixes from read. Each stage forgives one more kind of mistake, runs only when the
// stricter ones found nothing, and must find exactly one place (or replace_all): a fuzzy match is
// never allowed to pick between several candidates.
//
// Works on LF text; the edit tool maps spans back onto CRLF files.
import { replayEdit } from "./line-merge.ts";
import { reindent } from "./reindent.ts";
import { editDistance } from "./suggest-paths.ts";

export type MatchStage =
  | "exact"
  | "line-number-prefixes"
  | "indentation-flexible"
  | "line-trimmed"
  | "whitespace-normalised"
  | "escape-normalised"
  | "trimmed-boundaries"
  | "block-anchor";

/** A span of the content and the text that replaces it. */
export type Replacement = { start: number; end: number; text: string };

export type EditErrorKind = "no_change" | "not_found" | "ambiguous";

export type EditPlan =
  | { ok: true; stage: MatchStage; replacements: Replacement[]; content: string }
  | { ok: false; kind: EditErrorKind; message: string; lines?: number[] };

const BLOCK_ANCHOR_MIN_SIMILARITY = 0.75;

/** Line starts, for offset ↔ line conversions. */
class Lines {
  readonly lines: string[];
  readonly starts: number[] = [];
  constructor(readonly text: string) {
    this.lines = text.split("\n");
    let pos = 0;
    for (const l of this.lines) {
      this.starts.push(pos);
      pos += l.length + 1;
    }
  }
  /** 0-based line index containing `offset`. */
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
  endOf(line: number): number {
    return this.starts[line]! + this.lines[line]!.length;
  }
}

const isBlank = (l: string) => l.trim() === "";

/** old_string split into lines with the blank lines at either end set aside. */
type Shape = { core: string[]; leadBlank: number; trailBlank: number };
function shape(s: string): Shape {
  const lines = s.split("\n");
  let a = 0;
  let b = lines.length;
  while (a < b && isBlank(lines[a]!)) a++;
  while (b > a && isBlank(lines[b - 1]!)) b--;
  return { core: lines.slice(a, b), leadBlank: a, trailBlank: lines.length - b };
}

/**
 * The replacement for a match that covers whole lines [first, last] of the file: new_string minus
 * the blank lines the model put around old_string, re-indented to the file's indentation.
 */
function lineRegionReplacement(L: Lines, first: number, last: number, oldS: Shape, newString: string): Replacement {
  const newLines = newString.split("\n");
  let a = 0;
  let b = newLines.length;
  for (let i = 0; i < oldS.leadBlank && a < b && isBlank(newLines[a]!); i++) a++;
  for (let i = 0; i < oldS.trailBlank && b > a && isBlank(newLines[b - 1]!); i++) b--;
  const fileLines = L.lines.slice(first, last + 1);
  let body = reindent(oldS.core, fileLines, newLines.slice(a, b));
  // The region holds lines old_string lacks (or lacks lines it has): replay the change instead
  // of overwriting the region, so the file's own lines survive.
  if (fileLines.length !== oldS.core.length) body = replayEdit(oldS.core, fileLines, body) ?? body;
  let start = L.starts[first]!;
  let end = L.endOf(last);
  if (body.length === 0) {
    // Deleting whole lines: take a line break with them, or an empty line would remain.
    if (end < L.text.length) end += 1;
    else if (start > 0) start -= 1;
  }
  return { start, end, text: body.join("\n") };
}

/** For a span inside a line: new_string minus the surrounding whitespace the model added to old_string. */
function partialReplacement(start: number, end: number, oldString: string, newString: string): Replacement {
  let text = newString;
  const lead = /^\s*/.exec(oldString)![0];
  const trail = oldString.slice(oldString.trimEnd().length);
  if (lead && text.startsWith(lead)) text = text.slice(lead.length);
  if (trail && text.endsWith(trail)) text = text.slice(0, text.length - trail.length);
  return { start, end, text };
}

/** A found span, made whole-line when only whitespace lies between it and the line's ends. */
function spanReplacement(L: Lines, start: number, end: number, oldString: string, newString: string): Replacement {
  const first = L.lineAt(start);
  const last = L.lineAt(Math.max(start, end - 1));
  const before = L.text.slice(L.starts[first]!, start);
  const after = L.text.slice(end, L.endOf(last));
  const spansLines = oldString.trim().includes("\n") || /^\s*\n/.test(oldString) || oldString.slice(oldString.trimEnd().length).includes("\n");
  if (spansLines && isBlank(before) && isBlank(after)) {
    return lineRegionReplacement(L, first, last, shape(oldString), newString);
  }
  return partialReplacement(start, end, oldString, newString);
}

function allIndexes(haystack: string, needle: string): number[] {
  const out: number[] = [];
  if (!needle) return out;
  // Overlapping occurrences count too ("pass\npass" twice in three "pass" lines is ambiguous).
  for (let i = haystack.indexOf(needle); i !== -1; i = haystack.indexOf(needle, i + 1)) out.push(i);
  return out;
}

/** Windows of file lines equal to the core lines under `eq`. */
function lineWindows(L: Lines, core: string[], eq: (fileLines: string[], core: string[]) => boolean): number[] {
  const out: number[] = [];
  const k = core.length;
  if (k === 0) return out;
  for (let i = 0; i + k <= L.lines.length; i++) {
    if (L.lines[i]!.trim() !== core[0]!.trim()) continue;
    if (eq(L.lines.slice(i, i + k), core)) out.push(i);
  }
  return out;
}

const trimmedEqual = (a: string[], b: string[]) => a.every((l, i) => l.trim() === b[i]!.trim());

function stripCommonIndent(lines: string[]): string[] {
  const ind = lines.filter((l) => !isBlank(l)).map((l) => /^[ \t]*/.exec(l)![0]);
  let common = ind[0] ?? "";
  for (const x of ind) while (!x.startsWith(common)) common = common.slice(0, -1);
  return lines.map((l) => (isBlank(l) ? "" : l.slice(common.length)));
}
const relativeIndentEqual = (a: string[], b: string[]) => {
  const x = stripCommonIndent(a);
  const y = stripCommonIndent(b);
  return x.every((l, i) => l === y[i]);
};

type Stage = { name: MatchStage; find(L: Lines, oldString: string, newString: string): Replacement[] };

function windowStage(name: MatchStage, eq: (a: string[], b: string[]) => boolean): Stage {
  return {
    name,
    find(L, oldString, newString) {
      const s = shape(oldString);
      return lineWindows(L, s.core, eq).map((i) => lineRegionReplacement(L, i, i + s.core.length - 1, s, newString));
    },
  };
}

const exact: Stage = {
  name: "exact",
  find: (L, o, n) => allIndexes(L.text, o).map((i) => ({ start: i, end: i + o.length, text: n })),
};

const whitespaceNormalised: Stage = {
  name: "whitespace-normalised",
  find(L, o, n) {
    const tokens = o.trim().split(/\s+/).filter(Boolean);
    if (tokens.length < 2) return [];
    const re = new RegExp(tokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"), "g");
    const out: Replacement[] = [];
    for (const m of L.text.matchAll(re)) out.push(spanReplacement(L, m.index, m.index + m[0].length, o, n));
    return out;
  },
};

const trimmedBoundaries: Stage = {
  name: "trimmed-boundaries",
  find(L, o, n) {
    const t = o.trim();
    if (t === o || !t) return [];
    return allIndexes(L.text, t).map((i) => spanReplacement(L, i, i + t.length, o, n));
  },
};

/** Similarity of two texts in [0, 1] by edit distance. */
function similarity(a: string, b: string): number {
  const max = Math.max(a.length, b.length);
  if (max === 0) return 1;
  if (max > 3000) {
    // Edit distance is quadratic; for long texts, the share of identical lines is close enough.
    const x = a.split("\n");
    const y = new Set(b.split("\n"));
    return x.filter((l) => y.has(l)).length / Math.max(x.length, b.split("\n").length);
  }
  return 1 - editDistance(a, b) / max;
}

const blockAnchor: Stage = {
  name: "block-anchor",
  find(L, o, n) {
    const s = shape(o);
    const k = s.core.length;
    if (k < 3) return [];
    const first = s.core[0]!.trim();
    const last = s.core[k - 1]!.trim();
    if (!first || !last) return [];
    const middle = s.core.slice(1, -1).map((l) => l.trim()).join("\n");
    const out: Replacement[] = [];
    const maxSpan = Math.ceil(k * 1.5) + 2;
    for (let i = 0; i < L.lines.length; i++) {
      if (L.lines[i]!.trim() !== first) continue;
      for (let j = i + 2; j < Math.min(L.lines.length, i + maxSpan); j++) {
        if (L.lines[j]!.trim() !== last) continue;
        const fileMiddle = L.lines.slice(i + 1, j).map((l) => l.trim()).join("\n");
        if (similarity(middle, fileMiddle) >= BLOCK_ANCHOR_MIN_SIMILARITY) {
          out.push(lineRegionReplacement(L, i, j, s, n));
          i = j;
        }
        break;
      }
    }
    return out;
  },
};

const LINE_PREFIX = /^ *\d+\t/;
/** The model pasted read's `cat -n` numbers into old_string. */
function withoutLinePrefixes(s: string): string | null {
  const lines = s.split("\n");
  const nonEmpty = lines.filter((l) => l !== "");
  if (nonEmpty.length === 0 || !nonEmpty.every((l) => LINE_PREFIX.test(l))) return null;
  return lines.map((l) => l.replace(LINE_PREFIX, "")).join("\n");
}

const ESCAPE_SETS: Array<[RegExp, (m: string) => string]> = [
  [/\\(["'`\\])/g, (m) => m.slice(1)],
  [/\\[ntr]/g, (m) => ({ "\\n": "\n", "\\t": "\t", "\\r": "" })[m]!],
  [/\\(["'`\\$])|\\[ntr]/g, (m) => ({ "\\n": "\n", "\\t": "\t", "\\r": "" })[m] ?? m.slice(1)],
];

const stages: Stage[] = [
  exact,
  {
    name: "line-number-prefixes",
    find(L, o, n) {
      const o2 = withoutLinePrefixes(o);
      if (o2 === null) return [];
      const n2 = withoutLinePrefixes(n) ?? n;
      const hits = exact.find(L, o2, n2);
      return hits.length ? hits : windowStage("line-trimmed", trimmedEqual).find(L, o2, n2);
    },
  },
  windowStage("indentation-flexible", relativeIndentEqual),
  windowStage("line-trimmed", trimmedEqual),
  whitespaceNormalised,
  {
    name: "escape-normalised",
    find(L, o, n) {
      for (const [re, fn] of ESCAPE_SETS) {
        const o2 = o.replace(re, fn);
        if (o2 === o) continue;
        const n2 = n.replace(re, fn);
        for (const st of [exact, windowStage("line-trimmed", trimmedEqual)]) {
          const hits = st.find(L, o2, n2);
          if (hits.length) return hits;
        }
      }
      return [];
    },
  },
  trimmedBoundaries,
  blockAnchor,
];

/** Drop candidates overlapping an earlier one (a repeated line can match overlapping windows). */
function nonOverlapping(rs: Replacement[]): Replacement[] {
  const sorted = [...rs].sort((a, b) => a.start - b.start);
  const out: Replacement[] = [];
  for (const r of sorted) if (!out.length || r.start >= out[out.length - 1]!.end) out.push(r);
  return out;
}

export function applyReplacements(text: string, rs: Replacement[]): string {
  let out = "";
  let pos = 0;
  for (const r of [...rs].sort((a, b) => a.start - b.start)) {
    out += text.slice(pos, r.start) + r.text;
    pos = r.end;
  }
  return out + text.slice(pos);
}

export function planEdit(content: string, oldString: string, newString: string, replaceAll = false): EditPlan {
  if (oldString === newString) {
    return { ok: false, kind: "no_change", message: "old_string and new_string are identical: there is nothing to change. Give the new text in new_string." };
  }
  const L = new Lines(content);
  for (const stage of stages) {
    const all = stage.find(L, oldString, newString);
    if (all.length === 0) continue;
    const found = replaceAll ? nonOverlapping(all) : all;
    if (found.length > 1 && !replaceAll) {
      const lines = found.map((r) => L.lineAt(r.start) + 1);
      return {
        ok: false,
        kind: "ambiguous",
        lines,
        message: `old_string matches ${found.length} places (lines ${lines.join(", ")})${stage.name === "exact" ? "" : ` after ${stage.name} matching`}. Include more surrounding lines to pick one, or set replace_all to change every one.`,
      };
    }
    const next = applyReplacements(content, found);
    if (next === content) {
      return { ok: false, kind: "no_change", message: "new_string is what the file already has at that place: the edit changes nothing (was it already applied?)." };
    }
    return { ok: true, stage: stage.name, replacements: found, content: next };
  }
  return { ok: false, kind: "not_found", message: notFoundMessage(L, oldString, newString) };
}

/** Where the text the model meant most likely is, so it can copy it exactly. */
function notFoundMessage(L: Lines, oldString: string, newString: string): string {
  const parts = ["old_string was not found in the file (even ignoring indentation, whitespace and escaping)."];
  const already = newString.trim() ? L.text.indexOf(newString.trim()) : -1;
  if (already !== -1) {
    parts.push(`new_string already appears at line ${L.lineAt(already) + 1}: the edit may already be applied.`);
  }
  const s = shape(oldString);
  const k = Math.max(1, s.core.length);
  const target = s.core.map((l) => l.trim()).join("\n");
  if (target) {
    // Rank windows by how many of the wanted lines they share (cheap), then by edit distance (dear)
    // for the few best, so a large file costs a hash lookup per line, not a distance per window.
    const wanted = new Set(s.core.map((l) => l.trim()).filter(Boolean));
    const trimmed = L.lines.map((l) => l.trim());
    const scored: Array<{ i: number; shared: number }> = [];
    for (let i = 0; i + k <= L.lines.length; i++) {
      let shared = 0;
      for (let j = 0; j < k; j++) if (wanted.has(trimmed[i + j]!)) shared++;
      scored.push({ i, shared });
    }
    scored.sort((a, b) => b.shared - a.shared || a.i - b.i);
    let best = -1;
    let bestSim = 0;
    for (const { i } of scored.slice(0, 25)) {
      const sim = similarity(target, trimmed.slice(i, i + k).join("\n"));
      if (sim > bestSim) {
        bestSim = sim;
        best = i;
      }
    }
    if (best >= 0 && bestSim >= 0.5) {
      const shown = L.lines.slice(best, best + k).map((l, j) => `${String(best + j + 1).padStart(6)}\t${l}`).join("\n");
      parts.push(`The closest text (${Math.round(bestSim * 100)}% similar) is at line ${best + 1}:\n${shown}\nCopy old_string exactly from the file (read it again if unsure).`);
    } else {
      parts.push("Read the file again and copy old_string exactly.");
    }
  }
  return parts.join(" ");
}
