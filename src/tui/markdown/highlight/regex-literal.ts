// A regex literal, for the languages that have one (JavaScript, TypeScript, Ruby): a `/` where a
// value may start, not after one, so `a / b` stays division.
import type { Cursor } from "./lexer.ts";

/** Where a value may start: a `/` there opens a regex, a `<` a JSX tag. */
export const valueMayStart = (c: Cursor) => c.prevKind === "" || c.prevKind === "op" || c.prevKind === "open" || c.prevKind === "keyword";

/** A regex at the cursor; `mayStart` says where a value may start in the language (Ruby's differs). */
export function regexLiteral(c: Cursor, mayStart: (c: Cursor) => boolean = valueMayStart): boolean {
  const line = c.line;
  if (line[c.i] !== "/" || !mayStart(c)) return false;
  const next = line[c.i + 1];
  if (next === "/" || next === "*") return false;
  // A regex that does not close on its line is not one; after one such miss the rest of the line
  // is not tried again, so a line of unclosed `/[` stays linear.
  if (c.scratch.noRegex !== undefined) return false;
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
    return false;
  }
  j++;
  while (j < line.length && line[j]! >= "a" && line[j]! <= "z") j++;
  c.emit(j, "string.regexp", "value");
  return true;
}
