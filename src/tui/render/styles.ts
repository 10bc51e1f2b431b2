// Style interning and SGR transitions. Cells carry a style id; the diff asks for the bytes that
// take the terminal from one id to another. Transitions are cached per (from, to) pair, and each is
// the shorter of "change only what differs" and "reset, then set everything", so two runs that
// share a style never see a reset between them.
import { colorParams, type ColorDepth } from "./colors.ts";
import { sanitizeLinkTarget } from "../../text/control-chars.ts";
import type { Style } from "./style.ts";

export const DEFAULT_STYLE = 0;

const BOLD = 1, DIM = 2, ITALIC = 4, UNDERLINE = 8, INVERSE = 16, STRIKE = 32;
const ATTRS: ReadonlyArray<readonly [flag: number, on: string, off: string]> = [
  [ITALIC, "3", "23"], [UNDERLINE, "4", "24"], [INVERSE, "7", "27"], [STRIKE, "9", "29"],
];

const OSC8_CLOSE = "\x1b]8;;\x1b\\";

type StyleRecord = { flags: number; fg: string; bg: string; link: string; key: string };

export class StyleTable {
  private readonly records: StyleRecord[] = [{ flags: 0, fg: "", bg: "", link: "", key: "" }];
  private readonly byKey = new Map<string, number>([["", 0]]);
  private readonly byObject = new WeakMap<Style, number>();
  private readonly transitions = new Map<number, string>();
  private readonly withoutLink: number[] = [0];
  private readonly invertedIds: number[] = [];

  constructor(readonly depth: ColorDepth) {}

  intern(style: Style | undefined): number {
    if (style === undefined) return DEFAULT_STYLE;
    const cached = this.byObject.get(style);
    if (cached !== undefined) return cached;
    const plain = this.depth === "plain";
    let flags = 0;
    if (!plain) {
      if (style.bold) flags |= BOLD;
      if (style.dim) flags |= DIM;
      if (style.italic) flags |= ITALIC;
      if (style.underline) flags |= UNDERLINE;
      if (style.inverse) flags |= INVERSE;
      if (style.strikethrough) flags |= STRIKE;
    }
    const fg = style.fg ? colorParams(style.fg, this.depth, false) : "";
    const bg = style.bg ? colorParams(style.bg, this.depth, true) : "";
    const link = !plain && style.link ? sanitizeLinkTarget(style.link) : "";
    const id = this.internRecord(flags, fg, bg, link);
    this.byObject.set(style, id);
    return id;
  }

  private internRecord(flags: number, fg: string, bg: string, link: string): number {
    const key = `${flags}|${fg}|${bg}|${link}`;
    const found = this.byKey.get(key === "0|||" ? "" : key);
    if (found !== undefined) return found;
    const id = this.records.length;
    this.records.push({ flags, fg, bg, link, key });
    this.byKey.set(key, id);
    this.withoutLink[id] = link === "" ? id : this.internRecord(flags, fg, bg, "");
    return id;
  }

  /**
   * The same style with foreground and background swapped, as a block cursor shows a cell; null
   * when the terminal has no attributes at all (TERM=dumb).
   */
  inverted(id: number): number | null {
    if (this.depth === "plain") return null;
    let v = this.invertedIds[id];
    if (v === undefined) {
      const r = this.records[id] ?? this.records[0]!;
      v = this.internRecord(r.flags ^ INVERSE, r.fg, r.bg, r.link);
      this.invertedIds[id] = v;
    }
    return v;
  }

  /** The same look without the hyperlink: links are closed before the cursor leaves a run. */
  unlinked(id: number): number {
    return this.withoutLink[id] ?? DEFAULT_STYLE;
  }

  hasLink(id: number): boolean {
    return (this.records[id]?.link ?? "") !== "";
  }

  /** Erase (EL/ED) paints with the current background: only safe from a style without bg/inverse. */
  erasesClean(id: number): boolean {
    const r = this.records[id];
    return r === undefined || (r.bg === "" && (r.flags & INVERSE) === 0);
  }

  /**
   * A space printed in style `a` looks exactly like one printed in `b`: no glyph shows the
   * foreground, bold, dim or italic, so only the background, the link and the lines drawn across
   * the cell (underline, strikethrough, in the foreground's colour) or inversion (which shows the
   * foreground) can tell them apart. The painter prints a blank in the pen it has instead of
   * switching pens for it.
   */
  sameBlank(a: number, b: number): boolean {
    if (a === b) return true;
    const x = this.records[a] ?? this.records[0]!;
    const y = this.records[b] ?? this.records[0]!;
    if (x.bg !== y.bg || x.link !== y.link) return false;
    const lines = UNDERLINE | STRIKE | INVERSE;
    if ((x.flags & lines) !== (y.flags & lines)) return false;
    return (x.flags & lines) === 0 || (x.fg === y.fg && (x.flags & (BOLD | DIM)) === (y.flags & (BOLD | DIM)));
  }

  /** Bytes that move the terminal's pen from style `from` to style `to`. */
  transition(from: number, to: number): string {
    if (from === to) return "";
    const key = from * 0x100000 + to;
    let s = this.transitions.get(key);
    if (s === undefined) {
      s = this.buildTransition(from, to);
      this.transitions.set(key, s);
    }
    return s;
  }

  private buildTransition(from: number, to: number): string {
    const a = this.records[from] ?? this.records[0]!;
    const b = this.records[to] ?? this.records[0]!;
    let out = "";
    if (a.link !== b.link) {
      if (a.link !== "") out += OSC8_CLOSE;
      if (b.link !== "") out += `\x1b]8;;${b.link}\x1b\\`;
    }
    if (this.depth === "plain") return out;
    const delta: string[] = [];
    const boldDimLost = ((a.flags & BOLD) && !(b.flags & BOLD)) || ((a.flags & DIM) && !(b.flags & DIM));
    if (boldDimLost) {
      delta.push("22");
      if (b.flags & BOLD) delta.push("1");
      if (b.flags & DIM) delta.push("2");
    } else {
      if (b.flags & BOLD && !(a.flags & BOLD)) delta.push("1");
      if (b.flags & DIM && !(a.flags & DIM)) delta.push("2");
    }
    for (const [flag, on, off] of ATTRS) {
      if ((a.flags & flag) && !(b.flags & flag)) delta.push(off);
      else if (!(a.flags & flag) && (b.flags & flag)) delta.push(on);
    }
    if (a.fg !== b.fg) delta.push(b.fg === "" ? "39" : b.fg);
    if (a.bg !== b.bg) delta.push(b.bg === "" ? "49" : b.bg);
    const full = fullParams(b);
    const viaReset = full.length === 0 ? "\x1b[m" : `\x1b[0;${full.join(";")}m`;
    const viaDelta = delta.length === 0 ? "" : `\x1b[${delta.join(";")}m`;
    return out + (delta.length === 0 || viaReset.length < viaDelta.length ? (delta.length === 0 ? "" : viaReset) : viaDelta);
  }
}

function fullParams(r: StyleRecord): string[] {
  const p: string[] = [];
  if (r.flags & BOLD) p.push("1");
  if (r.flags & DIM) p.push("2");
  for (const [flag, on] of ATTRS) if (r.flags & flag) p.push(on);
  if (r.fg !== "") p.push(r.fg);
  if (r.bg !== "") p.push(r.bg);
  return p;
}
