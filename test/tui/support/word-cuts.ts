// Finds prose words cut in two at a row's end: row i ends in a word character, row i+1 starts with
// one (after its indentation, a quote bar or a bullet), and the two pieces joined are a word of the
// source with nothing between them there. A token wider than `longerThan` columns (a URL, a path,
// a run of CJK with no spaces) may be cut: it fills rows to the edge so it copies whole. Given
// which rows are soft (the terminal's own wrap), a join at a soft row that a long token holds is
// taken as that token's, even where a short word of the source reads the same ("tha|t" in a URL).
import { displayWidth } from "../../../src/tui/render/width.ts";

const WORD = /[\p{L}\p{N}_]/u;
const TAIL = /[\p{L}\p{N}_]+$/u;
const HEAD = /^[\p{L}\p{N}_]+/u;

export type Cut = { row: number; tail: string; head: string; token: string };

/** `source` is the text the rows were made from (its prose only: leave code out). */
export function wordCuts(rows: readonly string[], source: string, longerThan: number, soft?: readonly boolean[]): Cut[] {
  const tokens = source.split(/\s+/).filter((t) => t !== "");
  const long = tokens.filter((t) => displayWidth(t) > longerThan);
  const cuts: Cut[] = [];
  for (let i = 0; i + 1 < rows.length; i++) {
    const a = rows[i]!;
    // A row that does not reach past a space at its end ended between words.
    if (a !== a.trimEnd() || a === "") continue;
    const b = rows[i + 1]!.replace(/^[\s│•◦▪›⎿]*/u, "");
    const tail = TAIL.exec(a)?.[0];
    const head = HEAD.exec(b)?.[0];
    if (!tail || !head) continue;
    const joined = tail + head;
    if (soft?.[i + 1] && long.some((t) => holds(t, joined))) continue;
    for (const token of tokens) {
      if (displayWidth(token) > longerThan || !holds(token, joined)) continue;
      cuts.push({ row: i, tail, head, token });
      break;
    }
  }
  return cuts;
}

/** `token` holds `word` as a whole word: no word character on either side of it. */
function holds(token: string, word: string): boolean {
  for (let at = token.indexOf(word); at >= 0; at = token.indexOf(word, at + 1)) {
    const before = token[at - 1];
    const after = token[at + word.length];
    if ((before === undefined || !WORD.test(before)) && (after === undefined || !WORD.test(after))) return true;
  }
  return false;
}
