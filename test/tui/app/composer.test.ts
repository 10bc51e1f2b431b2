import { describe, expect, test } from "bun:test";
import { Composer, PASTE_COLLAPSE_LINES } from "../../../src/tui/app/composer.ts";

const typed = (s: string) => {
  const c = new Composer();
  c.insert(s);
  return c;
};

describe("composer editing", () => {
  test("cursor moves over whole graphemes: emoji, ZWJ sequences and CJK", () => {
    const c = typed("a👩‍👩‍👧漢b");
    c.left();
    expect(c.text.slice(c.cursor)).toBe("b");
    c.left();
    expect(c.text.slice(c.cursor)).toBe("漢b");
    c.left();
    expect(c.text.slice(c.cursor)).toBe("👩‍👩‍👧漢b");
    c.backspace();
    expect(c.text).toBe("👩‍👩‍👧漢b");
    c.deleteForward();
    expect(c.text).toBe("漢b");
  });

  test("word jumps and Emacs kills; consecutive kills yank back together", () => {
    const c = typed("git commit --amend now");
    c.wordLeft();
    expect(c.text.slice(c.cursor)).toBe("now");
    c.wordLeft();
    expect(c.text.slice(c.cursor)).toBe("amend now");
    c.killWordBack();
    c.killWordBack();
    expect(c.text).toBe("amend now");
    c.lineEnd();
    c.yank();
    expect(c.text).toBe("amend nowgit commit --");
    c.lineStart();
    c.killToLineEnd();
    expect(c.text).toBe("");
    c.yank();
    expect(c.text).toBe("amend nowgit commit --");
    c.killToLineStart();
    expect(c.text).toBe("");
  });

  test("undo steps back a word of typing at a time, and over a kill", () => {
    const c = new Composer();
    for (const ch of "hello big world") c.insert(ch);
    c.killWordBack();
    expect(c.text).toBe("hello big ");
    c.undo();
    expect(c.text).toBe("hello big world");
    c.undo();
    expect(c.text).toBe("hello big");
    c.undo();
    c.undo();
    expect(c.text).toBe("");
    expect(c.undo()).toBe(false);
  });

  test("up and down move between lines, and report the edges for history", () => {
    const c = typed("first line\nsecond");
    expect(c.onLastLine()).toBe(true);
    expect(c.down()).toBe(false);
    expect(c.up()).toBe(true);
    expect(c.text.slice(0, c.cursor)).toBe("first ");
    expect(c.up()).toBe(false);
    c.newline();
    expect(c.text).toBe("first \nline\nsecond");
  });

  test("a pasted block ending in a newline counts its lines as the user does", () => {
    const c = new Composer();
    const lines = Array.from({ length: 200 }, (_, i) => `line ${i}`);
    c.paste(`${lines.join("\n")}\n`);
    expect(c.text).toBe("[pasted 200 lines #1]");
    expect(c.submitText()).toBe(`${lines.join("\n")}\n`);
  });

  test("a big paste is one placeholder that is sent in full, deleted by one backspace", () => {
    const big = Array.from({ length: PASTE_COLLAPSE_LINES + 2 }, (_, i) => `line ${i}`).join("\r\n");
    const c = typed("see: ");
    c.paste(big);
    c.insert(" thanks");
    expect(c.text).toBe(`see: [pasted ${PASTE_COLLAPSE_LINES + 2} lines #1] thanks`);
    expect(c.submitText()).toBe(`see: ${big.replace(/\r\n/g, "\n")} thanks`);
    for (let i = 0; i < " thanks".length; i++) c.left();
    c.left();
    expect(c.cursor).toBe("see: ".length);
    c.right();
    c.backspace();
    expect(c.text).toBe("see:  thanks");
  });

  test("a small paste is inserted as it is, atomically for undo", () => {
    const c = typed("x");
    c.paste("a\nb");
    expect(c.text).toBe("xa\nb");
    c.undo();
    expect(c.text).toBe("x");
  });
});

describe("image chips", () => {
  const img = (name: string, size = 24 * 1024) => ({ name, mediaType: "image/png" as const, bytes: Buffer.alloc(size), width: 10, height: 10 });

  test("a chip names the image and its size, moves as one character, and one Backspace removes it (and the image)", () => {
    const c = new Composer();
    c.insert("see ");
    expect(c.attachImage(img("shot.png"))).toBe("[image 1: shot.png, 24 KB]");
    c.insert(" and ");
    c.attachImage(img("two.png", 2048));
    expect(c.text).toBe("see [image 1: shot.png, 24 KB] and [image 2: two.png, 2.0 KB]");
    expect(c.attachedImages().map((i) => i.name)).toEqual(["shot.png", "two.png"]);
    c.backspace();
    expect(c.text).toBe("see [image 1: shot.png, 24 KB] and ");
    expect(c.attachedImages().map((i) => i.name)).toEqual(["shot.png"]);
    c.lineStart();
    c.wordRight();
    c.right();
    c.right();
    expect(c.cursor).toBe("see [image 1: shot.png, 24 KB]".length);
    c.undo();
    expect(c.attachedImages().map((i) => i.name)).toEqual(["shot.png", "two.png"]);
  });

  test("numbers fill the gaps the text leaves; a name cannot close the chip early", () => {
    const c = new Composer();
    c.attachImage(img("a.png"));
    c.backspace();
    expect(c.attachImage(img("we]ird\nname.png"))).toBe("[image 1: we_ird_name.png, 24 KB]");
    c.clear();
    expect(c.attachedImages()).toEqual([]);
  });

  test("typed text that looks like a chip is only text", () => {
    const c = new Composer();
    c.insert("[image 1: fake.png, 1 KB]");
    expect(c.attachedImages()).toEqual([]);
    c.backspace();
    expect(c.text).toBe("[image 1: fake.png, 1 KB");
  });
});
