import { describe, expect, test } from "bun:test";
import { collapseRedraws, TerminalText } from "../../src/workspace/terminal-text.ts";

const SAMPLE =
  "\x1b[?2004h\x1b]0;title\x07\x1b[1;32mok\x1b[0m line\r\n" + // colours, a title, bracketed paste on
  "abx\b \bc\r\n" + // an erased character, as the terminal echoes it
  "copy 10%\rcopy 100%\r\n" + // a redraw
  "\x1bP1$r0m\x1b\\dcs gone\r\n" + // a device control string
  "\x07bell\x00nul\ttab\n" +
  ">>> ";
const CLEAN = "ok line\nabx\b \bc\ncopy 10%\rcopy 100%\ndcs gone\nbellnul\ttab\n>>> ";

describe("terminal text", () => {
  test("escapes, CR LF, backspaces and controls are cleaned however the stream is split", () => {
    expect(new TerminalText().push(SAMPLE)).toBe(CLEAN);
    for (let cut = 0; cut <= SAMPLE.length; cut++) {
      const t = new TerminalText();
      expect(t.push(SAMPLE.slice(0, cut)) + t.push(SAMPLE.slice(cut))).toBe(CLEAN);
    }
    // One character at a time.
    const t = new TerminalText();
    expect([...SAMPLE].map((c) => t.push(c)).join("")).toBe(CLEAN);
    expect(collapseRedraws(CLEAN)).toBe("ok line\nabc\ncopy 100%\ndcs gone\nbellnul\ttab\n>>> ");
  });

  test("a cursor query is answered with the column the cursor is at", () => {
    const columns: number[] = [];
    expect(new TerminalText().push("In [1]: \x1b[6n", (c) => columns.push(c))).toBe("In [1]: ");
    expect(columns).toEqual([9]);
  });

  test("an escape that never ends is given up, not held forever", () => {
    const t = new TerminalText();
    expect(t.push("\x1b]" + "x".repeat(5000))).toBe("]" + "x".repeat(5000));
    expect(t.push("after")).toBe("after");
  });
});
