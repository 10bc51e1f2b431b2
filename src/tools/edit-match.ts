// The replacement cascade behind the edit tool. Models copy old_string from memory, and memory is
// fuzzy in predictable ways: indentation, tabs, trailing spaces, blank lines, escaped quotes,
// look-alike characters, read's line-number prefixes, a markdown fence around both strings. Each
// stage forgives one more kind of mistake, runs only when the stricter ones found nothing, and
// must find exactly one place (or replace_all): a fuzzy match is never allowed to pick between
// several candidates. Tolerances are for finding the place only: what is written is new_string's
// change replayed onto the file's own lines (line-merge.ts), and an edit that would write the
// model's stale copy of a line is refused.
//
// Works on LF text; the edit tool maps spans back onto CRLF files.
import { foldLine, foldText, hasLookAlikes, keepFileCharacters, originalOffset } from "./edit-fold.ts";
import { inputReadings, type InputReading, type InputTolerance } from "./edit-input.ts";
import { replayOntoRegion } from "./line-merge.ts";
import { reindent } from "./reindent.ts";
import { editDistance } from "./suggest-paths.ts";

export type MatchStage =
  | "exact"
  | "indentation-flexible"
  | "line-trimmed"
  | "whitespace-normalised"
  | "escape-normalised"
  | "trimmed-boundaries"
  | "block-anchor";

/** Every way an edit may differ from an exact match, in the order they apply to the strings. */
export type Tolerance = InputTolerance | "look-alike-characters" | Exclude<MatchStage, "exact">;

/** A span of the content and the text that replaces it. */
export type Replacement = { start: number; end: number; text: string };

export type EditErrorKind = "no_change" | "not_found" | "ambiguous" | "stale";

export type EditPlan =
  | { ok: true; tolerances: Tolerance[]; replacements: Replacement[]; content: string }
  | { ok: false; kind: EditErrorKind; message: string; lines?: number[] };

const BLOCK_ANCHOR_MIN_SIMILARITY = 0.75;
const BLOCK_ANCHOR_ENDS_TRIED = 4;
const SHOWN_LINES_MAX = 60;

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
 * The text the stages search: the file as it is, or with look-alike characters folded (line for
 * line, so line numbers are the file's; offsets map back through `toRaw`).
 */
type View = { raw: Lines; L: Lines; folded: boolean; fold(s: string): string; toRaw(offset: number): number | null };

const rawView = (raw: Lines): View => ({ raw, L: raw, folded: false, fold: (s) => s, toRaw: (o) => o });

function foldedView(raw: Lines): View {
  const folded = raw.lines.map(foldLine);
  const L = new Lines(folded.map((f) => f.text).join("\n"));
  return {
    raw,
    L,
    folded: true,
    fold: foldText,
    toRaw(offset) {
      const line = L.lineAt(offset);
      const col = originalOffset(folded[line]!, offset - L.starts[line]!);
      return col === null ? null : raw.starts[line]! + col;
    },
  };
}

/**
 * A place old_string matched, in the file's own offsets: an exact span (the model's text is the
 * file's, maybe but for look-alike characters), a span found loosely, or whole lines. `o` and `n`
 * replace the strings when the stage read them differently (un-escaped).
 */
type Candidate = { start: number; end: number; how: "exact" | "span" | "lines"; first?: number; last?: number; o?: string; n?: string };

function spanAt(V: View, start: number, end: number, how: "exact" | "span"): Candidate[] {
  const a = V.toRaw(start);
  const b = V.toRaw(end);
  return a === null || b === null ? [] : [{ start: a, end: b, how }];
}
const linesAt = (V: View, first: number, last: number): Candidate => ({ start: V.raw.starts[first]!, end: V.raw.endOf(last), how: "lines", first, last });

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

type Stage = { name: MatchStage; find(V: View, oldString: string, newString: string): Candidate[] };

function windowStage(name: MatchStage, eq: (a: string[], b: string[]) => boolean): Stage {
  return {
    name,
    find(V, o) {
      const core = shape(V.fold(o)).core;
      return lineWindows(V.L, core, eq).map((i) => linesAt(V, i, i + core.length - 1));
    },
  };
}

const exact: Stage = {
  name: "exact",
  find(V, o) {
    const f = V.fold(o);
    return allIndexes(V.L.text, f).flatMap((i) => spanAt(V, i, i + f.length, "exact"));
  },
};

const whitespaceNormalised: Stage = {
  name: "whitespace-normalised",
  find(V, o) {
    const tokens = V.fold(o).trim().split(/\s+/).filter(Boolean);
    if (tokens.length < 2) return [];
    const re = new RegExp(tokens.map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("\\s+"), "g");
    return [...V.L.text.matchAll(re)].flatMap((m) => spanAt(V, m.index, m.index + m[0].length, "span"));
  },
};

const trimmedBoundaries: Stage = {
  name: "trimmed-boundaries",
  find(V, o) {
    const t = V.fold(o.trim());
    if (o.trim() === o || !t) return [];
    return allIndexes(V.L.text, t).flatMap((i) => spanAt(V, i, i + t.length, "span"));
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
  find(V, o) {
    const { core } = shape(V.fold(o));
    const k = core.length;
    if (k < 3) return [];
    const first = core[0]!.trim();
    const last = core[k - 1]!.trim();
    if (!first || !last) return [];
    const middle = core.slice(1, -1).map((l) => l.trim()).join("\n");
    const lines = V.L.lines;
    const out: Candidate[] = [];
    const maxSpan = Math.ceil(k * 1.5) + 2;
    for (let i = 0; i < lines.length; i++) {
      if (lines[i]!.trim() !== first) continue;
      // The end is not simply the first closing line (a bare `}` closes inner blocks too): the
      // few closest to old_string's size are tried, closest first.
      const ends: number[] = [];
      for (let j = i + 2; j < Math.min(lines.length, i + maxSpan); j++) if (lines[j]!.trim() === last) ends.push(j);
      ends.sort((a, b) => Math.abs(a - i + 1 - k) - Math.abs(b - i + 1 - k) || a - b);
      const end = ends.slice(0, BLOCK_ANCHOR_ENDS_TRIED).find((j) => similarity(middle, lines.slice(i + 1, j).map((l) => l.trim()).join("\n")) >= BLOCK_ANCHOR_MIN_SIMILARITY);
      if (end !== undefined) {
        out.push(linesAt(V, i, end));
        i = end;
      }
    }
    return out;
  },
};

const ESCAPE_SETS: Array<[RegExp, (m: string) => string]> = [
  [/\\(["'`\\])/g, (m) => m.slice(1)],
  [/\\[ntr]/g, (m) => ({ "\\n": "\n", "\\t": "\t", "\\r": "" })[m]!],
  [/\\(["'`\\$])|\\[ntr]/g, (m) => ({ "\\n": "\n", "\\t": "\t", "\\r": "" })[m] ?? m.slice(1)],
];

const lineTrimmed = windowStage("line-trimmed", trimmedEqual);

const escapeNormalised: Stage = {
  name: "escape-normalised",
  find(V, o, n) {
    for (const [re, fn] of ESCAPE_SETS) {
      const o2 = o.replace(re, fn);
      if (o2 === o) continue;
      const n2 = n.replace(re, fn);
      for (const st of [exact, lineTrimmed]) {
        const hits = st.find(V, o2, n2);
        if (hits.length) return hits.map((h) => ({ ...h, o: o2, n: n2 }));
      }
    }
    return [];
  },
};

/** Stricter first. */
const STAGES: Stage[] = [exact, windowStage("indentation-flexible", relativeIndentEqual), lineTrimmed, whitespaceNormalised, escapeNormalised, trimmedBoundaries, blockAnchor];

type Refusal = { why: "stale" | "unseen"; lines: string[]; first: number; last: number };

/**
 * The replacement for a match that covers whole lines [first, last] of the file: the change from
 * old_string to new_string (minus the blank lines the model put around old_string, re-indented to
 * the file) replayed onto those lines.
 */
function lineRegionReplacement(L: Lines, first: number, last: number, oldS: Shape, newString: string): Replacement | Refusal {
  const newLines = newString.split("\n");
  let a = 0;
  let b = newLines.length;
  for (let i = 0; i < oldS.leadBlank && a < b && isBlank(newLines[a]!); i++) a++;
  for (let i = 0; i < oldS.trailBlank && b > a && isBlank(newLines[b - 1]!); i++) b--;
  const fileLines = L.lines.slice(first, last + 1);
  const mid = newLines.slice(a, b);
  const replayed = replayOntoRegion(oldS.core, fileLines, mid, reindent(oldS.core, fileLines, mid));
  if (!replayed.ok) return { why: replayed.why, lines: replayed.lines, first, last };
  const body = replayed.lines;
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

/** A span found loosely, made whole-line when only whitespace lies between it and the line's ends. */
function spanReplacement(L: Lines, start: number, end: number, oldString: string, newString: string): Replacement | Refusal {
  const first = L.lineAt(start);
  const last = L.lineAt(Math.max(start, end - 1));
  const before = L.text.slice(L.starts[first]!, start);
  const after = L.text.slice(end, L.endOf(last));
  const spansLines = oldString.trim().includes("\n") || /^\s*\n/.test(oldString) || oldString.slice(oldString.trimEnd().length).includes("\n");
  // A line given with its indentation is a whole line, even found from its first word on: its
  // replacement takes the place of the line, indentation included.
  const wholeLine = /^[ \t]/.test(oldString);
  if ((spansLines || wholeLine) && isBlank(before) && isBlank(after)) {
    return lineRegionReplacement(L, first, last, shape(oldString), newString);
  }
  const r = partialReplacement(start, end, oldString, newString);
  // Spaces the file has as no-break ones (whitespace to \s) stay so, as look-alikes do.
  return { ...r, text: keepFileCharacters(oldString.trim(), L.text.slice(start, end), r.text) ?? r.text };
}

/** What replaces a candidate, or why the edit cannot be made there. */
function replacementFor(L: Lines, c: Candidate, reading: InputReading, folded: boolean): Replacement | Refusal {
  const o = c.o ?? reading.oldString;
  const n = c.n ?? reading.newString;
  if (c.how === "lines") return lineRegionReplacement(L, c.first!, c.last!, shape(o), n);
  if (c.how === "span") return spanReplacement(L, c.start, c.end, o, n);
  if (!folded) return { start: c.start, end: c.end, text: n };
  // The model's text is the file's but for look-alike characters: its change, replayed line by
  // line, keeps the file's characters in what it did not change.
  const replayed = replayOntoRegion(o.split("\n"), L.text.slice(c.start, c.end).split("\n"), n.split("\n"), n.split("\n"));
  if (!replayed.ok) return { why: replayed.why, lines: replayed.lines, first: L.lineAt(c.start), last: L.lineAt(Math.max(c.start, c.end - 1)) };
  return { start: c.start, end: c.end, text: replayed.lines.join("\n") };
}

/** Drop candidates overlapping an earlier one: replace_all goes left to right, as every string API. */
function nonOverlapping<T extends { start: number; end: number }>(rs: T[]): T[] {
  const sorted = [...rs].sort((a, b) => a.start - b.start);
  const out: T[] = [];
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

const TOLERANCE_WORDS: Record<Tolerance, string> = {
  "line-number-prefixes": "line-number prefixes",
  "markdown-fence": "a markdown fence",
  "look-alike-characters": "look-alike characters",
  "indentation-flexible": "indentation",
  "line-trimmed": "indentation and trailing whitespace",
  "whitespace-normalised": "whitespace",
  "escape-normalised": "escaping",
  "trimmed-boundaries": "surrounding whitespace",
  "block-anchor": "the lines between its first and last",
};

export function planEdit(content: string, oldString: string, newString: string, replaceAll = false): EditPlan {
  if (oldString === newString) {
    return { ok: false, kind: "no_change", message: "old_string and new_string are identical: there is nothing to change. Give the new text in new_string." };
  }
  const raw = new Lines(content);
  const readings: InputReading[] = [{ oldString, newString, used: [] }, ...inputReadings(oldString, newString)];
  // The folded file is made once, when the first stage fails on the file as it is.
  const foldable = hasLookAlikes(content) || readings.some((r) => hasLookAlikes(r.oldString));
  let folded: View | null = null;
  const views = function* (): Generator<View> {
    yield rawView(raw);
    if (foldable) yield (folded ??= foldedView(raw));
  };
  // A stage is tried on every reading of the strings, and on the folded file, before a looser
  // one: look-alike characters and read's line numbers change no structure, so an exact match
  // through them is stricter than any whitespace-forgiving one.
  for (const stage of STAGES) {
    for (const view of views()) {
      for (const reading of readings) {
        if (reading.oldString === "") continue;
        const all = stage.find(view, reading.oldString, reading.newString);
        if (all.length === 0) continue;
        const tolerances: Tolerance[] = [...reading.used, ...(view.folded ? (["look-alike-characters"] as const) : []), ...(stage.name === "exact" ? [] : [stage.name])];
        return decide(raw, all, reading, view.folded, tolerances, replaceAll);
      }
    }
  }
  return { ok: false, kind: "not_found", message: notFoundMessage(raw, oldString, newString) };
}

/** The plan for the candidates the first successful stage found. */
function decide(L: Lines, all: Candidate[], reading: InputReading, folded: boolean, tolerances: Tolerance[], replaceAll: boolean): EditPlan {
  const found = replaceAll ? nonOverlapping(all) : all;
  const ignoring = tolerances.length ? ` ignoring ${tolerances.map((t) => TOLERANCE_WORDS[t]).join(", ")}` : "";
  if (found.length > 1 && !replaceAll) {
    const lines = found.map((r) => L.lineAt(r.start) + 1);
    return {
      ok: false,
      kind: "ambiguous",
      lines,
      message: `old_string matches ${found.length} places (lines ${lines.join(", ")})${ignoring}. Include more surrounding lines to pick one, or set replace_all to change every one.`,
    };
  }
  const replacements: Replacement[] = [];
  for (const c of found) {
    const r = replacementFor(L, c, reading, folded);
    if ("why" in r) return { ok: false, kind: "stale", lines: [r.first + 1], message: staleMessage(L, r, ignoring) };
    replacements.push(r);
  }
  const next = applyReplacements(L.text, replacements);
  if (next === L.text) {
    return { ok: false, kind: "no_change", message: "new_string is what the file already has at that place: the edit changes nothing (was it already applied?)." };
  }
  return { ok: true, tolerances, replacements, content: next };
}

const numbered = (L: Lines, first: number, last: number) => {
  const shown = L.lines.slice(first, Math.min(last, first + SHOWN_LINES_MAX - 1) + 1).map((l, j) => `${String(first + j + 1).padStart(6)}\t${l}`);
  if (last - first + 1 > SHOWN_LINES_MAX) shown.push(`   (${last - first + 1 - SHOWN_LINES_MAX} more lines)`);
  return shown.join("\n");
};

/** Why a loose match was not applied, with the file's lines so the model can copy them. */
function staleMessage(L: Lines, r: Refusal, ignoring: string): string {
  const where = r.first === r.last ? `line ${r.first + 1}` : `lines ${r.first + 1}-${r.last + 1}`;
  const quoted = r.lines.slice(0, 5).map((l) => `    ${l.trim()}`).join("\n");
  const problem =
    r.why === "stale"
      ? `new_string keeps lines as old_string has them, but they differ from the file there (your copy of them is out of date):\n${quoted}\nNothing was written: keeping them would write your copy over the file's.`
      : `the file has lines there that old_string lacks, and they differ from the file as you remember it; where your change goes among them cannot be told:\n${quoted}\nNothing was written.`;
  return `old_string matched ${where} only${ignoring}, and ${problem} The file has:\n${numbered(L, r.first, r.last)}\nCopy old_string (and the lines you keep in new_string) from these lines exactly, then retry.`;
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
