import { expect, test } from "bun:test";
import { InputDecoder } from "../../../src/tui/app/input.ts";

test("keys, modifiers, Alt prefixes and Shift+Enter forms decode", () => {
  const d = new InputDecoder();
  const evs = d.feed("ab\r\x1b[1;5D\x1b\r\x1b[13;2u\x1b[27;2;13~\x1b[Z\x03\x1bb\x7f\x1b[5~");
  expect(evs.map((e) => (e.type === "key" ? `${e.ctrl ? "C-" : ""}${e.alt ? "M-" : ""}${e.shift ? "S-" : ""}${e.name}` : `${e.type}:${"text" in e ? e.text : ""}`))).toEqual([
    "text:ab",
    "enter",
    "C-left",
    "M-enter",
    "S-enter",
    "S-enter",
    "S-tab",
    "C-c",
    "M-b",
    "backspace",
    "pageup",
  ]);
});

test("a bracketed paste split across chunks arrives whole, escape codes inside it included", () => {
  const d = new InputDecoder();
  expect(d.feed("\x1b[200~line one\n\x1b[A")).toEqual([]);
  expect(d.feed("line two\x1b[20")).toEqual([]);
  expect(d.feed("1~x")).toEqual([{ type: "paste", text: "line one\n\x1b[Aline two" }, { type: "text", text: "x" }]);
});

test("a lone ESC waits for flush, then is the Escape key; wheel events decode", () => {
  const d = new InputDecoder();
  expect(d.feed("\x1b")).toEqual([]);
  expect(d.pending).toBe(true);
  expect(d.flush()).toEqual([{ type: "key", name: "escape", ctrl: false, alt: false, shift: false }]);
  expect(d.feed("\x1b[<64;10;5M\x1b[<65;10;5M")).toEqual([{ type: "wheel", delta: -1 }, { type: "wheel", delta: 1 }]);
});
