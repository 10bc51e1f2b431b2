// "editorMode": "vim": normal and insert modes in the composer, driven as key handlers are.
import { describe, expect, test } from "bun:test";
import type { InputEvent } from "../../../src/tui/app/app-input.ts";
import { setup } from "../support/app-state.ts";

const key = (name: string, mods: { ctrl?: boolean } = {}): InputEvent => ({ type: "key", name, ctrl: mods.ctrl ?? false, alt: false, shift: false });
const typed = (text: string): InputEvent => ({ type: "text", text });
const ESC = key("escape");

function vim(text = "") {
  const t = setup({ vim: { mode: "insert", pending: "" } });
  if (text) t.press(typed(text));
  return t;
}
/** The text with the cursor shown as |. */
const shown = (t: ReturnType<typeof vim>) => `${t.state.composer.text.slice(0, t.state.composer.cursor)}|${t.state.composer.text.slice(t.state.composer.cursor)}`;

describe("vim mode", () => {
  test("Esc goes to normal mode onto the last character; letters are commands, not text", () => {
    const t = vim("hello world");
    t.press(ESC);
    expect(t.state.vim?.mode).toBe("normal");
    expect(shown(t)).toBe("hello worl|d");
    t.press(typed("0"));
    expect(shown(t)).toBe("|hello world");
    t.press(typed("w"));
    expect(shown(t)).toBe("hello |world");
    t.press(typed("e"));
    expect(shown(t)).toBe("hello worl|d");
    t.press(typed("b"));
    expect(shown(t)).toBe("hello |world");
    t.press(typed("$"));
    expect(shown(t)).toBe("hello worl|d");
    t.press(typed("hh"));
    expect(shown(t)).toBe("hello wo|rld");
    t.press(typed("l"));
    expect(shown(t)).toBe("hello wor|ld");
    t.press(typed("q z"));
    expect(t.state.composer.text).toBe("hello world");
  });

  test("x, dw, cw, dd and u edit as in vim", () => {
    const t = vim("one two three");
    t.press(ESC, typed("0x"));
    expect(shown(t)).toBe("|ne two three");
    t.press(typed("dw"));
    expect(shown(t)).toBe("|two three");
    t.press(typed("cw"));
    expect(t.state.vim?.mode).toBe("insert");
    t.press(typed("2"));
    expect(shown(t)).toBe("2| three");
    // u undoes one composer edit: a change is two (what cw deleted, what was typed).
    t.press(ESC, typed("u"));
    expect(t.state.composer.text).toBe(" three");
    t.press(typed("u"));
    expect(t.state.composer.text).toBe("two three");
    t.press(typed("dd"));
    expect(t.state.composer.text).toBe("");
  });

  test("i a A I o enter insert mode where vim does; j and k move between lines", () => {
    const t = vim("ab\ncd");
    t.press(ESC, typed("k"));
    expect(shown(t)).toBe("a|b\ncd");
    t.press(typed("I"), typed(">"), ESC, typed("A"), typed("!"), ESC, typed("j"));
    expect(t.state.composer.text).toBe(">ab!\ncd");
    t.press(typed("o"), typed("new"));
    expect(t.state.composer.text).toBe(">ab!\ncd\nnew");
    t.press(ESC, typed("0a"), typed("_"));
    expect(t.state.composer.text).toBe(">ab!\ncd\nn_ew");
    t.press(ESC, typed("0i"), typed("^"));
    expect(t.state.composer.text).toBe(">ab!\ncd\n^n_ew");
  });

  test("Enter sends from either mode and the next message starts in insert mode; Esc in normal mode is the app's (interrupt)", () => {
    const t = vim("send me");
    t.press(ESC, key("enter"));
    expect(t.actions.submitted).toEqual(["send me"]);
    expect(t.state.vim?.mode).toBe("insert");
    t.state.busy = { abort: new AbortController(), kind: "turn", startedAt: 0 };
    t.press(ESC);
    expect(t.actions.interrupts).toBe(0);
    t.press(ESC);
    expect(t.actions.interrupts).toBe(1);
  });

  test("a burst that enters insert mode types the rest of it", () => {
    const t = vim("ab");
    t.press(ESC, typed("A and more"));
    expect(t.state.composer.text).toBe("ab and more");
    expect(t.state.vim?.mode).toBe("insert");
  });

  test("without the setting there are no modes: Esc and letters behave as always", () => {
    const t = setup();
    t.press(typed("abc"), ESC, typed("x"));
    expect(t.state.composer.text).toBe("abcx");
  });
});
