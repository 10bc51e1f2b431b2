// When old_string matched a region of the file only loosely (other indentation, blank lines the
// model forgot, look-alike characters, or just its first and last lines), the model's copy of the
// region is not the file. Writing new_string over the region would write that copy: a line the
// model kept but remembered wrongly would land with the model's stale value. So the model's change
// (old_string → new_string, line by line) is replayed onto the region instead:
//
// - a line new_string keeps is written as the file has it;
// - what new_string changes replaces the file's lines it was matched to, and nothing else;
// - a kept line the file has differently (not just in whitespace or look-alike characters) makes
//   the edit refuse: the model means to keep a line whose real value it does not know;
// - file lines old_string lacks stay, unless the change falls among them: then where it goes
//   would be a guess, and the edit refuses.
import { diffArrays } from "diff";
import { foldText, keepFileCharacters } from "./edit-fold.ts";

const isBlank = (l: string) => l.trim() === "";
const indentOf = (l: string) => /^[ \t]*/.exec(l)![0];
const lineKey = (l: string) => foldText(l).trim().replace(/\s+/g, " ");
const textKey = (ls: string[]) => foldText(ls.join("\n")).trim().replace(/\s+/g, " ");

/**
 * How a stretch of old_string lines [o0, o1) sits on region lines [r0, r1):
 * same: one line each, alike; equivalent: alike once whitespace is ignored (rewrapped lines, other
 * blank lines); stale: lines the file has differently; extra: file lines old_string lacks;
 * phantom: blank lines old_string has and the file does not.
 */
type Seg = { o0: number; o1: number; r0: number; r1: number; kind: "same" | "equivalent" | "stale" | "extra" | "phantom" };

function classify(o: string[], r: string[]): Seg["kind"] {
  if (o.length === 0) return "extra";
  if (o.every(isBlank) && r.every(isBlank)) return r.length ? "equivalent" : "phantom";
  return textKey(o) === textKey(r) ? "equivalent" : "stale";
}

function align(oldLines: string[], region: string[]): Seg[] {
  const segs: Seg[] = [];
  let oi = 0;
  let ri = 0;
  let open: Seg | null = null;
  const close = () => {
    if (open) segs.push({ ...open, kind: classify(oldLines.slice(open.o0, open.o1), region.slice(open.r0, open.r1)) });
    open = null;
  };
  for (const part of diffArrays(oldLines.map(lineKey), region.map(lineKey))) {
    const n = part.value.length;
    if (part.removed || part.added) {
      open ??= { o0: oi, o1: oi, r0: ri, r1: ri, kind: "stale" };
      if (part.removed) open.o1 = oi += n;
      else open.r1 = ri += n;
      continue;
    }
    close();
    for (let k = 0; k < n; k++) segs.push({ o0: oi + k, o1: oi + k + 1, r0: ri + k, r1: ri + k + 1, kind: "same" });
    oi += n;
    ri += n;
  }
  close();
  return segs;
}

export type RegionEdit =
  | { ok: true; lines: string[] }
  /** stale: new_string keeps `lines` (the model's copies) that the file has differently; unseen: the change falls among `lines` of the file old_string lacks. */
  | { ok: false; why: "stale" | "unseen"; lines: string[] };

/**
 * The region with the change from `oldLines` to `newLines` replayed onto it. `written` is
 * newLines as they are to be written (re-indented to the file), line for line.
 */
export function replayOntoRegion(oldLines: string[], region: string[], newLines: string[], written: string[]): RegionEdit {
  const segs = align(oldLines, region);
  const segOf: Seg[] = [];
  for (const s of segs) for (let i = s.o0; i < s.o1; i++) segOf[i] = s;

  // keptAs[i]: the line of new_string that keeps old line i unchanged, or -1.
  const keptAs: number[] = oldLines.map(() => -1);
  let oi = 0;
  let ni = 0;
  for (const part of diffArrays(oldLines, newLines)) {
    const n = part.value.length;
    if (part.removed) oi += n;
    else if (part.added) ni += n;
    else for (let k = 0; k < n; k++) keptAs[oi++] = ni++;
  }

  const staleKept = oldLines.filter((l, i) => segOf[i]!.kind === "stale" && keptAs[i]! >= 0 && !isBlank(l));
  if (staleKept.length) return { ok: false, why: "stale", lines: staleKept };

  // A change touching lines that sit on the file only as a group (rewrapped, other blank lines)
  // takes the whole group: its lines have no one-to-one places to keep.
  for (const s of segs) {
    if (s.kind === "same" || s.kind === "extra") continue;
    let touched = false;
    for (let i = s.o0; i < s.o1; i++) {
      if (keptAs[i]! < 0) touched = true;
      else if (i + 1 < s.o1 && keptAs[i + 1]! >= 0 && keptAs[i + 1]! - keptAs[i]! > 1) touched = true;
    }
    if (touched) for (let i = s.o0; i < s.o1; i++) keptAs[i] = -1;
  }

  const start = (i: number) => (i < 0 ? 0 : i >= oldLines.length ? region.length : segOf[i]!.r0);
  const end = (i: number) => (i < 0 ? 0 : i >= oldLines.length ? region.length : segOf[i]!.r1);
  type Splice = { r0: number; r1: number; lines: string[] };
  const splices: Splice[] = [];
  const anchors = [-1, ...oldLines.flatMap((_, i) => (keptAs[i]! >= 0 ? [i] : [])), oldLines.length];
  for (let k = 0; k + 1 < anchors.length; k++) {
    const a = anchors[k]!;
    const b = anchors[k + 1]!;
    const n0 = a < 0 ? 0 : keptAs[a]! + 1;
    const n1 = b >= oldLines.length ? newLines.length : keptAs[b]!;
    if (b === a + 1 && n1 === n0) continue;
    const claimed = new Set<number>();
    for (let i = a + 1; i < b; i++) for (let r = segOf[i]!.r0; r < segOf[i]!.r1; r++) claimed.add(r);
    let r0: number;
    let r1: number;
    if (claimed.size) {
      r0 = Math.min(...claimed);
      r1 = Math.max(...claimed) + 1;
    } else {
      // Nothing of the file is replaced: the new lines go after the line before them, which is
      // only clear when no line of the file that old_string lacks sits between.
      r0 = r1 = a < 0 ? start(b) : end(a);
      const between = region.slice(end(a), start(b));
      if (between.some((l) => !isBlank(l))) return { ok: false, why: "unseen", lines: between };
    }
    const unseen = region.slice(r0, r1).filter((l, j) => !claimed.has(r0 + j) && !isBlank(l));
    if (unseen.length) return { ok: false, why: "unseen", lines: unseen };
    splices.push({ r0, r1, lines: keepCharacters(oldLines.slice(a + 1, b), region.slice(r0, r1), written.slice(n0, n1), segs, a + 1) });
  }
  const out = [...region];
  for (const s of splices.sort((x, y) => y.r0 - x.r0)) out.splice(s.r0, s.r1 - s.r0, ...s.lines);
  return { ok: true, lines: out };
}

/**
 * Lines changed one for one, each alike its file line but for look-alike characters: the file's
 * characters are kept in the part of the line the model left as it was.
 */
function keepCharacters(oldLines: string[], fileLines: string[], written: string[], segs: Seg[], firstOld: number): string[] {
  if (oldLines.length !== fileLines.length || oldLines.length !== written.length) return written;
  if (!segs.every((s) => s.o1 <= firstOld || s.o0 >= firstOld + oldLines.length || s.kind === "same")) return written;
  return written.map((w, k) => {
    const o = oldLines[k]!;
    const f = fileLines[k]!;
    const ind = indentOf(w);
    const kept = keepFileCharacters(o.slice(indentOf(o).length), f.slice(indentOf(f).length), w.slice(ind.length));
    return kept === null ? w : ind + kept;
  });
}
