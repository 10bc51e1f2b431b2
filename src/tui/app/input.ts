// Terminal input → key, paste and mouse events. An adapter on the app's side: the terminal layer
// (src/tui/term) had no input decoder when the app was written; when it has one, this file is the
// only thing to swap. Covers what terminals send without any keyboard protocol negotiated:
// legacy CSI/SS3 keys with xterm modifiers, Alt as an ESC prefix, bracketed paste (which may arrive
// in many chunks), SGR mouse wheel, and the CSI-u / modifyOtherKeys forms some terminals use for
// Shift+Enter.

export type Key = { type: "key"; name: string; ctrl: boolean; alt: boolean; shift: boolean };
export type InputEvent = Key | { type: "text"; text: string } | { type: "paste"; text: string } | { type: "wheel"; delta: -1 | 1 };

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";

const key = (name: string, mods: Partial<Omit<Key, "type" | "name">> = {}): Key => ({
  type: "key",
  name,
  ctrl: mods.ctrl ?? false,
  alt: mods.alt ?? false,
  shift: mods.shift ?? false,
});

const CSI_FINAL: Record<string, string> = { A: "up", B: "down", C: "right", D: "left", H: "home", F: "end", P: "f1", Q: "f2", R: "f3", S: "f4" };
const CSI_TILDE: Record<number, string> = { 1: "home", 2: "insert", 3: "delete", 4: "end", 5: "pageup", 6: "pagedown", 7: "home", 8: "end" };

function mods(param: number | undefined): { shift: boolean; alt: boolean; ctrl: boolean } {
  const m = (param ?? 1) - 1;
  return { shift: (m & 1) !== 0, alt: (m & 2) !== 0, ctrl: (m & 4) !== 0 };
}

export class InputDecoder {
  private buf = "";
  private paste: string | null = null;

  /** Decodes what it can; an incomplete sequence waits for more input (or flush()). */
  feed(data: string): InputEvent[] {
    this.buf += data;
    const out: InputEvent[] = [];
    for (;;) {
      if (this.paste !== null) {
        const end = this.buf.indexOf(PASTE_END);
        if (end < 0) {
          // Keep a possible partial end marker in the buffer.
          const keep = partialSuffix(this.buf, PASTE_END);
          this.paste += this.buf.slice(0, this.buf.length - keep);
          this.buf = this.buf.slice(this.buf.length - keep);
          return out;
        }
        out.push({ type: "paste", text: this.paste + this.buf.slice(0, end) });
        this.paste = null;
        this.buf = this.buf.slice(end + PASTE_END.length);
        continue;
      }
      if (this.buf.length === 0) return out;
      const consumed = this.decodeOne(out);
      if (consumed === 0) return out;
      this.buf = this.buf.slice(consumed);
    }
  }

  /** True when a lone ESC (or a partial sequence) is waiting: call flush() after a short pause. */
  get pending(): boolean {
    return this.buf.length > 0 && this.paste === null;
  }

  /** The pause after a lone ESC: it was the Escape key, not the start of a sequence. */
  flush(): InputEvent[] {
    if (this.paste !== null || this.buf.length === 0) return [];
    const out: InputEvent[] = [];
    if (this.buf === "\x1b") out.push(key("escape"));
    else if (this.buf === "\x1b\x1b") out.push(key("escape", { alt: true }));
    else out.push(...this.fallbackText(this.buf));
    this.buf = "";
    return out;
  }

  private fallbackText(s: string): InputEvent[] {
    const text = s.replace(/\x1b/g, "");
    return text ? [{ type: "text", text }] : [key("escape")];
  }

  /** Returns how many characters it consumed (0: need more input). */
  private decodeOne(out: InputEvent[]): number {
    const b = this.buf;
    const c = b.charCodeAt(0);
    if (c === 0x1b) return this.decodeEscape(out);
    if (c === 0x0d) return out.push(key("enter")), 1;
    if (c === 0x0a) return out.push(key("j", { ctrl: true })), 1;
    if (c === 0x09) return out.push(key("tab")), 1;
    if (c === 0x7f || c === 0x08) return out.push(key("backspace")), 1;
    if (c === 0) return out.push(key("space", { ctrl: true })), 1;
    if (c < 0x20) {
      if (c === 0x1f) return out.push(key("_", { ctrl: true })), 1;
      return out.push(key(String.fromCharCode(c + 0x60), { ctrl: true })), 1;
    }
    // A run of printable text (fast typing, or a paste without bracketing) is one event.
    let i = 0;
    while (i < b.length) {
      const d = b.charCodeAt(i);
      if (d < 0x20 || d === 0x7f || d === 0x1b) break;
      i++;
    }
    out.push({ type: "text", text: b.slice(0, i) });
    return i;
  }

  private decodeEscape(out: InputEvent[]): number {
    const b = this.buf;
    if (b.length === 1) return 0; // lone ESC: wait for flush()
    if (b.startsWith(PASTE_START)) {
      this.paste = "";
      return PASTE_START.length;
    }
    if (PASTE_START.startsWith(b)) return 0;
    const second = b[1]!;
    if (second === "[") {
      // CSI: parameters 0x30-0x3f, intermediates 0x20-0x2f, final 0x40-0x7e.
      let i = 2;
      while (i < b.length && b.charCodeAt(i) >= 0x30 && b.charCodeAt(i) <= 0x3f) i++;
      while (i < b.length && b.charCodeAt(i) >= 0x20 && b.charCodeAt(i) <= 0x2f) i++;
      if (i >= b.length) return b.length > 32 ? (out.push(...this.fallbackText(b)), b.length) : 0;
      const final = b[i]!;
      const params = b.slice(2, i);
      this.csi(params, final, out);
      return i + 1;
    }
    if (second === "O") {
      if (b.length < 3) return 0;
      const name = CSI_FINAL[b[2]!];
      out.push(name ? key(name) : { type: "text", text: b[2]! });
      return 3;
    }
    if (second === "\x1b") {
      // ESC ESC [A etc. (Alt + arrow on some terminals) or a double Escape.
      if (b.length === 2) return 0;
      const inner = new InputDecoder();
      const evs = inner.feed(b.slice(1));
      if (inner.pending) return 0;
      for (const e of evs) out.push(e.type === "key" ? { ...e, alt: true } : e);
      return b.length;
    }
    // Alt + key: ESC followed by one character.
    const cc = b.charCodeAt(1);
    if (cc === 0x0d) out.push(key("enter", { alt: true }));
    else if (cc === 0x7f || cc === 0x08) out.push(key("backspace", { alt: true }));
    else if (cc < 0x20) out.push(key(String.fromCharCode(cc + 0x60), { ctrl: true, alt: true }));
    else {
      const cp = b.codePointAt(1)!;
      const ch = String.fromCodePoint(cp);
      out.push(key(ch.toLowerCase(), { alt: true, shift: ch !== ch.toLowerCase() }));
      return 1 + ch.length;
    }
    return 2;
  }

  private csi(params: string, final: string, out: InputEvent[]): void {
    if (params.startsWith("<") && (final === "M" || final === "m")) {
      const [btn] = params.slice(1).split(";").map(Number);
      if (btn === 64) out.push({ type: "wheel", delta: -1 });
      else if (btn === 65) out.push({ type: "wheel", delta: 1 });
      return;
    }
    const nums = params.split(";").map((p) => Number(p.split(":")[0]));
    if (final === "u") {
      // CSI code ; mods u (kitty / fixterms).
      const code = nums[0] ?? 0;
      const m = mods(nums[1]);
      const name = code === 13 ? "enter" : code === 27 ? "escape" : code === 9 ? "tab" : code === 127 ? "backspace" : String.fromCodePoint(code);
      out.push(key(name, m));
      return;
    }
    if (final === "~") {
      if (nums[0] === 27) {
        // modifyOtherKeys: CSI 27 ; mods ; code ~
        const code = nums[2] ?? 0;
        const name = code === 13 ? "enter" : code === 27 ? "escape" : code === 9 ? "tab" : code === 127 ? "backspace" : String.fromCodePoint(code);
        out.push(key(name, mods(nums[1])));
        return;
      }
      const name = CSI_TILDE[nums[0] ?? 0];
      if (name) out.push(key(name, mods(nums[1])));
      return;
    }
    if (final === "Z") {
      out.push(key("tab", { shift: true }));
      return;
    }
    const name = CSI_FINAL[final];
    if (name) out.push(key(name, mods(nums.length > 1 ? nums[1] : undefined)));
    // Anything else (focus reports, device replies) is dropped.
  }
}

function partialSuffix(s: string, marker: string): number {
  for (let n = Math.min(marker.length - 1, s.length); n > 0; n--) if (marker.startsWith(s.slice(s.length - n))) return n;
  return 0;
}
