// Input decoding: raw bytes from the terminal → key, paste, focus and reply events.
//
// A pure state machine: `feed` takes whatever one read() returned (any split: half a UTF-8
// character, half an escape sequence, a megabyte of paste) and returns the events that are
// complete. What is left is held. The one ambiguity of terminal input, a lone Esc versus the
// start of a sequence, is resolved by time, which the caller owns: when `pending` is true after a
// feed, wait a short moment (ESC_TIMEOUT_MS) and call `flush()` if nothing else arrived. Tests
// therefore never sleep: they call flush() where the timeout would have fired.
//
// Understood: legacy C0 controls (Ctrl+letter), ESC-prefixed Alt, CSI and SS3 cursor/function keys
// with xterm modifier parameters, xterm modifyOtherKeys (CSI 27;mod;code~), the kitty keyboard
// protocol (CSI code[:alt];mods[:event]u), bracketed paste, focus in/out, SGR mouse, and replies to
// our capability queries (DECRQM, kitty flags, DA1, OSC 11's background colour, and cursor
// position reports while the start-up probe expects them: CSI row;col R is also Shift+F3 & co.).

import { unicodeGraphemes } from "../render/width.ts";

export const ESC_TIMEOUT_MS = 30;

export type Modifiers = { ctrl: boolean; alt: boolean; shift: boolean; meta: boolean };
export type KeyEvent = Modifiers & {
  type: "key";
  /** A name ("enter", "up", "f5", "escape", …) or the character itself ("a", "A", "中", " "). */
  key: string;
  /** Text this key types, when it types any. */
  text?: string;
  /** kitty: a key release or auto-repeat (only when release events were requested). */
  event?: "press" | "repeat" | "release";
};
export type PasteEvent = { type: "paste"; text: string };
export type FocusEvent = { type: "focus"; focused: boolean };
export type MouseEvent = Modifiers & { type: "mouse"; button: number; col: number; row: number; release: boolean; motion: boolean; wheel: boolean };
export type ReplyEvent =
  | { type: "reply"; kind: "mode"; mode: number; value: number }
  | { type: "reply"; kind: "kitty-flags"; flags: number }
  | { type: "reply"; kind: "device-attributes"; params: string }
  | { type: "reply"; kind: "cursor"; row: number; col: number }
  | { type: "reply"; kind: "background"; r: number; g: number; b: number };
export type UnknownEvent = { type: "unknown"; sequence: string };
export type InputEvent = KeyEvent | PasteEvent | FocusEvent | MouseEvent | ReplyEvent | UnknownEvent;

export type InputDecoder = {
  feed(chunk: Uint8Array | string): InputEvent[];
  /** The Esc timeout fired: whatever is held is taken literally (a lone Esc is the Escape key). */
  flush(): InputEvent[];
  /** Something incomplete is held (not counting an unfinished paste, which has no timeout). */
  readonly pending: boolean;
  /** The next `n` CSI row;col R are cursor position reports (until DA1's answer says none is coming). */
  expectCursorReports(n: number): void;
};

/** OSC 10/11 colour reply: rgb:R/G/B with 1 to 4 hex digits per channel, scaled to 0..255. */
function decodeColor(body: string): { r: number; g: number; b: number } | null {
  const m = /^rgba?:([0-9a-f]{1,4})\/([0-9a-f]{1,4})\/([0-9a-f]{1,4})/i.exec(body);
  if (!m) return null;
  const ch = (h: string) => Math.round((parseInt(h, 16) / (16 ** h.length - 1)) * 255);
  return { r: ch(m[1]!), g: ch(m[2]!), b: ch(m[3]!) };
}

const PASTE_START = "\x1b[200~";
const PASTE_END = "\x1b[201~";
const NONE: Modifiers = { ctrl: false, alt: false, shift: false, meta: false };

const TILDE_KEYS: Record<number, string> = {
  1: "home", 2: "insert", 3: "delete", 4: "end", 5: "pageup", 6: "pagedown", 7: "home", 8: "end",
  11: "f1", 12: "f2", 13: "f3", 14: "f4", 15: "f5", 17: "f6", 18: "f7", 19: "f8", 20: "f9", 21: "f10", 23: "f11", 24: "f12",
};
const LETTER_KEYS: Record<string, string> = {
  A: "up", B: "down", C: "right", D: "left", H: "home", F: "end", E: "clear", P: "f1", Q: "f2", R: "f3", S: "f4",
};
const KITTY_KEYS: Record<number, string> = {
  9: "tab", 13: "enter", 27: "escape", 127: "backspace", 57399: "0", 57414: "enter",
  57417: "left", 57418: "right", 57419: "up", 57420: "down", 57421: "pageup", 57422: "pagedown", 57423: "home", 57424: "end", 57425: "insert", 57426: "delete",
};

function mods(param: number | undefined): Modifiers {
  const m = (param ?? 1) - 1;
  if (m <= 0) return NONE;
  return { shift: (m & 1) !== 0, alt: (m & 2) !== 0, ctrl: (m & 4) !== 0, meta: (m & 8) !== 0 || (m & 32) !== 0 };
}

function key(name: string, m: Modifiers = NONE, text?: string): KeyEvent {
  const e: KeyEvent = { type: "key", key: name, ...m };
  if (text !== undefined) e.text = text;
  return e;
}

/** A key typed without an escape sequence: C0 controls are Ctrl+letter, the rest types text. */
function plainKey(ch: string, alt: boolean): KeyEvent {
  const c = ch.charCodeAt(0);
  const m = { ...NONE, alt };
  if (ch.length === 1) {
    if (c === 0x0d) return key("enter", m);
    if (c === 0x09) return key("tab", m);
    if (c === 0x7f) return key("backspace", m);
    if (c === 0x08) return key("backspace", { ...m, ctrl: true });
    if (c === 0x1b) return key("escape", m);
    if (c === 0x00) return key(" ", { ...m, ctrl: true });
    if (c < 0x1b) return key(String.fromCharCode(c + 0x60), { ...m, ctrl: true });
    if (c < 0x20) return key(String.fromCharCode(c + 0x40), { ...m, ctrl: true });
  }
  return alt ? key(ch, m) : key(ch, m, ch);
}

/** kitty reports repeat/release as ":2"/":3" after the modifier parameter. */
function withEvent(e: KeyEvent, modParam: string | undefined): KeyEvent {
  const ev = modParam?.split(":")[1];
  if (ev === "2") e.event = "repeat";
  else if (ev === "3") e.event = "release";
  return e;
}

function decodeCsi(seq: string): InputEvent {
  // seq: everything after ESC [ up to and including the final byte
  const final = seq[seq.length - 1]!;
  const body = seq.slice(0, -1);
  if (body.startsWith("?")) {
    if (final === "y" && body.endsWith("$")) {
      const [mode, value] = body.slice(1, -1).split(";").map(Number);
      return { type: "reply", kind: "mode", mode: mode ?? 0, value: value ?? 0 };
    }
    if (final === "u") return { type: "reply", kind: "kitty-flags", flags: Number(body.slice(1)) || 0 };
    if (final === "c") return { type: "reply", kind: "device-attributes", params: body.slice(1) };
    return { type: "unknown", sequence: "\x1b[" + seq };
  }
  if (body.startsWith("<") && (final === "M" || final === "m")) {
    const [b = 0, x = 1, y = 1] = body.slice(1).split(";").map(Number);
    return {
      type: "mouse", button: b & 3, col: x - 1, row: y - 1, release: final === "m", motion: (b & 32) !== 0, wheel: (b & 64) !== 0,
      shift: (b & 4) !== 0, alt: (b & 8) !== 0, ctrl: (b & 16) !== 0, meta: false,
    };
  }
  if (body === "" && final === "I") return { type: "focus", focused: true };
  if (body === "" && final === "O") return { type: "focus", focused: false };
  if (body === "" && final === "Z") return key("tab", { ...NONE, shift: true });
  const params = body.split(";");
  if (final === "u") {
    const [codes = "", modField = ""] = params;
    const code = Number(codes.split(":")[0]);
    const [modStr, evStr] = modField.split(":");
    const m = mods(modStr ? Number(modStr) : 1);
    const ev = evStr === "2" ? "repeat" : evStr === "3" ? "release" : undefined;
    const named = KITTY_KEYS[code];
    let e: KeyEvent;
    if (named) e = key(named, m);
    else if (code >= 57344 && code <= 63743) e = { type: "key", key: `kitty-${code}`, ...m }; // functional keys we do not name
    else {
      let ch = String.fromCodePoint(code);
      if (m.shift && ch.toUpperCase() !== ch) ch = ch.toUpperCase();
      e = m.ctrl || m.alt || m.meta ? key(ch, m) : key(ch, m, ch);
    }
    if (ev) e.event = ev;
    return e;
  }
  if (final === "~") {
    const n = Number(params[0]);
    if (n === 27 && params.length >= 3) {
      // xterm modifyOtherKeys: CSI 27 ; mod ; code ~
      const m = mods(Number(params[1]));
      const code = Number(params[2]);
      const named = KITTY_KEYS[code];
      if (named) return key(named, m);
      const ch = String.fromCodePoint(code);
      return m.ctrl || m.alt || m.meta ? key(ch, m) : key(ch, m, ch);
    }
    const name = TILDE_KEYS[n];
    if (name) return withEvent(key(name, mods(parseInt(params[1] ?? "1", 10) || 1)), params[1]);
    return { type: "unknown", sequence: "\x1b[" + seq };
  }
  const letter = LETTER_KEYS[final];
  if (letter && /^[\d;:]*$/.test(body)) return withEvent(key(letter, mods(parseInt(params[1] ?? "1", 10) || 1)), params[1]);
  return { type: "unknown", sequence: "\x1b[" + seq };
}

export function createInputDecoder(): InputDecoder {
  const utf8 = new TextDecoder("utf-8");
  let buf = "";
  let paste: string[] | null = null;
  let pasteTail = "";
  let cursorReports = 0;

  function takePaste(out: InputEvent[]): void {
    // Inside a paste: look for the end marker, which may straddle two reads.
    const joined = pasteTail + buf;
    const end = joined.indexOf(PASTE_END);
    if (end < 0) {
      const keep = Math.min(joined.length, PASTE_END.length - 1);
      paste!.push(joined.slice(0, joined.length - keep));
      pasteTail = joined.slice(joined.length - keep);
      buf = "";
      return;
    }
    paste!.push(joined.slice(0, end));
    out.push({ type: "paste", text: paste!.join("") });
    paste = null;
    pasteTail = "";
    buf = joined.slice(end + PASTE_END.length);
  }

  /** Parses one event at the start of buf; returns false when buf holds only an incomplete prefix. */
  function step(out: InputEvent[], final: boolean): boolean {
    const c = buf.charCodeAt(0);
    if (c !== 0x1b) {
      // One grapheme of typed text (or one control).
      if (c < 0x20 || c === 0x7f) { out.push(plainKey(buf[0]!, false)); buf = buf.slice(1); return true; }
      let end = 0;
      for (const { segment } of unicodeGraphemes(buf.length > 64 ? buf.slice(0, 64) : buf)) { end = segment.length; break; }
      // A grapheme could continue in the next read (e.g. a ZWJ sequence): hold it unless flushing.
      if (end === buf.length && !final && /[\u200d\ufe0f\ud800-\udbff]$/.test(buf)) return false;
      out.push(plainKey(buf.slice(0, end), false));
      buf = buf.slice(end);
      return true;
    }
    if (buf.length === 1) {
      if (!final) return false;
      out.push(key("escape"));
      buf = "";
      return true;
    }
    const second = buf[1]!;
    if (second === "[") {
      if (buf.startsWith(PASTE_START)) { paste = []; buf = buf.slice(PASTE_START.length); return true; }
      let i = 2;
      while (i < buf.length && buf.charCodeAt(i) >= 0x20 && buf.charCodeAt(i) <= 0x3f) i++;
      if (i >= buf.length) return incomplete(out, final);
      const f = buf.charCodeAt(i);
      if (f < 0x40 || f > 0x7e) { out.push({ type: "unknown", sequence: buf.slice(0, i) }); buf = buf.slice(i); return true; }
      const seq = buf.slice(2, i + 1);
      const cpr = cursorReports > 0 ? /^(\d+);(\d+)R$/.exec(seq) : null;
      if (cpr) {
        cursorReports--;
        out.push({ type: "reply", kind: "cursor", row: Number(cpr[1]), col: Number(cpr[2]) });
      } else {
        const e = decodeCsi(seq);
        if (e.type === "reply" && e.kind === "device-attributes") cursorReports = 0;
        out.push(e);
      }
      buf = buf.slice(i + 1);
      return true;
    }
    if (second === "O") {
      if (buf.length < 3) return incomplete(out, final);
      const name = LETTER_KEYS[buf[2]!];
      out.push(name ? key(name) : { type: "unknown", sequence: buf.slice(0, 3) });
      buf = buf.slice(3);
      return true;
    }
    if (second === "]" || second === "P" || second === "_") {
      // OSC / DCS / APC reply: up to BEL or ST. Swallowed so it never types; only OSC 11 (the background) is read.
      const bel = buf.indexOf("\x07", 2);
      const st = buf.indexOf("\x1b\\", 2);
      const ends = [bel >= 0 ? bel + 1 : -1, st >= 0 ? st + 2 : -1].filter((n) => n > 0);
      if (ends.length === 0) return incomplete(out, final);
      const end = Math.min(...ends);
      const bg = buf.startsWith("\x1b]11;") ? decodeColor(buf.slice(5)) : null;
      out.push(bg ? { type: "reply", kind: "background", ...bg } : { type: "unknown", sequence: buf.slice(0, end) });
      buf = buf.slice(end);
      return true;
    }
    if (second === "\x1b") {
      // ESC ESC [ A: Alt + a sequence (some terminals); ESC ESC alone: Alt+Escape.
      if (buf.length === 2 && !final) return false;
      if (buf[2] === "[" || buf[2] === "O") {
        const before = out.length;
        buf = buf.slice(1);
        if (!step(out, final)) { buf = "\x1b" + buf; return false; }
        const e = out[before];
        if (e && (e.type === "key" || e.type === "mouse")) e.alt = true;
        // A terminal's reply right behind the user's Escape (the link probe's DA1 rides behind every
        // frame): the Escape was a key of its own, not Alt on the reply.
        else out.splice(before, 0, key("escape", NONE));
        return true;
      }
      out.push(key("escape", { ...NONE, alt: true }));
      buf = buf.slice(2);
      return true;
    }
    // ESC + character: Alt+key.
    let end = 1;
    for (const { segment } of unicodeGraphemes(buf.slice(1, 17))) { end = 1 + segment.length; break; }
    out.push(plainKey(buf.slice(1, end), true));
    buf = buf.slice(end);
    return true;
  }

  function incomplete(out: InputEvent[], final: boolean): boolean {
    if (!final) return false;
    // The timeout fired mid-sequence: the Esc was a key press; the rest is typed text.
    out.push(key("escape"));
    buf = buf.slice(1);
    return true;
  }

  function run(final: boolean): InputEvent[] {
    const out: InputEvent[] = [];
    while (buf.length > 0) {
      if (paste) { takePaste(out); continue; }
      if (!step(out, final)) break;
    }
    return out;
  }

  return {
    feed(chunk) {
      buf += typeof chunk === "string" ? chunk : utf8.decode(chunk, { stream: true });
      return run(false);
    },
    flush() {
      return run(true);
    },
    get pending() {
      return paste === null && buf.length > 0;
    },
    expectCursorReports(n) {
      cursorReports = n;
    },
  };
}
