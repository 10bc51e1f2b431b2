// Making the unsettled tail of a streaming answer look finished. Two tools: hold back what cannot
// be shown correctly yet (a lone list marker, a half-typed fence, a table header whose delimiter
// row has not arrived) or would be written twice (a table until it ends, a link until it closes),
// and heal inline syntax that is open only because the text is not done
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
  /** The open leaf is a table of this many rows so far, its header row included (0: no table). */
  tableRows?: number;
};

/**
 * The most body rows of a table held back while it streams. A table is laid out by its widest
 * cells, so while rows arrive its columns widen and every row is written again (each ~150 B in
 * the stream bench); held until it ends, it is written once, at its final widths. Past this many
 * rows the wait would be felt: the table shows, one complete row at a time.
 */
export const TABLE_HOLD = 12;

/**
 * Which of the tail's last lines to hold back: `partial` is the incomplete line. Returns how many
 * complete lines to drop from the end and whether to drop the partial line.
 */
export function holdBack(partial: string, ctx: TailContext): { dropComplete: number; dropPartial: boolean } {
  let dropPartial = false;
  if (partial !== "") {
    if (ctx.inFence) dropPartial = ctx.fenceHighlighted === true || reClosingFencePrefix.test(partial);
    // A row shows once complete: cells typed one by one would widen columns at each character.
    else if (ctx.tableRows) dropPartial = true;
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
  // The table's complete lines are its rows and its delimiter row.
  const table = ctx.tableRows && ctx.tableRows - 1 <= TABLE_HOLD ? ctx.tableRows + 1 : 0;
  return { dropComplete: headerPending ? 1 : table, dropPartial };
}

export function hasUnescapedPipe(line: string): boolean {
  return /(^|[^\\])\|/.test(line);
}

/** Close what the streaming paragraph leaves open so it renders as it will when complete. */
/** `holdLinks` false: no more text is coming, so a half link shows as what it is now. */
export function healInline(content: string, refmap: RefMap, holdLinks = true): string {
  let s = content.trim();
  // A delimiter run just typed after a space opens nothing yet: hide it for now.
  s = s.replace(/(^|\s)[*_~`]+$/, "$1").trimEnd();
  const first = findUnclosed(s, refmap);
  const ticks = first.backticks;
  const parsed = s;
  if (ticks) {
    // An opening run with nothing after it yet is hidden; one with content gets its closer.
    if (ticks.pos + ticks.run.length >= s.length) s = s.slice(0, ticks.pos).trimEnd();
    else return s + ticks.run;
  }
  // Half a link (`[text`, `[text]`, `[text](http://exa`) is held back from its "[" until it
  // closes, then appears once, styled: shown early it was written twice (plain, then as a link)
  // and its ")" (or, without OSC 8, its "(url)") again at each character of the URL. A bracket
  // whose text outgrows LINK_HOLD is likely no link: it shows as text, as a stray "[" does.
  const held = holdLinks ? halfLinkStart(s) : -1;
  if (held >= 0) s = s.slice(0, held).trimEnd();
  else if (endsInHalfLink(s)) s += ")";
  else s = dropOpenBracket(s);
  // Parsed again only when the text changed: this runs on every frame of a streaming paragraph.
  const { openers } = s === parsed ? first : findUnclosed(s, refmap);
  if (openers.length > 0) {
    let closers = "";
    for (let i = openers.length - 1; i >= 0; i--) closers += openers[i]!.cc.repeat(openers[i]!.count);
    s += closers;
  }
  return s;
}

/** The most characters of link text held back while its link is unfinished. */
export const LINK_HOLD = 60;

/**
 * Where the unfinished link `s` ends in starts (its "[", or the "!" of an image), or -1: the end
 * is inside the brackets (no "]" or newline yet), just after the "]", or in the destination (no
 * ")" or space since "](").
 */
function halfLinkStart(s: string): number {
  // The destination so far: no ")" and no space up to the end.
  let k = s.length;
  while (k > 0 && s[k - 1] !== ")" && !/\s/.test(s[k - 1] as string)) k--;
  // The "](" it follows, if any: the brackets then end there, else at the end of the text.
  let close = s.length;
  if (s[s.length - 1] === "]") close = s.length - 1;
  else {
    // Searched from the destination's start only: this runs on every frame of the paragraph.
    for (let p = s.indexOf("](", Math.max(0, k - 2)); p !== -1; p = s.indexOf("](", p + 1)) close = p;
  }
  for (let i = close - 1; i >= 0 && i >= close - 1 - LINK_HOLD; i--) {
    const c = s[i];
    // A code span may hold brackets: not a link's to hold.
    if (c === "]" || c === "\n" || c === "`") return -1;
    if (c === "[") {
      if (i > 0 && s[i - 1] === "\\") return -1;
      return i > 0 && s[i - 1] === "!" ? i - 1 : i;
    }
  }
  return -1;
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
