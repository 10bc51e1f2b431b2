// tmux keeps the cursor one column past the edge after a print into the last column, where
// xterm.js, xterm, VTE and kitty keep it on the last column (see PendingWrapModel in
// support/terminal.ts). A relative move left (CUB, BS) from there lands one cell apart in the two,
// so the painter never moves left relatively while a wrap is pending. Each frame here is replayed
// into both models and must give the same screen and cursor.
import { describe, expect, test } from "bun:test";
import type { Row } from "../../../src/tui/render/style.ts";
import { createScreen, type CursorStyle } from "../../../src/tui/screen/screen.ts";
import { createTestTerminal, type PendingWrapModel } from "../support/terminal.ts";

const COLS = 20;

function setup(model: PendingWrapModel, cursorStyle: CursorStyle) {
  const t = createTestTerminal({ cols: COLS, rows: 8, pendingWrap: model });
  let out = "";
  let all = "";
  const screen = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "truecolor", syncOutput: false }, cols: COLS, rows: 8, schedule: false, cursorStyle });
  return {
    t,
    /** Every byte so far: the column is known from the start (the first frame begins with CR). */
    all: () => all,
    async show(rows: Row[], cursor: { row: number; col: number } | null): Promise<string> {
      screen.setLive(rows, cursor);
      screen.frame();
      const o = out;
      out = "";
      all += o;
      await t.write(o);
      return o;
    },
  };
}

const row = (text: string): Row => ({ spans: [{ text }] });

/** Whether `bytes` move left relatively (CUB or BS) right after a print that reached the last column. */
function leftAfterLastColumn(bytes: string, cols: number): boolean {
  // Tracks the column through plain printable ASCII and the moves the painter emits.
  let x = 0;
  let pending = false;
  for (let i = 0; i < bytes.length; ) {
    const osc = /^\x1b\][^\x07\x1b]*(\x07|\x1b\\)/.exec(bytes.slice(i));
    if (osc) { i += osc[0].length; continue; }
    const m = /^\x1b\[(\??)([\d;]*)([A-Za-z@])/.exec(bytes.slice(i));
    if (m) {
      i += m[0].length;
      if (m[1] === "?") continue; // modes: the cursor stays
      const n = Number(m[2] || 1);
      const f = m[3];
      if (f === "D" && pending) return true;
      if (f === "D") x = Math.max(0, x - n);
      else if (f === "C") x = Math.min(cols - 1, x + n);
      else if (f === "G") x = n - 1;
      if (f !== "m") pending = false;
      continue;
    }
    const c = bytes[i]!;
    if (c === "\b") { if (pending) return true; x = Math.max(0, x - 1); }
    else if (c === "\r") { x = 0; pending = false; }
    else if (c === "\n") pending = false;
    else if (c >= " ") {
      if (pending) { x = 0; pending = false; }
      if (x === cols - 1) pending = true; else x++;
    }
    i++;
  }
  return false;
}

describe("a pending wrap in tmux's model and xterm's", () => {
  for (const [name, cursorStyle] of [["hardware cursor", "hardware"], ["cell cursor", "cell"]] as const) {
    test(`${name}: editing a full-width row near its end, then moving left on it`, async () => {
      const frames: Array<[Row[], { row: number; col: number } | null]> = [
        [[row("0123456789abcdefghij"), row("status")], { row: 0, col: 15 }],
        [[row("0123456789abcdefghiJ"), row("status")], { row: 0, col: 16 }],
        [[row("0123456789abcdefGhiJ"), row("status")], { row: 0, col: 17 }],
        [[row("0123456789abcdefGhIJ"), row("status")], { row: 0, col: 14 }],
        [[row("0123456789abcdefGhIj"), row("status")], { row: 0, col: 18 }],
      ];
      const xterm = setup("xterm", cursorStyle);
      const tmux = setup("tmux", cursorStyle);
      for (const [rows, cursor] of frames) {
        await xterm.show(rows, cursor);
        await tmux.show(rows, cursor);
        expect(leftAfterLastColumn(xterm.all(), COLS)).toBe(false);
        expect(tmux.t.screen()).toEqual(xterm.t.screen());
        expect(xterm.t.screen()[0]).toBe(rowTextOf(rows[0]!));
        if (cursorStyle === "hardware") {
          expect(xterm.t.cursor().col).toBe(cursor!.col);
          expect(tmux.t.cursor().col).toBe(cursor!.col);
        }
      }
      xterm.t.dispose();
      tmux.t.dispose();
    });
  }

  test("the model differs from xterm.js where it should: CUB after the last column", async () => {
    const t = createTestTerminal({ cols: 70, rows: 3, pendingWrap: "tmux" });
    await t.write("0".repeat(70) + "\x1b[44DX");
    expect(t.lines()[0]!.indexOf("X")).toBe(26);
    const x = createTestTerminal({ cols: 70, rows: 3 });
    await x.write("0".repeat(70) + "\x1b[44DX");
    expect(x.lines()[0]!.indexOf("X")).toBe(25);
    t.dispose();
    x.dispose();
  });
});

function rowTextOf(r: Row): string {
  return r.spans.map((s) => s.text).join("");
}
