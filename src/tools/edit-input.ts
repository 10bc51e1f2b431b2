// What models wrap around old_string and new_string when they copy them from elsewhere: read's
// line numbers (`    12\t` as `cat -n` prints them, `    12→` as Claude Code's read does) and a
// markdown code fence. Each reading of the pair is tried only when the strings as sent match
// nothing; it is a way to read the strings, never a change to the file.

export type InputTolerance = "line-number-prefixes" | "markdown-fence";

/** The strings as they are to be matched and written, and how they were read to get there. */
export type InputReading = { oldString: string; newString: string; used: InputTolerance[] };

const LINE_PREFIX = /^ *\d+(?:\t|→)/;

/** `s` without read's line-number prefixes, or null when not every line has one. */
function withoutLinePrefixes(s: string): string | null {
  const lines = s.split("\n");
  const nonEmpty = lines.filter((l) => l !== "");
  if (nonEmpty.length === 0 || !nonEmpty.every((l) => LINE_PREFIX.test(l))) return null;
  return lines.map((l) => l.replace(LINE_PREFIX, "")).join("\n");
}

const FENCE_OPEN = /^[ \t]*(`{3,}|~{3,})[^`\s]*[ \t]*$/;

/** What a fence around the whole of `s` encloses, or null when `s` is not fenced. */
function insideFence(s: string): string | null {
  const lines = s.split("\n");
  while (lines.length && lines[lines.length - 1]!.trim() === "") lines.pop();
  if (lines.length < 2) return null;
  const open = FENCE_OPEN.exec(lines[0]!);
  if (!open) return null;
  if (lines[lines.length - 1]!.trim() !== open[1]) return null;
  return lines.slice(1, -1).join("\n");
}

/** The readings of the pair after the one as sent, most literal first. */
export function inputReadings(oldString: string, newString: string): InputReading[] {
  const out: InputReading[] = [];
  const unfenced = (() => {
    const o = insideFence(oldString);
    const n = insideFence(newString);
    // Only when both carry the fence: with one alone, whether the other's lines are meant as
    // content cannot be told.
    return o !== null && n !== null && o !== "" ? { oldString: o, newString: n } : null;
  })();
  const bases: InputReading[] = [{ oldString, newString, used: [] }];
  if (unfenced) bases.push({ ...unfenced, used: ["markdown-fence"] });
  for (const base of bases) {
    if (base.used.length) out.push(base);
    const o = withoutLinePrefixes(base.oldString);
    if (o === null) continue;
    out.push({ oldString: o, newString: withoutLinePrefixes(base.newString) ?? base.newString, used: [...base.used, "line-number-prefixes"] });
  }
  return out;
}
