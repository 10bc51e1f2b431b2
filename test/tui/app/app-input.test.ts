// Terminal bytes → the terminal layer's decoder → the app's events: what the composer, the panel
// and the pager actually receive.
import { expect, test } from "bun:test";
import { toAppInput, type FocusChange, type InputEvent } from "../../../src/tui/app/app-input.ts";
import { createInputDecoder } from "../../../src/tui/term/decoder.ts";

const show = (evs: Array<InputEvent | FocusChange>) =>
  evs.map((e) => (e.type === "focus" ? `focus:${e.focused}` : e.type === "key" ? `${e.ctrl ? "C-" : ""}${e.alt ? "M-" : ""}${e.shift ? "S-" : ""}${e.name}` : e.type === "wheel" ? `wheel:${e.delta}` : `${e.type}:${e.text}`));

test("keys, modifiers, Alt prefixes and the Shift+Enter forms reach the app under its key names", () => {
  const d = createInputDecoder();
  const evs = toAppInput(d.feed("ab\r\x1b[1;5D\x1b\r\x1b[13;2u\x1b[27;2;13~\x1b[Z\x03\x1bb\x7f\x1b[5~\x1f\x00"));
  expect(show(evs)).toEqual(["text:ab", "enter", "C-left", "M-enter", "S-enter", "S-enter", "S-tab", "C-c", "M-b", "backspace", "pageup", "C-_", "C-space"]);
});

test("kitty keyboard protocol: Escape needs no timeout, Ctrl and Alt letters, text with Shift, releases dropped", () => {
  const d = createInputDecoder();
  const evs = toAppInput(d.feed("\x1b[27u\x1b[99;5u\x1b[98;3u\x1b[97;2u\x1b[97;1:3u\x1b[13u"));
  expect(d.pending).toBe(false);
  expect(show(evs)).toEqual(["escape", "C-c", "M-b", "text:A", "enter"]);
});

test("a burst of typed characters is one text event; CJK and emoji stay whole", () => {
  const d = createInputDecoder();
  expect(toAppInput(d.feed("héllo 漢字 👩‍👩‍👧!"))).toEqual([{ type: "text", text: "héllo 漢字 👩‍👩‍👧!" }]);
});

test("a bracketed paste split across chunks arrives whole, escape codes inside it included", () => {
  const d = createInputDecoder();
  expect(toAppInput(d.feed("\x1b[200~line one\n\x1b[A"))).toEqual([]);
  expect(toAppInput(d.feed("line two\x1b[20"))).toEqual([]);
  expect(toAppInput(d.feed("1~x"))).toEqual([{ type: "paste", text: "line one\n\x1b[Aline two" }, { type: "text", text: "x" }]);
});

test("a lone ESC waits for the timeout (flush), then is the Escape key; wheel up and down; focus reports pass; clicks and replies are dropped", () => {
  const d = createInputDecoder();
  expect(toAppInput(d.feed("\x1b"))).toEqual([]);
  expect(d.pending).toBe(true);
  expect(toAppInput(d.flush())).toEqual([{ type: "key", name: "escape", ctrl: false, alt: false, shift: false }]);
  expect(toAppInput(d.feed("\x1b[<64;10;5M\x1b[<65;10;5M\x1b[<0;3;3M\x1b[<0;3;3m\x1b[I\x1b[O\x1b[?2026;2$y\x1b[?62;22c"))).toEqual([
    { type: "wheel", delta: -1 },
    { type: "wheel", delta: 1 },
    { type: "focus", focused: true },
    { type: "focus", focused: false },
  ]);
});
