// A status-line command's output keeps its colours and loses everything else a terminal would act on.
import { describe, expect, test } from "bun:test";
import { sgrToSpans } from "../../../src/tui/render/sgr-spans.ts";

describe("sgrToSpans", () => {
  test("colours and attributes become styles; a reset ends them", () => {
    expect(sgrToSpans("\x1b[1;31mred\x1b[0m plain \x1b[38;5;208morange\x1b[39m \x1b[48;2;1;2;3mbg")).toEqual([
      { text: "red", style: { bold: true, fg: { kind: "index", n: 1 } } },
      { text: " plain " },
      { text: "orange", style: { fg: { kind: "index", n: 208 } } },
      { text: " " },
      { text: "bg", style: { bg: { kind: "rgb", r: 1, g: 2, b: 3 } } },
    ]);
  });

  test("bright colours, 22 ends bold and dim, an empty SGR resets", () => {
    expect(sgrToSpans("\x1b[92;2mA\x1b[22mB\x1b[mC")).toEqual([
      { text: "A", style: { fg: { kind: "index", n: 10 }, dim: true } },
      { text: "B", style: { fg: { kind: "index", n: 10 } } },
      { text: "C" },
    ]);
  });

  test("cursor moves, clears, titles, hyperlinks and other controls are dropped; a tab is a space", () => {
    const text = "a\x1b[2J\x1b[H\x1b]0;title\x07b\x1b]8;;http://x\x1b\\c\x1b(Bd\x07e\tf\x1b[?25l\r\x9b2Kg";
    expect(sgrToSpans(text).map((s) => s.text).join("")).toBe("abcde fg");
    expect(sgrToSpans(text).every((s) => s.style === undefined)).toBe(true);
  });

  test("a sequence cut off at the end of the line is dropped, not printed", () => {
    expect(sgrToSpans("ok\x1b[31")).toEqual([{ text: "ok" }]);
    expect(sgrToSpans("ok\x1b]0;never ends")).toEqual([{ text: "ok" }]);
  });
});
