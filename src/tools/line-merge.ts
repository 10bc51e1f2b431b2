// When old_string matched a region whose lines differ from it (blank lines the model forgot, a line
// it misremembered), replacing the whole region with new_string would also undo those differences.
// Instead we take the change the model meant — old_string → new_string, line by line — and replay
// it onto the region: lines the model did not touch stay as the file has them.
import { diffArrays } from "diff";

const norm = (l: string) => l.trim().replace(/\s+/g, " ");

type Part = { added?: boolean; removed?: boolean; value: string[]; count?: number };

/** The region with the model's edit replayed onto it, or null when the edit cannot be placed. */
export function replayEdit(oldLines: string[], regionLines: string[], newLines: string[]): string[] | null {
  // Where each old line sits in the region (null: the region does not have it).
  const at: Array<number | null> = [];
  let ri = 0;
  for (const part of diffArrays(oldLines.map(norm), regionLines.map(norm)) as Part[]) {
    const n = part.value.length;
    if (part.added) ri += n;
    else if (part.removed) for (let k = 0; k < n; k++) at.push(null);
    else for (let k = 0; k < n; k++) at.push(ri++);
  }
  if (at.every((x) => x === null)) return null;

  type Splice = { start: number; end: number; insert: string[] };
  const splices: Splice[] = [];
  const insertPos = (oi: number) => {
    for (let k = oi - 1; k >= 0; k--) if (at[k] !== null && at[k] !== undefined) return at[k]! + 1;
    for (let k = oi; k < at.length; k++) if (at[k] !== null && at[k] !== undefined) return at[k]!;
    return 0;
  };
  let oi = 0;
  let ni = 0;
  const parts = diffArrays(oldLines.map(norm), newLines.map(norm)) as Part[];
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    const n = part.value.length;
    if (part.removed) {
      const idx = at.slice(oi, oi + n).filter((x): x is number => x !== null);
      // Removing a line the file does not have, or one that is not where the others are: give up.
      if (idx.length !== at.slice(oi, oi + n).filter((_, k) => norm(oldLines[oi + k]!) !== "").length) return null;
      if (idx.length && idx[idx.length - 1]! - idx[0]! + 1 > n + 2) return null;
      const next = parts[p + 1];
      let insert: string[] = [];
      if (next?.added) {
        insert = newLines.slice(ni, ni + next.value.length);
        ni += next.value.length;
        p++;
      }
      const start = idx.length ? idx[0]! : insertPos(oi);
      const end = idx.length ? idx[idx.length - 1]! + 1 : start;
      splices.push({ start, end, insert });
      oi += n;
    } else if (part.added) {
      splices.push({ start: insertPos(oi), end: insertPos(oi), insert: newLines.slice(ni, ni + n) });
      ni += n;
    } else {
      oi += n;
      ni += n;
    }
  }
  const out = [...regionLines];
  for (const s of splices.sort((a, b) => b.start - a.start)) out.splice(s.start, s.end - s.start, ...s.insert);
  return out;
}
