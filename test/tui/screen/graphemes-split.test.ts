// Emoji with ZWJ and VS16, and combining marks, arriving in pieces while an answer streams. Some
// terminals measure such a grapheme differently from us, and some grow it a cell as its code
// points arrive, so after printing one the painter does not trust its idea of the cursor's column:
// the next move is absolute, and relative moves left cross only plain cells. Oracle: streaming
// the text in any chunking leaves the same screen as painting it whole, in a terminal that
// measures as we do (both pending-wrap models) and in one that measures code point by code point
// (there the cells a grapheme spills over are unknown to us, so they are printed again).
import { describe, expect, test } from "bun:test";
import type { Row } from "../../../src/tui/render/style.ts";
import { createScreen, type CursorStyle } from "../../../src/tui/screen/screen.ts";
import { createTestTerminal, type PendingWrapModel, type WidthModel } from "../support/terminal.ts";

const TEXT = "Emoji: 👨‍👩‍👧‍👦 family, 🏳️‍🌈 flag, 👍🏽 ok, e\u0301\u0302 and ☺️ done";
const FOOTER: Row[] = [{ spans: [] }, { spans: [{ text: "» composer" }] }, { spans: [{ text: "status" }] }];
const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

async function paint(chunks: string[], o: { widths: WidthModel; pendingWrap: PendingWrapModel; cursorStyle: CursorStyle }): Promise<{ screen: string[]; bytes: string }> {
  const cols = 40;
  const t = createTestTerminal({ cols, rows: 10, widths: o.widths, pendingWrap: o.pendingWrap });
  let out = "";
  let bytes = "";
  const s = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "truecolor", syncOutput: false }, cols, rows: 10, schedule: false, cursorStyle: o.cursorStyle });
  let text = "";
  for (const c of chunks) {
    text += c;
    // Word-wrapped at 40 columns into soft rows: a gap before a soft wrap is the harder case.
    const rows: Row[] = [];
    let rest = text;
    let soft = false;
    while (rest.length > 0) {
      let cut = rest.length;
      let w = 0;
      let i = 0;
      for (const { segment } of segmenter.segment(rest)) {
        const gw = segment === " " || /^[\x20-\x7e]$/.test(segment) ? 1 : /^e/.test(segment) ? 1 : 2;
        if (w + gw > cols) { cut = rest.lastIndexOf(" ", i) > 0 ? rest.lastIndexOf(" ", i) + 1 : i; break; }
        w += gw;
        i += segment.length;
      }
      rows.push({ spans: [{ text: rest.slice(0, cut) }], soft });
      rest = rest.slice(cut);
      soft = true;
    }
    s.setLive([...rows, ...FOOTER], { row: rows.length + 1, col: 2 });
    s.frame();
    bytes += out;
    await t.write(out);
    out = "";
  }
  const screen = t.screen();
  t.dispose();
  return { screen, bytes };
}

const codePoints = [...TEXT];
const graphemes = [...segmenter.segment(TEXT)].map((s) => s.segment);
const chunked = (units: string[], n: number) => Array.from({ length: Math.ceil(units.length / n) }, (_, i) => units.slice(i * n, i * n + n).join(""));

describe("graphemes split across stream deltas", () => {
  for (const pendingWrap of ["xterm", "tmux"] as const) {
    for (const cursorStyle of ["auto", "hardware"] as const) {
      test(`code-point deltas of 1 to 5 give the whole text's screen (${pendingWrap} pending wrap, ${cursorStyle} cursor)`, async () => {
        const o = { widths: "graphemes" as const, pendingWrap, cursorStyle };
        const whole = await paint([TEXT], o);
        expect(whole.screen.slice(0, 2).join("").replace(/ +/g, " ")).toBe(TEXT);
        for (let n = 1; n <= 5; n++) {
          const inc = await paint(chunked(codePoints, n), o);
          expect([n, inc.screen]).toEqual([n, whole.screen]);
        }
      });
    }
  }

  test("a terminal measuring code point by code point: grapheme and code-point deltas give the whole text's screen", async () => {
    const o = { widths: "codepoints" as const, pendingWrap: "xterm" as const, cursorStyle: "auto" as const };
    const whole = await paint([TEXT], o);
    for (let n = 1; n <= 4; n++) {
      expect([n, (await paint(chunked(graphemes, n), o)).screen]).toEqual([n, whole.screen]);
      expect([n, (await paint(chunked(codePoints, n), o)).screen]).toEqual([n, whole.screen]);
    }
  });
});
