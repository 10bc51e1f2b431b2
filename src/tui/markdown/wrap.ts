// Wrapping of styled text into rows. The one rule that matters for copying: the text of a
// paragraph's rows, concatenated, is exactly the paragraph's text.
//
// Two ways, as the "wrap" setting says. "edge": continuation rows are soft (the terminal joins them
// to the row before, for copy and for its own reflow), so every row but the last is filled to the
// edge, breaking between characters: a terminal copies every cell before a soft wrap, so a
// word-wrap gap would paste as a run of spaces in the middle of a sentence
// (test/tui/render/copy-gap.test.ts shows why no escape sequence avoids that). "words" (the
// default): rows break at spaces and the next row is a hard one, under the containers' hanging
// indent; the space stays at the end of the row it broke. A word wider than the room a row gives it
// (a URL, a path, a run of CJK with no spaces) is still cut between characters with nothing
// inserted, filling rows to the edge as soft ones, so a copy of it is whole; code lines do the same.
// Table cells have no soft rows: there every continuation is a line of the cell.
import type { Span, Style } from "../render/style.ts";

/** Where wrapped rows go: the document's RowSink, or a table cell's line collector. */
export type RowTarget = {
  /** Columns for the next hard row's text, after the containers' first prefixes. */
  nextAvail(): number;
  /** Columns for a later hard row's text (a break between words), after the hanging indent. */
  restAvail(): number;
  /** Columns of a soft row (a code line or a long word going on at the edge). */
  softAvail(): number;
  hard(spans: Span[]): void;
  soft(spans: Span[]): void;
  /** "edge": prose too is filled to the edge in soft rows rather than broken between words. */
  readonly softContinuations: boolean;
};
import { breakSpans } from "../render/spans.ts";
import { displayWidth } from "../render/width.ts";

/** A hard line break inside a paragraph, in a piece list (pieces never contain newlines otherwise). */
export const HARD_BREAK: Span = { text: "\n" };

/** Lay out pieces as one paragraph: first row hard (with the containers' prefixes), then continuations. */
export function wrapPieces(pieces: readonly Span[], sink: RowTarget): void {
  if (sink.softContinuations) {
    let line: Span[] = [];
    for (const piece of pieces) {
      if (piece !== HARD_BREAK) line.push(piece);
      else {
        splitLine(line, sink);
        line = [];
      }
    }
    splitLine(line, sink);
    return;
  }
  // The row's finished spans, then the run of one style still growing at its end (joined when the
  // style changes or the row ends: a span per word would cost an object per word each frame).
  let row: Span[] = [];
  let runText = "";
  let runStyle: Style | undefined;
  let rowW = 0;
  let limit = sink.nextAvail();
  let nextIsSoft = false;
  let spaces: Span[] = [];
  let spaceW = 0;
  let word: Span[] = [];
  let wordWidths: number[] = [];
  let wordW = 0;

  const endRun = () => {
    if (runText !== "") row.push(runStyle ? { text: runText, style: runStyle } : { text: runText });
    runText = "";
  };
  const emit = (soft: boolean) => {
    endRun();
    if (soft) sink.soft(row);
    else sink.hard(row);
    row = [];
    rowW = 0;
  };
  const breakRow = (kind: "soft" | "hard") => {
    emit(nextIsSoft);
    nextIsSoft = kind === "soft";
    limit = kind === "soft" ? sink.softAvail() : sink.restAvail();
  };
  const put = (s: Span, w: number) => {
    if (runText !== "" && runStyle !== s.style) endRun();
    if (runText === "") runStyle = s.style;
    runText += s.text;
    rowW += w;
  };
  const putSplitting = (s: Span, w: number) => {
    if (rowW + w <= limit) {
      put(s, w);
      return;
    }
    breakSpans([s], limit, sink.softAvail(), rowW).forEach((pieces, i) => {
      if (i > 0) breakRow("soft");
      for (const p of pieces) put(p, displayWidth(p.text));
    });
  };
  const flushWord = (followedBySpace: boolean) => {
    if (word.length === 0) return;
    const end = rowW + spaceW + wordW;
    // A word that would fill the row exactly, with a space after it, moves to the next row, so the
    // space lands at the end of a row rather than at the start of the next one.
    if (end < limit || (end === limit && !(followedBySpace && rowW > 0))) {
      for (const s of spaces) put(s, s.text.length);
    } else if (rowW > 0 || spaceW > 0) {
      // Break before the word. Spaces stay at the end of this row as far as they fit.
      const carry: Span[] = [];
      for (const s of spaces) {
        const w = s.text.length;
        if (rowW + w <= limit) put(s, w);
        else carry.push(s);
      }
      breakRow("hard");
      for (const s of carry) putSplitting(s, s.text.length);
    }
    if (spaces.length > 0) spaces = [];
    spaceW = 0;
    for (let i = 0; i < word.length; i++) putSplitting(word[i]!, wordWidths[i]!);
    word = [];
    wordWidths = [];
    wordW = 0;
  };

  for (const piece of pieces) {
    if (piece === HARD_BREAK) {
      flushWord(false);
      spaces = [];
      spaceW = 0;
      breakRow("hard");
      continue;
    }
    // Split into space runs and non-space runs; a word may continue across styled pieces.
    const parts = piece.text.split(/( +)/);
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!;
      if (part === "") continue;
      if (i % 2 === 1) {
        flushWord(true);
        spaces.push({ text: part, style: piece.style });
        spaceW += part.length;
      } else {
        const w = displayWidth(part);
        word.push({ text: part, style: piece.style });
        wordWidths.push(w);
        wordW += w;
      }
    }
  }
  flushWord(false);
  for (const s of spaces) putSplitting(s, s.text.length);
  emit(nextIsSoft);
}

/** Cut one line of text (code, raw HTML) into rows of at most `limit` columns: hard first, soft after. */
export function splitLine(spans: readonly Span[], sink: RowTarget): void {
  breakSpans(spans, sink.nextAvail(), sink.softAvail()).forEach((pieces, i) => {
    const row = joinSameStyle(pieces);
    if (i === 0) sink.hard(row);
    else sink.soft(row);
  });
}

/** Neighbouring pieces of one style as one span. */
function joinSameStyle(pieces: readonly Span[]): Span[] {
  const row: Span[] = [];
  for (const s of pieces) {
    const last = row[row.length - 1];
    if (last && last.style === s.style) row[row.length - 1] = { text: last.text + s.text, style: s.style };
    else row.push(s);
  }
  return row;
}

export function mergeStyle(base: Style | undefined, add: Style | undefined): Style | undefined {
  if (!add) return base;
  if (!base) return add;
  return { ...base, ...add };
}
