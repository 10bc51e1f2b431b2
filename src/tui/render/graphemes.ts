// Grapheme interning and measurement. A cell stores a grapheme id, never a string.
//
// Ids 0x20..0x7e are the printable ASCII code points themselves (the fast path: no lookup, no
// segmentation, width 1). Id 0 marks the trailing half of a wide grapheme. Everything else is
// interned from FIRST_INTERNED upward, shown as src/text/control-chars.ts says and as wide as ./width.ts says.
import { neutralizeControls } from "../../text/control-chars.ts";
import { graphemeWidth } from "./width.ts";

export const WIDE_TAIL = 0;
export const SPACE = 0x20;
const FIRST_INTERNED = 0x80;

export class GraphemeTable {
  private readonly byText = new Map<string, number>();
  private readonly texts: string[] = [];
  private widths = new Uint8Array(256);

  constructor() {
    for (let c = 0; c < FIRST_INTERNED; c++) {
      this.texts.push(c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : "");
      this.widths[c] = c >= 0x20 && c < 0x7f ? 1 : 0;
    }
  }

  /** Id for one grapheme cluster (already segmented). Controls are neutralised here. */
  intern(g: string): number {
    if (g.length === 1) {
      const c = g.charCodeAt(0);
      if (c >= 0x20 && c < 0x7f) return c;
    }
    let id = this.byText.get(g);
    if (id !== undefined) return id;
    const text = neutralizeControls(g);
    id = this.texts.length;
    this.texts.push(text);
    if (id >= this.widths.length) {
      const next = new Uint8Array(this.widths.length * 2);
      next.set(this.widths);
      this.widths = next;
    }
    this.widths[id] = graphemeWidth(g);
    this.byText.set(g, id);
    return id;
  }

  text(id: number): string {
    return this.texts[id] ?? "";
  }

  width(id: number): number {
    return this.widths[id] ?? 0;
  }

  /** True when the terminal may disagree with us about this grapheme's width (multi-code-point). */
  isComplex(id: number): boolean {
    if (id < FIRST_INTERNED) return false;
    const t = this.texts[id] ?? "";
    return t.length > 2 || (t.length === 2 && !(t.charCodeAt(0) >= 0xd800 && t.charCodeAt(0) < 0xdc00));
  }
}
