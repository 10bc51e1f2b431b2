// Making the unsettled tail of a streaming answer look finished. Two tools: hold back what cannot
// be shown correctly yet (a lone list marker, a half-typed fence, a table header whose delimiter
// row has not arrived), and heal inline syntax that is open only because the text is not done
// (an unclosed **bold, `code span or [link](url). Healing affects tail rows only; settled blocks
// and the final render always come from the real text.
import type { RefMap } from "./ast.ts";
import { findUnclosed } from "./inline-parser.ts";

const reLoneMarker = /^\s*(?:>\s*)*(?:(?:[-+*]|\d{1,9}[.)])(?:\s+\[[ xX]?\]?)?\s*)?$/;
// Written so no two parts can take the same characters: the partial line is tested every frame,
// and the overlapping spellings (`~{3,}.*`, `[ \t]*` then `\s*`, `:?-*:?`) backtracked
// quadratically, the delimiter row exponentially (30 cells of "|:" froze the screen).
const reFenceOpening = /^\s*(?:>\s*)*(?:`{3,}[^`]*|~~~.*|`{1,2}|~{1,2})$/;
const reBlockSyntaxOnly = /^\s{0,3}(?:>\s*)*(?:#{1,6}|=+|[-*_](?:[ \t]*[-*_])*)\s*$/;
const reDelimiterRowPrefix = /^\s*(?:\|\s*)?(?:(?::-*:?|-+:?)\s*)?(?:\|\s*(?:(?::-*:?|-+:?)\s*)?)*$/;
const reClosingFencePrefix = /^\s{0,3}(?:`+|~+)\s*$/;
/** A line starting with a pipe is almost surely a table row: wait for the line (and the table). */
const reTableRowStart = /^\s{0,3}(?:>\s*)*\|/;

export type TailContext = {
  /** The open leaf after the complete lines is a fenced code block. */
  inFence: boolean;
  /**
   * That block's language is highlighted: its partial line waits for its newline, since shown as
   * typed it would be painted twice (plain now, in colour once the line is complete and lexed).
   */
  fenceHighlighted?: boolean;
  /** The open leaf is a paragraph whose last line could be a table header row. */
  paragraphLastLineHasPipe: boolean;
  /** The open leaf is a table: a row just begun would show as a row of empty cells. */
  inTable: boolean;
};

/**
 * Which of the tail's last lines to hold back: `partial` is the incomplete line. Returns how many
 * complete lines to drop from the end and whether to drop the partial line.
 */
export function holdBack(partial: string, ctx: TailContext): { dropComplete: number; dropPartial: boolean } {
  let dropPartial = false;
  if (partial !== "") {
    if (ctx.inFence) dropPartial = ctx.fenceHighlighted === true || reClosingFencePrefix.test(partial);
    else if (ctx.inTable) dropPartial = /^\s*(?:\|\s*)?$/.test(partial);
    else
      dropPartial =
        reLoneMarker.test(partial) ||
        reFenceOpening.test(partial) ||
        reBlockSyntaxOnly.test(partial) ||
        reTableRowStart.test(partial) ||
        (ctx.paragraphLastLineHasPipe && reDelimiterRowPrefix.test(partial));
  }
  // A header row shows as a paragraph until its delimiter row is complete: hold it back instead.
  const headerPending = !ctx.inFence && ctx.paragraphLastLineHasPipe && (partial === "" || dropPartial);
  return { dropComplete: headerPending ? 1 : 0, dropPartial };
}

export function hasUnescapedPipe(line: string): boolean {
  return /(^|[^\\])\|/.test(line);
}

/** Close what the streaming paragraph leaves open so it renders as it will when complete. */
export function healInline(content: string, refmap: RefMap): string {
  let s = content.trim();
  // A delimiter run just typed after a space opens nothing yet: hide it for now.
  s = s.replace(/(^|\s)[*_~`]+$/, "$1").trimEnd();
  const ticks = findUnclosed(s, refmap).backticks;
  if (ticks) {
    // An opening run with nothing after it yet is hidden; one with content gets its closer.
    if (ticks.pos + ticks.run.length >= s.length) s = s.slice(0, ticks.pos).trimEnd();
    else return s + ticks.run;
  }
  // Half a link: `[text](http://exa` shows as the link it is becoming; a lone `[text` as text.
  if (endsInHalfLink(s)) s += ")";
  else s = dropOpenBracket(s);
  const { openers } = findUnclosed(s, refmap);
  if (openers.length > 0) {
    let closers = "";
    for (let i = openers.length - 1; i >= 0; i--) closers += openers[i]!.cc.repeat(openers[i]!.count);
    s += closers;
  }
  return s;
}

/** Whether `s` ends inside a link's destination: /\[[^\]\n]*\]\([^)\s]*$/, by a scan from the end. */
function endsInHalfLink(s: string): boolean {
  // The destination so far: no ")" and no space up to the end.
  let k = s.length;
  while (k > 0 && s[k - 1] !== ")" && !/\s/.test(s[k - 1] as string)) k--;
  for (let p = s.indexOf("](", Math.max(0, k - 2)); p !== -1; p = s.indexOf("](", p + 1)) {
    // The text in brackets: back to a "[" with no "]" or newline in between.
    for (let i = p - 1; i >= 0 && s[i] !== "]" && s[i] !== "\n"; i--) if (s[i] === "[") return true;
  }
  return false;
}

/** A lone "[" still open at the end shown as text: /(^|[^\\!])\[([^\]\n]*)$/ → "$1$2", by a scan. */
function dropOpenBracket(s: string): string {
  const from = Math.max(s.lastIndexOf("]"), s.lastIndexOf("\n")) + 1;
  for (let i = from; i < s.length; i++) {
    if (s[i] === "[" && (i === 0 || (s[i - 1] !== "\\" && s[i - 1] !== "!"))) return s.slice(0, i) + s.slice(i + 1);
  }
  return s;
}
