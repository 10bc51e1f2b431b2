// When the model's old_string matched only after ignoring indentation, its new_string carries the
// same wrong indentation. We learn how the model's indentation maps onto the file's (a shift, a
// scale such as 4 → 2 spaces, tabs ↔ spaces) from the lines that matched, and apply that mapping
// to new_string, so the inserted code sits where the matched code sat.

const indentOf = (line: string): string => /^[ \t]*/.exec(line)![0];
const isBlank = (line: string) => line.trim() === "";

/** Visual width of an indentation, tabs advancing to the next multiple of `tab`. */
function width(indent: string, tab: number): number {
  let col = 0;
  for (const ch of indent) col = ch === "\t" ? (Math.floor(col / tab) + 1) * tab : col + 1;
  return col;
}

type Mapping = { tab: number; scale: number; shift: number };

function findMapping(pairs: Array<[string, string]>): Mapping | null {
  for (const tab of [4, 2, 8]) {
    for (const scale of [1, 0.5, 2]) {
      const [o0, f0] = pairs[0]!;
      const shift = width(f0, tab) - width(o0, tab) * scale;
      if (pairs.every(([o, f]) => width(f, tab) === width(o, tab) * scale + shift)) return { tab, scale, shift };
    }
  }
  return null;
}

/**
 * Re-indent `newLines` by the mapping from `oldLines` (as the model wrote them) to `fileLines`
 * (what they matched). Returns newLines unchanged when there is nothing to fix or no consistent
 * mapping (guessing would be worse than the model's own text).
 */
export function reindent(oldLines: string[], fileLines: string[], newLines: string[]): string[] {
  const o = oldLines.filter((l) => !isBlank(l)).map(indentOf);
  const f = fileLines.filter((l) => !isBlank(l)).map(indentOf);
  if (o.length === 0 || f.length === 0) return newLines;
  const pairs: Array<[string, string]> = o.length === f.length ? o.map((x, i) => [x, f[i]!]) : [[o[0]!, f[0]!]];
  if (pairs.every(([a, b]) => a === b)) return newLines;
  const fileUsesTabs = f.some((x) => x.includes("\t"));
  const fileUsesSpaces = f.some((x) => x.includes(" "));
  const m = findMapping(pairs);
  if (!m) return o.length === f.length ? reindentByLines(oldLines, fileLines, newLines, fileUsesTabs) : newLines;
  return newLines.map((line) => {
    if (isBlank(line)) return line.length ? "" : line;
    const ind = indentOf(line);
    const col = Math.max(0, Math.round(width(ind, m.tab) * m.scale + m.shift));
    const tabs = fileUsesTabs || (!fileUsesSpaces && ind.includes("\t"));
    const rendered = tabs ? "\t".repeat(Math.floor(col / m.tab)) + " ".repeat(col % m.tab) : " ".repeat(col);
    return rendered + line.slice(ind.length);
  });
}

/**
 * No single mapping fits (the model's relative indentation was wrong too, e.g. everything flush
 * left). Lines of new_string that repeat a line of old_string take the indentation of the file
 * line it matched; other lines keep their offset from the line before them.
 */
function reindentByLines(oldLines: string[], fileLines: string[], newLines: string[], tabs: boolean): string[] {
  const TAB = 4;
  const o = oldLines.filter((l) => !isBlank(l));
  const f = fileLines.filter((l) => !isBlank(l));
  const render = (col: number) => (tabs ? "\t".repeat(Math.floor(col / TAB)) + " ".repeat(col % TAB) : " ".repeat(col));
  let next = 0;
  let prev: { modelCol: number; fileCol: number } = { modelCol: width(indentOf(o[0]!), TAB), fileCol: width(indentOf(f[0]!), TAB) };
  return newLines.map((line) => {
    if (isBlank(line)) return line.length ? "" : line;
    const body = line.trimStart();
    const modelCol = width(indentOf(line), TAB);
    let j = next;
    while (j < o.length && o[j]!.trim() !== body.trimEnd()) j++;
    let fileCol: number;
    if (j < o.length) {
      fileCol = width(indentOf(f[j]!), TAB);
      next = j + 1;
    } else {
      fileCol = Math.max(0, prev.fileCol + modelCol - prev.modelCol);
    }
    prev = { modelCol, fileCol };
    return render(fileCol) + body;
  });
}
