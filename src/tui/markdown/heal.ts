// Making the unsettled tail of a streaming answer look finished. Two tools: hold back what cannot
// be shown correctly yet (a lone list marker, a half-typed fence, a table header whose delimiter
// row has not arrived), and heal inline syntax that is open only because the text is not done
// (an unclosed **bold, `code span or [link](url). Healing affects tail rows only; settled blocks
// and the final render always come from the real text.
import type { RefMap } from "./ast.ts";
import { findUnclosed } from "./inline-parser.ts";

const reLoneMarker = /^\s*(?:>\s*)*(?:(?:[-+*]|\d{1,9}[.)])(?:\s+\[[ xX]?\]?)?\s*)?$/;
const reFenceOpening = /^\s*(?:>\s*)*(?:`{3,}[^`]*|~{3,}.*|`{1,2}|~{1,2})$/;
const reBlockSyntaxOnly = /^\s{0,3}(?:>\s*)*(?:#{1,6}|=+|(?:[-*_][ \t]*)+)\s*$/;
const reDelimiterRowPrefix = /^\s*\|?\s*:?-*:?\s*(?:\|\s*:?-*:?\s*)*$/;
const reClosingFencePrefix = /^\s{0,3}(?:`+|~+)\s*$/;
/** A line starting with a pipe is almost surely a table row: wait for the line (and the table). */
const reTableRowStart = /^\s{0,3}(?:>\s*)*\|/;

export type TailContext = {
  /** The open leaf after the complete lines is a fenced code block. */
  inFence: boolean;
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
    if (ctx.inFence) dropPartial = reClosingFencePrefix.test(partial);
    else if (ctx.inTable) dropPartial = /^\s*\|?\s*$/.test(partial);
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
  s = s.replace(/(^|\s)[*_~`]+$/, "$1").replace(/\s+$/, "");
  const ticks = findUnclosed(s, refmap).backticks;
  if (ticks) {
    // An opening run with nothing after it yet is hidden; one with content gets its closer.
    if (ticks.pos + ticks.run.length >= s.length) s = s.slice(0, ticks.pos).replace(/\s+$/, "");
    else return s + ticks.run;
  }
  // Half a link: `[text](http://exa` shows as the link it is becoming; a lone `[text` as text.
  if (/\[[^\]\n]*\]\([^)\s]*$/.test(s)) s += ")";
  else s = s.replace(/(^|[^\\!])\[([^\]\n]*)$/, "$1$2");
  const { openers } = findUnclosed(s, refmap);
  if (openers.length > 0) {
    let closers = "";
    for (let i = openers.length - 1; i >= 0; i--) closers += openers[i]!.cc.repeat(openers[i]!.count);
    s += closers;
  }
  return s;
}
