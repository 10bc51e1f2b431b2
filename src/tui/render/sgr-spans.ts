// Text another program printed with colours (a status-line command's output) as styled spans.
// Only SGR survives: it is what the program meant to show. Every other escape sequence (cursor
// moves, clears, titles, hyperlinks, mode switches) is dropped, because a line that moved the
// cursor or cleared the screen would break the frame it is drawn into; other control characters
// go too, and a tab becomes a space.
import type { Color, Span, Style } from "./style.ts";

type Pen = Style;

const BASIC: Record<number, keyof Pen> = { 1: "bold", 2: "dim", 3: "italic", 4: "underline", 7: "inverse", 9: "strikethrough" };
const BASIC_OFF: Record<number, Array<keyof Pen>> = { 22: ["bold", "dim"], 23: ["italic"], 24: ["underline"], 27: ["inverse"], 29: ["strikethrough"] };

/** One line of program output (no newlines expected; any are dropped) as spans. */
export function sgrToSpans(text: string): Span[] {
  const spans: Span[] = [];
  let pen: Pen = {};
  let run = "";
  const flush = () => {
    if (run === "") return;
    const style = Object.keys(pen).length > 0 ? { ...pen } : undefined;
    spans.push(style ? { text: run, style } : { text: run });
    run = "";
  };
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    const code = ch.charCodeAt(0);
    if (ch === "\x1b" || code === 0x9b) {
      const seq = readEscape(text, i);
      if (seq.sgr !== null) {
        flush();
        pen = applySgr(pen, seq.sgr);
      }
      i = seq.end;
      continue;
    }
    if (ch === "\t") run += " ";
    else if (code >= 0x20 && code !== 0x7f && !(code >= 0x80 && code < 0xa0)) run += ch;
    i++;
  }
  flush();
  return spans;
}

/** The escape at `start`: where it ends, and its parameters when it is an SGR (`CSI ... m`). */
function readEscape(text: string, start: number): { end: number; sgr: string | null } {
  let i = start;
  if (text[i] === "\x1b") {
    const next = text[i + 1];
    if (next === undefined) return { end: i + 1, sgr: null };
    if (next === "]" || next === "P" || next === "_" || next === "^" || next === "X") return { end: stringEnd(text, i + 2), sgr: null };
    if (next !== "[") {
      // ESC followed by intermediates (0x20-0x2f) and one final byte.
      i += 1;
      while (i < text.length && text.charCodeAt(i) >= 0x20 && text.charCodeAt(i) <= 0x2f) i++;
      return { end: Math.min(text.length, i + 1), sgr: null };
    }
    i += 2;
  } else i += 1; // the 8-bit CSI
  const paramsStart = i;
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c >= 0x40 && c <= 0x7e) {
      const params = text.slice(paramsStart, i);
      return { end: i + 1, sgr: text[i] === "m" && /^[\d;:]*$/.test(params) ? params : null };
    }
    if (c < 0x20 || c > 0x3f) return { end: i, sgr: null }; // malformed: drop what was read
    i++;
  }
  return { end: text.length, sgr: null };
}

/** An OSC/DCS/APC string ends at BEL or ST (ESC \). */
function stringEnd(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === "\x07") return i + 1;
    if (text[i] === "\x1b" && text[i + 1] === "\\") return i + 2;
  }
  return text.length;
}

function applySgr(pen: Pen, params: string): Pen {
  const p = (params === "" ? "0" : params).split(/[;:]/).map((x) => (x === "" ? 0 : Number(x)));
  const out: Pen = { ...pen };
  for (let i = 0; i < p.length; i++) {
    const n = p[i]!;
    if (n === 0) for (const k of Object.keys(out) as Array<keyof Pen>) delete out[k];
    else if (BASIC[n]) (out as Record<string, unknown>)[BASIC[n]] = true;
    else if (BASIC_OFF[n]) for (const k of BASIC_OFF[n]) delete out[k];
    else if ((n >= 30 && n <= 37) || (n >= 90 && n <= 97)) out.fg = { kind: "index", n: n >= 90 ? n - 90 + 8 : n - 30 };
    else if ((n >= 40 && n <= 47) || (n >= 100 && n <= 107)) out.bg = { kind: "index", n: n >= 100 ? n - 100 + 8 : n - 40 };
    else if (n === 39) delete out.fg;
    else if (n === 49) delete out.bg;
    else if (n === 38 || n === 48) {
      const { color, used } = extendedColor(p, i + 1);
      if (color) out[n === 38 ? "fg" : "bg"] = color;
      i += used;
    }
  }
  return out;
}

/** `5;n` or `2;r;g;b` after a 38/48; how many parameters it took. */
function extendedColor(p: number[], at: number): { color: Color | null; used: number } {
  const clamp = (v: number | undefined) => Math.max(0, Math.min(255, Math.trunc(v ?? 0)));
  if (p[at] === 5) return { color: { kind: "index", n: clamp(p[at + 1]) }, used: 2 };
  if (p[at] === 2) return { color: { kind: "rgb", r: clamp(p[at + 1]), g: clamp(p[at + 2]), b: clamp(p[at + 3]) }, used: 4 };
  return { color: null, used: 0 };
}
