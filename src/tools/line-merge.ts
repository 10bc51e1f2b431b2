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

/**
 * Lines equal as they are pair first, then, between them, lines alike once whitespace and
 * look-alikes are ignored: a bare `}` pairs with the file's `}`, not with an indented one before it.
 */
function align(oldLines: string[], region: string[]): Seg[] {
  const segs: Seg[] = [];
  const pairStretch = (o0: number, o1: number, r0: number, r1: number, key: ((l: string) => string) | null) => {
    let oi = o0;
    let ri = r0;
    let open: { o0: number; r0: number } | null = null;
    const close = () => {
      if (!open) return;
      if (key) segs.push({ o0: open.o0, o1: oi, r0: open.r0, r1: ri, kind: classify(oldLines.slice(open.o0, oi), region.slice(open.r0, ri)) });
      else pairStretch(open.o0, oi, open.r0, ri, lineKey);
      open = null;
    };
    const k = key ?? ((l: string) => l);
    for (const part of diffArrays(oldLines.slice(o0, o1).map(k), region.slice(r0, r1).map(k))) {
      const n = part.value.length;
      if (part.removed || part.added) {
        open ??= { o0: oi, r0: ri };
        if (part.removed) oi += n;
        else ri += n;
        continue;
      }
      close();
      for (let j = 0; j < n; j++) segs.push({ o0: oi + j, o1: oi + j + 1, r0: ri + j, r1: ri + j + 1, kind: "same" });
      oi += n;
      ri += n;
    }
    close();
  };
  pairStretch(0, oldLines.length, 0, region.length, null);
  return slideRepeats(segs, oldLines, region);
}

/**
 * With a repeated line, a diff may pair old_string's copy of it with the wrong one of the file's:
 * old `endzz, end` on the file's `end, end` pairs `end` with the first and leaves `endzz` with
 * nothing, so the line the model misremembered has no place and the file's second `end` looks
 * unseen. Where the pairs can slide over repeated lines to put a line old_string alone has beside
 * lines the file alone has, they slide, and the two become one stretch of lines that differ.
 */
function slideRepeats(segs: Seg[], oldLines: string[], region: string[]): Seg[] {
  const onlyOld = (s: Seg | undefined) => s !== undefined && s.o1 > s.o0 && s.r0 === s.r1;
  const onlyFile = (s: Seg | undefined) => s !== undefined && s.kind === "extra";
  for (let i = 0; i < segs.length; i++) {
    let m = 0;
    while (segs[i + 1 + m]?.kind === "same") m++;
    if (m === 0) continue;
    const a = segs[i]!;
    const b = segs[i + m + 1];
    const pairs = segs.slice(i + 1, i + 1 + m);
    const rs = pairs[0]!.r0;
    if (onlyOld(a) && onlyFile(b)) {
      const q = b!.r1 - b!.r0;
      if (!pairs.every((_, j) => region[rs + j] === region[rs + q + j])) continue;
      const moved = pairs.map((p, j) => ({ ...p, r0: rs + q + j, r1: rs + q + j + 1 }));
      const merged: Seg = { o0: a.o0, o1: a.o1, r0: rs, r1: rs + q, kind: classify(oldLines.slice(a.o0, a.o1), region.slice(rs, rs + q)) };
      segs.splice(i, m + 2, merged, ...moved);
    } else if (onlyFile(a) && onlyOld(b)) {
      const q = a.r1 - a.r0;
      if (!pairs.every((_, j) => region[a.r0 + j] === region[rs + j])) continue;
      const moved = pairs.map((p, j) => ({ ...p, r0: a.r0 + j, r1: a.r0 + j + 1 }));
      const r0 = a.r0 + m;
      const merged: Seg = { o0: b!.o0, o1: b!.o1, r0, r1: r0 + q, kind: classify(oldLines.slice(b!.o0, b!.o1), region.slice(r0, r0 + q)) };
      segs.splice(i, m + 2, ...moved, merged);
    }
  }
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

  // Kept, or carried over anywhere in new_string (moved lines are not kept lines to a diff).
  const carried = new Set(newLines.map((l) => l.trim()));
  const staleKept = oldLines.filter((l, i) => segOf[i]!.kind === "stale" && !isBlank(l) && (keptAs[i]! >= 0 || carried.has(l.trim())));
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
