// Byte sequences as real terminals send them (xterm, kitty, tmux, iTerm2, Windows Terminal).
import { describe, expect, test } from "bun:test";
import { createInputDecoder, type InputEvent, type KeyEvent } from "../../../src/tui/term/decoder.ts";

const bytes = (s: string) => new TextEncoder().encode(s);
function decode(...chunks: Array<string | Uint8Array>): InputEvent[] {
  const d = createInputDecoder();
  const out: InputEvent[] = [];
  for (const c of chunks) out.push(...d.feed(c));
  return out;
}
const k = (key: string, m: Partial<KeyEvent> = {}): Partial<KeyEvent> => ({ type: "key", key, ctrl: false, alt: false, shift: false, meta: false, ...m });

describe("keys", () => {
  test("arrows: CSI (xterm normal mode) and SS3 (application mode, tmux)", () => {
    expect(decode("\x1b[A\x1b[B\x1bOC\x1bOD")).toMatchObject([k("up"), k("down"), k("right"), k("left")]);
  });

  test("xterm modifier parameters on cursor and tilde keys", () => {
    expect(decode("\x1b[1;5C")).toMatchObject([k("right", { ctrl: true })]);
    expect(decode("\x1b[1;2A")).toMatchObject([k("up", { shift: true })]);
    expect(decode("\x1b[1;3D")).toMatchObject([k("left", { alt: true })]);
    expect(decode("\x1b[3;5~")).toMatchObject([k("delete", { ctrl: true })]);
    expect(decode("\x1b[5~\x1b[6~\x1b[H\x1b[F\x1b[1~\x1b[4~")).toMatchObject([k("pageup"), k("pagedown"), k("home"), k("end"), k("home"), k("end")]);
  });

  test("function keys: SS3 F1-F4 (xterm), CSI 15~ F5, with modifiers", () => {
    expect(decode("\x1bOP\x1bOS\x1b[15~\x1b[24~\x1b[1;2P")).toMatchObject([k("f1"), k("f4"), k("f5"), k("f12"), k("f1", { shift: true })]);
  });

  test("control keys: Enter, Tab, Backspace (DEL; Windows Terminal Ctrl+Backspace is BS), Ctrl+letters, Shift+Tab", () => {
    expect(decode("\r\t\x7f\x08\x03\x1a\x1b[Z")).toMatchObject([
      k("enter"), k("tab"), k("backspace"), k("backspace", { ctrl: true }), k("c", { ctrl: true }), k("z", { ctrl: true }), k("tab", { shift: true }),
    ]);
  });

  test("Alt as an ESC prefix (iTerm2 'Esc+', xterm metaSendsEscape)", () => {
    expect(decode("\x1bb\x1b\x7f\x1b\r")).toMatchObject([k("b", { alt: true }), k("backspace", { alt: true }), k("enter", { alt: true })]);
    expect(decode("\x1b\x1b[A")).toMatchObject([k("up", { alt: true })]);
  });

  test("kitty keyboard protocol (CSI u) with modifiers and event types", () => {
    expect(decode("\x1b[97;5u")).toMatchObject([k("a", { ctrl: true })]);
    expect(decode("\x1b[13;2u")).toMatchObject([k("enter", { shift: true })]);
    expect(decode("\x1b[27u")).toMatchObject([k("escape")]);
    expect(decode("\x1b[97;1:3u")).toMatchObject([{ ...k("a"), event: "release" }]);
    expect(decode("\x1b[1;5:2A")).toMatchObject([k("up", { ctrl: true })]);
  });

  test("xterm modifyOtherKeys (CSI 27;mod;code~): Ctrl+Enter, Ctrl+Shift+A", () => {
    expect(decode("\x1b[27;5;13~")).toMatchObject([k("enter", { ctrl: true })]);
    expect(decode("\x1b[27;6;65~")).toMatchObject([k("A", { ctrl: true, shift: true })]);
  });

  test("typed text: one event per grapheme, emoji and CJK intact", () => {
    const out = decode("a中👨‍👩‍👧é");
    expect(out.map((e) => (e as KeyEvent).text)).toEqual(["a", "中", "👨‍👩‍👧", "é"]);
  });
});

describe("split reads", () => {
  test("a UTF-8 character split across reads comes out whole", () => {
    const b = bytes("中");
    expect(decode(b.slice(0, 1), b.slice(1, 2), b.slice(2))).toMatchObject([k("中", { text: "中" })]);
    const e = bytes("👍");
    expect(decode(e.slice(0, 3), e.slice(3))).toMatchObject([k("👍")]);
  });

  test("an escape sequence split across reads is held, not typed", () => {
    const d = createInputDecoder();
    expect(d.feed("\x1b[1;")).toEqual([]);
    expect(d.pending).toBe(true);
    expect(d.feed("5C")).toMatchObject([k("right", { ctrl: true })]);
    expect(d.pending).toBe(false);
  });

  test("a lone Esc waits for the timeout (flush) and is the Escape key", () => {
    const d = createInputDecoder();
    expect(d.feed("\x1b")).toEqual([]);
    expect(d.pending).toBe(true);
    expect(d.flush()).toMatchObject([k("escape")]);
    expect(d.pending).toBe(false);
  });

  test("Esc then '[' typed slowly is Escape followed by '[' once the timeout fires", () => {
    const d = createInputDecoder();
    expect(d.feed("\x1b[")).toEqual([]);
    expect(d.flush()).toMatchObject([k("escape"), k("[", { text: "[" })]);
  });

  test("Esc followed quickly by a sequence is the sequence", () => {
    const d = createInputDecoder();
    d.feed("\x1b");
    expect(d.feed("[A")).toMatchObject([k("up")]);
  });
});

describe("paste", () => {
  test("bracketed paste is one event, controls and escapes inside taken literally", () => {
    const text = "line 1\r\nline 2\t\x1b[A not a key";
    expect(decode(`x\x1b[200~${text}\x1b[201~y`)).toMatchObject([k("x"), { type: "paste", text }, k("y")]);
  });

  test("a 5 MB paste split into 64 KB reads, end marker split across reads, is one event", () => {
    const text = "0123456789abcdef".repeat(5 * 65536);
    const all = bytes(`\x1b[200~${text}\x1b[201~`);
    const d = createInputDecoder();
    const out: InputEvent[] = [];
    for (let i = 0; i < all.length; i += 65533) {
      out.push(...d.feed(all.slice(i, i + 65533)));
      if (i + 65533 < all.length) expect(d.pending).toBe(false); // a paste never waits on the Esc timeout
    }
    expect(out.length).toBe(1);
    expect(out[0]).toMatchObject({ type: "paste" });
    expect((out[0] as { text: string }).text.length).toBe(text.length);
    const tail = bytes("\x1b[200~abc\x1b[201~");
    const d2 = createInputDecoder();
    expect([...d2.feed(tail.slice(0, 12)), ...d2.feed(tail.slice(12))]).toMatchObject([{ type: "paste", text: "abc" }]);
  });
});

describe("terminal reports", () => {
  test("focus in/out (CSI I / CSI O)", () => {
    expect(decode("\x1b[I\x1b[O")).toEqual([{ type: "focus", focused: true }, { type: "focus", focused: false }]);
  });

  test("DECRQM, kitty flags and DA1 replies (answers to our capability probe)", () => {
    expect(decode("\x1b[?2026;2$y\x1b[?1u\x1b[?62;22c")).toEqual([
      { type: "reply", kind: "mode", mode: 2026, value: 2 },
      { type: "reply", kind: "kitty-flags", flags: 1 },
      { type: "reply", kind: "device-attributes", params: "62;22" },
    ]);
  });

  test("SGR mouse press and release", () => {
    expect(decode("\x1b[<0;10;5M\x1b[<0;10;5m")).toMatchObject([
      { type: "mouse", button: 0, col: 9, row: 4, release: false },
      { type: "mouse", button: 0, col: 9, row: 4, release: true },
    ]);
  });

  test("an Escape read together with a reply behind it stays an Escape: replies are never Alt-modified", () => {
    expect(decode("\x1b\x1b[?62;22c")).toMatchObject([k("escape"), { type: "reply", kind: "device-attributes", params: "62;22" }]);
    expect(decode("\x1b", "\x1b[?2026;2$y")).toMatchObject([k("escape"), { type: "reply", kind: "mode", mode: 2026 }]);
    expect(decode("\x1b\x1b[A")).toMatchObject([k("up", { alt: true })]);
  });

  test("OSC replies are swallowed, never typed; OSC 11 is read as the background colour", () => {
    expect(decode("\x1b]10;rgb:0000/0000/0000\x1b\\a")).toMatchObject([{ type: "unknown" }, k("a")]);
    expect(decode("\x1b]11;rgb:ffff/fefe/f0f0\x1b\\a")).toMatchObject([{ type: "reply", kind: "background", r: 255, g: 254, b: 240 }, k("a")]);
    expect(decode("\x1b]11;rgb:1e/1e/2e\x07")).toMatchObject([{ type: "reply", kind: "background", r: 30, g: 30, b: 46 }]);
  });

  test("CSI row;col R is a cursor report only while one is expected (else it is a modified F3), and DA1 ends the expectation", () => {
    const d = createInputDecoder();
    expect(d.feed("\x1b[1;2R")).toMatchObject([{ type: "key", key: "f3", shift: true }]);
    d.expectCursorReports(2);
    expect(d.feed("\x1b[5;1R\x1b[5;3R\x1b[1;2R")).toMatchObject([
      { type: "reply", kind: "cursor", row: 5, col: 1 }, { type: "reply", kind: "cursor", row: 5, col: 3 }, { type: "key", key: "f3" },
    ]);
    d.expectCursorReports(3);
    expect(d.feed("\x1b[?62c\x1b[1;2R")).toMatchObject([{ type: "reply", kind: "device-attributes" }, { type: "key", key: "f3" }]);
  });
});
