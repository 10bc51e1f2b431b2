// Look-alike characters, folded for matching only. Models type straight quotes where a file has
// typographic ones (and the other way round), a hyphen for a non-breaking hyphen or an en dash, a
// space for a no-break space, é composed where the file has it decomposed. Folding maps each of
// these onto one plain form so old_string can be found; what is written never goes through it:
// the file's characters stay in what the edit keeps (see `keepFileCharacters`).
//
// A line is folded piece by piece, one piece a character with the combining marks after it, so
// every piece boundary in the folded text has a known place in the original: spans found in the
// folded text map back exactly, and a span that would start or end inside a piece is no match.

const LOOK_ALIKES: Record<string, string> = {
  "\u2018": "'", // ‘
  "\u2019": "'", // ’
  "\u201A": "'", // ‚
  "\u201B": "'", // ‛
  "\u201C": '"', // “
  "\u201D": '"', // ”
  "\u201E": '"', // „
  "\u201F": '"', // ‟
  "\u2010": "-", // hyphen
  "\u2011": "-", // non-breaking hyphen
  "\u2012": "-", // figure dash
  "\u2013": "-", // en dash
  "\u2014": "-", // em dash
  "\u2015": "-", // horizontal bar
  "\u2212": "-", // minus sign
  "\u00A0": " ", // no-break space
  "\u2007": " ", // figure space
  "\u202F": " ", // narrow no-break space
  "\u205F": " ", // medium mathematical space
  "\u3000": " ", // ideographic space
};
for (let c = 0x2000; c <= 0x200a; c++) LOOK_ALIKES[String.fromCharCode(c)] = " "; // en quad … hair space

const LOOK_ALIKE = /[\u2018-\u201F\u2010-\u2015\u2212\u00A0\u2000-\u200A\u202F\u205F\u3000]/g;
const FOLDABLE = /[\u2018-\u201F\u2010-\u2015\u2212\u00A0\u2000-\u200A\u202F\u205F\u3000]|\p{M}/u;
const NON_ASCII = /[^\x00-\x7f]/;
const MARK = /\p{M}/u;
const PIECE = /\P{M}\p{M}*|\p{M}+/gu;

/**
 * A folded line and where its pieces start: `bounds` pairs (folded offset, original offset), the
 * end included; null when every offset maps to itself (most lines: nothing to fold, or look-alikes
 * that are one unit for one unit).
 */
export type FoldedLine = { text: string; bounds: Array<[number, number]> | null };

/** Whether folding can change `s` at all (cheap: most files and most strings have nothing to fold). */
export function hasLookAlikes(s: string): boolean {
  return NON_ASCII.test(s) && (FOLDABLE.test(s) || s !== s.normalize("NFC"));
}

export function foldLine(line: string): FoldedLine {
  if (!NON_ASCII.test(line)) return { text: line, bounds: null };
  const composed = MARK.test(line) ? null : line.normalize("NFC");
  if (composed !== null && composed.length === line.length) {
    return { text: composed.replace(LOOK_ALIKE, (ch) => LOOK_ALIKES[ch]!), bounds: null };
  }
  let text = "";
  const bounds: Array<[number, number]> = [];
  for (const m of line.matchAll(PIECE)) {
    bounds.push([text.length, m.index]);
    text += m[0].normalize("NFC").replace(LOOK_ALIKE, (ch) => LOOK_ALIKES[ch]!);
  }
  bounds.push([text.length, line.length]);
  return { text, bounds };
}

const boundsOf = (f: FoldedLine): Array<[number, number]> => f.bounds ?? Array.from({ length: f.text.length + 1 }, (_, i) => [i, i] as [number, number]);

/** Folds a text line by line (line breaks are never folded, so line numbers stay the same). */
export function foldText(s: string): string {
  return hasLookAlikes(s) ? s.split("\n").map((l) => foldLine(l).text).join("\n") : s;
}

/** The original offset of folded offset `at`, or null when `at` falls inside a piece. */
export function originalOffset(f: FoldedLine, at: number): number | null {
  if (!f.bounds) return at;
  let lo = 0;
  let hi = f.bounds.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [folded, original] = f.bounds[mid]!;
    if (folded === at) return original;
    if (folded < at) lo = mid + 1;
    else hi = mid - 1;
  }
  return null;
}

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The model changed `model` (its copy of the file's `file`, equal to it once folded) into `next`.
 * The result is `next` with the file's characters where `next` keeps the model's: the unchanged
 * head and tail of the text come from the file, the middle (what the model wrote) from `next`.
 * Null when the two do not fold to the same text (there is then no place-for-place map).
 */
export function keepFileCharacters(model: string, file: string, next: string): string | null {
  if (model === file) return next;
  const m = foldLine(model);
  const f = foldLine(file);
  if (m.text !== f.text) return null;
  // Piece boundaries both texts share, so a cut there is a cut between whole characters in both.
  const fileAt = new Map(boundsOf(f));
  const shared = boundsOf(m).filter(([folded]) => fileAt.has(folded));
  const head = commonPrefix(model, next);
  let tail = 0;
  const room = Math.min(model.length, next.length) - head;
  while (tail < room && model[model.length - 1 - tail] === next[next.length - 1 - tail]) tail++;
  // The last shared boundary within the head, and the first within the tail.
  let cutHead: [number, number] = shared[0]!;
  for (const b of shared) if (b[1] <= head) cutHead = b;
  let cutTail: [number, number] = shared[shared.length - 1]!;
  for (let i = shared.length - 1; i >= 0; i--) {
    const b = shared[i]!;
    if (b[1] < model.length - tail) break;
    cutTail = b;
  }
  if (cutTail[1] < cutHead[1]) cutTail = cutHead;
  const modelHeadEnd = cutHead[1];
  const modelTailStart = cutTail[1];
  const middle = next.slice(modelHeadEnd, next.length - (model.length - modelTailStart));
  return file.slice(0, fileAt.get(cutHead[0])!) + middle + file.slice(fileAt.get(cutTail[0])!);
}
