// How a terminal turns a grapheme cluster into cells, as data. Terminals disagree about emoji
// sequences: the ones that cluster graphemes (mode 2027, kitty, WezTerm, Ghostty, foot) draw a
// ZWJ family or a skin-toned thumb as one 2-column glyph; xterm, xterm.js with Unicode 11 and older
// tmux add up per-code-point widths (wcwidth), so 👩‍💻 takes 4 columns as 👩 then 💻; tmux 3.3
// joins ZWJ sequences but neither widens VS16 (❤️ stays 1 column) nor joins skin tones.
//
// A rule says, per feature, whether the terminal joins it into the cell before. What is not
// joined starts a cell of its own with that code point's width, so the cells we lay out are the
// cells the terminal draws and the next one is placed where the terminal put it.
import { eastAsianWidth } from "get-east-asian-width";
import stringWidth from "string-width";

export type WidthRule = {
  /** For status lines and reports: "grapheme", "codepoint", or "measured". */
  name: string;
  /** An emoji after a ZWJ joins the cell before (else it starts its own cells). */
  zwj: boolean;
  /** VS16 makes a text-default character emoji-wide (2 columns). */
  vs16: boolean;
  /** A skin-tone modifier joins the emoji before it. */
  modifiers: boolean;
  /** A pair of regional indicators (a flag) is one 2-column cell; false: each is 2 columns of its own. */
  flags: boolean;
};

/** Whole grapheme clusters, as wide as string-width says (at most 2). */
export const GRAPHEME: WidthRule = { name: "grapheme", zwj: true, vs16: true, modifiers: true, flags: true };
/** Per-code-point widths (xterm, xterm.js with Unicode 11, tmux before 3.3). */
export const CODEPOINT: WidthRule = { name: "codepoint", zwj: false, vs16: false, modifiers: false, flags: true };
/**
 * What is assumed when the terminal answers nothing: every feature at its wider reading. A
 * terminal that draws narrower leaves a gap (the renderer pins the column after every
 * multi-code-point cell), while one that draws wider than we assumed would overwrite the next cell.
 */
export const SAFE: WidthRule = { name: "safe", zwj: false, vs16: true, modifiers: false, flags: true };

export function isGrapheme(rule: WidthRule): boolean {
  return rule.zwj && rule.vs16 && rule.modifiers && rule.flags;
}

const ZWJ = 0x200d;
const VS16 = 0xfe0f;
const isModifier = (cp: number) => cp >= 0x1f3fb && cp <= 0x1f3ff;
const isRegional = (cp: number) => cp >= 0x1f1e6 && cp <= 0x1f1ff;

// What string-width answers for one code point, without its \p{RGI_Emoji} regex: compiling that
// costs ~30 ms and ~5.5 MB of heap on first use (the first "·" of the status line), and for a
// single code point it is Emoji_Presentation less the regional indicators (alone they are 1).
// test/tui/render/width.test.ts compares the two over every code point.
const invisible = /^[\p{Default_Ignorable_Code_Point}\p{Control}\p{Format}\p{Nonspacing_Mark}\p{Enclosing_Mark}\p{Surrogate}]$/v;
const emojiPresentation = /^\p{Emoji_Presentation}$/u;
const cpWidths = new Map<number, number>();

/** wcwidth of one code point, as string-width measures it (0, 1 or 2). */
export function codePointWidth(cp: number): number {
  if (cp >= 0x20 && cp < 0x7f) return 1;
  let w = cpWidths.get(cp);
  if (w === undefined) {
    const s = String.fromCodePoint(cp);
    w = invisible.test(s) ? 0 : isRegional(cp) ? 1 : emojiPresentation.test(s) ? 2 : Math.min(2, eastAsianWidth(cp, { ambiguousAsWide: false }));
    cpWidths.set(cp, w);
  }
  return w;
}

/**
 * Splits one grapheme cluster into the cells `rule`'s terminal draws it in. Zero-width code points
 * (combining marks, ZWJ, variation selectors) stay with the cell before them.
 */
export function splitCluster(cluster: string, rule: WidthRule): string[] {
  if (isGrapheme(rule) || cluster.length <= 1) return [cluster];
  const cells: string[] = [];
  let cell = "";
  let prev = -1;
  let regionalRun = 0;
  for (const ch of cluster) {
    const cp = ch.codePointAt(0)!;
    const joins =
      cell === "" ||
      codePointWidth(cp) === 0 ||
      (prev === ZWJ && rule.zwj) ||
      (isModifier(cp) && rule.modifiers) ||
      (isRegional(cp) && rule.flags && regionalRun % 2 === 1);
    regionalRun = isRegional(cp) ? regionalRun + 1 : 0;
    if (!joins) {
      cells.push(cell);
      cell = "";
    }
    cell += ch;
    prev = cp;
  }
  if (cell !== "") cells.push(cell);
  return cells;
}

/** Columns one cell (from splitCluster) takes under `rule`: its first code point's, widened by VS16 or a flag pair. */
export function cellWidth(cell: string, rule: WidthRule): number {
  if (isGrapheme(rule)) return Math.min(2, stringWidth(cell));
  const first = cell.codePointAt(0)!;
  if (isRegional(first)) return rule.flags ? (cell.length >= 4 && isRegional(cell.codePointAt(2) ?? 0) ? 2 : 1) : 2;
  const w = codePointWidth(first);
  if (w === 1 && rule.vs16 && cell.includes("\ufe0f") && stringWidth(cell) === 2) return 2;
  return w;
}

/** The columns from the start-up probe's samples; see SAMPLES in src/tui/term/width-probe.ts. */
export type SampleWidths = { zwj: number; vs16: number; modifier: number; flag: number };

/**
 * The rule a terminal's measured sample widths say. A feature measured neither way (an odd
 * width, a missing answer) keeps the safe reading.
 */
export function ruleFromSamples(m: SampleWidths): WidthRule {
  const pick = (measured: number, joined: number, apart: number, safe: boolean) => (measured === joined ? true : measured === apart ? false : safe);
  const zwj = pick(m.zwj, 2, 4, SAFE.zwj);
  const vs16 = pick(m.vs16, 2, 1, SAFE.vs16);
  const modifiers = pick(m.modifier, 2, 4, SAFE.modifiers);
  const flags = pick(m.flag, 2, 4, SAFE.flags);
  const r = { name: "measured", zwj, vs16, modifiers, flags };
  if (isGrapheme(r)) return GRAPHEME;
  if (!zwj && !vs16 && !modifiers && flags) return CODEPOINT;
  return r;
}
