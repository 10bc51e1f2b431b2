// A unified diff with a line number on every line, so the model can see exactly what changed and
// where without reading the file again; plus the plain unified diff for the UI's diff view.
import { createTwoFilesPatch, structuredPatch } from "diff";

/** One hunk as Claude Code's structuredPatch gives it (its hooks read them). */
export type DiffHunk = { oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] };

export type DiffSummary = { added: number; removed: number; numbered: string; unified: string; hunks: DiffHunk[] };

export function diffTexts(path: string, before: string, after: string, context = 3): DiffSummary {
  const patch = structuredPatch(path, path, before, after, "", "", { context });
  let added = 0;
  let removed = 0;
  const out: string[] = [];
  for (const h of patch.hunks) {
    out.push(`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`);
    let o = h.oldStart;
    let n = h.newStart;
    for (const line of h.lines) {
      const mark = line[0];
      const text = line.slice(1);
      if (mark === "\\") continue; // "\ No newline at end of file"
      if (mark === "+") {
        added++;
        out.push(`+${String(n++).padStart(5)}  ${text}`);
      } else if (mark === "-") {
        removed++;
        out.push(`-${String(o++).padStart(5)}  ${text}`);
      } else {
        out.push(` ${String(n).padStart(5)}  ${text}`);
        o++;
        n++;
      }
    }
  }
  const hunks = patch.hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({ oldStart, oldLines, newStart, newLines, lines }));
  return { added, removed, numbered: out.join("\n"), unified: createTwoFilesPatch(path, path, before, after, "", "", { context }), hunks };
}

/** Fit a diff into `max` characters for the model, saying how much was left out. */
export function clipDiff(numbered: string, max: number): string {
  if (numbered.length <= max) return numbered;
  const cut = numbered.slice(0, max);
  const nl = cut.lastIndexOf("\n");
  const kept = nl > 0 ? cut.slice(0, nl) : cut;
  const restLines = numbered.slice(kept.length).split("\n").length - 1;
  return `${kept}\n[... ${restLines} more diff lines not shown; read the file to see them]`;
}
