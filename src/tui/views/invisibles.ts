// Invisible characters on the screens where the user decides (the permission panel, the diff view,
// the trust question): each shown as a marker in the warning colour, and a line saying how many
// there are. Which characters, and their markers, are the control-character policy's
// (src/text/control-chars.ts); a marker is ordinary text to the layout, measured by the one width
// function like any other span.
import { countInvisibles, invisiblesLine, revealInvisibles, splitInvisibles } from "../../text/control-chars.ts";
import type { Row, Span, Style } from "../render/style.ts";
import { cleanText, span, wordWrapSpans } from "./text.ts";
import { ui } from "./theme.ts";

/** One line of text as cleanText shows it, its invisible characters as markers in the warning colour. */
export function revealSpans(text: string, style?: Style): Span[] {
  const pieces = splitInvisibles(text);
  if (pieces.length === 1 && !("hidden" in pieces[0]!)) return [span(cleanText(text), style)];
  return pieces.map((p) => ("hidden" in p ? span(p.text, ui.invisible) : span(cleanText(p.text), style)));
}

/** "this change contains 2 invisible characters (…)" in the warning colour, wrapped; no rows when there are none. */
export function invisiblesRows(texts: Iterable<string>, what: string, width: number): Row[] {
  const line = invisiblesLine(countInvisibles(texts), what);
  return line ? wordWrapSpans([span(line, { ...ui.warn, bold: true })], width) : [];
}

/** Plain text (a notice) with markers for its invisible characters and, when there are any, the count line after it. */
export function revealedNotice(text: string, what = "this list"): string {
  const line = invisiblesLine(countInvisibles(text), what);
  return line ? `${revealInvisibles(text)}\n${line}` : text;
}
