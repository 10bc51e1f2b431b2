// Bash(...) and Process(...) specifiers, matched against a command's words joined by single spaces
// (quotes removed, wrappers stripped), so `git  push` and `"git" push` meet the same rules.
//   `git push:*`  legacy prefix form: `git push` alone or followed by arguments
//   `git push *`  a trailing ` *` also matches no arguments (`git push`) but never `git pushx`
//   `npm run *:ci` `*` anywhere else matches any text, spaces included
//   `npm test`    no wildcard: that exact command only

import { anyRun, compilePieces, literal, type Piece } from "./wildcard.ts";

export type CommandMatcher = (command: string) => boolean;

export function compileCommandPattern(spec: string): CommandMatcher {
  const s = spec.trim().replace(/\s+/g, " ");
  if (s.endsWith(":*")) {
    const prefix = s.slice(0, -2).trimEnd();
    return (cmd) => cmd === prefix || cmd.startsWith(prefix + " ");
  }
  // Linear in the command whatever the pattern: a regex from `*a*a*a*b` backtracks on long commands.
  const pieces: Piece[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "\\" && s[i + 1] === "*") {
      pieces.push(...literal("*"));
      i++;
    } else if (c === "*") {
      const trailingWord = i === s.length - 1 && s[i - 1] === " ";
      if (trailingWord) pieces.splice(-1, 1, { kind: "opt", seq: [...literal(" "), anyRun()] });
      else pieces.push(anyRun());
    } else pieces.push(...literal(c));
  }
  return compilePieces(pieces);
}

/** The text a specifier pins before its first wildcard: `python -c` for `python -c:*` and `python -c *`. */
export function literalPrefix(spec: string): string {
  let s = spec.trim().replace(/\s+/g, " ");
  if (s.endsWith(":*")) s = s.slice(0, -2).trimEnd();
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s[i] as string;
    if (c === "\\" && s[i + 1] === "*") {
      out += "*";
      i++;
    } else if (c === "*") break;
    else out += c;
  }
  return out;
}
