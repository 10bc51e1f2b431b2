// A regex literal, for the languages that have one (JavaScript, TypeScript, Ruby): a `/` where a
// value may start, not after one, so `a / b` stays division.
import type { Cursor } from "./lexer.ts";

/** Where a value may start: a `/` there opens a regex, a `<` a JSX tag. */
export const valueMayStart = (c: Cursor) => c.prevKind === "" || c.prevKind === "op" || c.prevKind === "open" || c.prevKind === "keyword";

/** A regex at the cursor's `/` where a value may start. */
export function regexLiteral(c: Cursor): boolean {
  if (c.line[c.i] !== "/" || !valueMayStart(c)) return false;
  const end = regexEnd(c);
  if (end < 0) return false;
  c.emit(end, "string.regexp", "value");
  return true;
}

/** The end (flags included) of a regex opened by the `/` at the cursor, or -1: a regex that does not close on its line is not one. */
export function regexEnd(c: Cursor): number {
  const line = c.line;
  const next = line[c.i + 1];
  if (next === "/" || next === "*") return -1;
  // After one miss the rest of the line is not tried again, so a line of unclosed `/[` stays linear.
  if (c.scratch.noRegex !== undefined) return -1;
  let j = c.i + 1;
  let inClass = false;
  for (; j < line.length; j++) {
    const ch = line[j];
    if (ch === "\\") j++;
    else if (ch === "[") inClass = true;
    else if (ch === "]") inClass = false;
    else if (ch === "/" && !inClass) break;
  }
  if (j >= line.length) {
    c.scratch.noRegex = 1;
    return -1;
  }
  j++;
  while (j < line.length && line[j]! >= "a" && line[j]! <= "z") j++;
  return j;
}
