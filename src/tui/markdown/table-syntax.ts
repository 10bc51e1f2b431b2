// GFM table row syntax: splitting a row into cells and reading the delimiter row's alignments.
import type { Align } from "./ast.ts";

/** Cells of a table row: outer pipes optional, `\|` is a literal pipe (kept escaped for inline parsing). */
export function splitTableRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith("|")) s = s.slice(1);
  if (s.endsWith("|") && !s.endsWith("\\|")) s = s.slice(0, -1);
  const cells: string[] = [];
  let cell = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === "\\" && s[i + 1] === "|") {
      cell += "|";
      i++;
    } else if (c === "|") {
      cells.push(cell.trim());
      cell = "";
    } else cell += c;
  }
  cells.push(cell.trim());
  return cells;
}

const reDelimiterCell = /^:?-+:?$/;

/** Alignments when `line` is a delimiter row (`| --- | :-: |`), else null. */
export function parseDelimiterRow(line: string): Align[] | null {
  if (!/^[\s|:-]+$/.test(line) || !line.includes("-")) return null;
  const cells = splitTableRow(line);
  const align: Align[] = [];
  for (const c of cells) {
    if (!reDelimiterCell.test(c)) return null;
    const left = c.startsWith(":");
    const right = c.endsWith(":");
    align.push(left && right ? "center" : right ? "right" : left ? "left" : null);
  }
  return align;
}
