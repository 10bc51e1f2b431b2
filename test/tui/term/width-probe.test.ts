// The start-up probe against real emulators: xterm.js answering as it draws (per-code-point
// Unicode 11 widths, or grapheme clusters), a terminal that answers mode 2027, and one that
// answers nothing. The samples never stay on screen.
import { describe, expect, test } from "bun:test";
import { applyReplies, capsFromEnv, probeCaps, type ProbeIo } from "../../../src/tui/term/caps.ts";
import { createInputDecoder, type InputEvent } from "../../../src/tui/term/decoder.ts";
import { CODEPOINT, GRAPHEME, SAFE, ruleFromSamples } from "../../../src/tui/render/width-rules.ts";
import { createTestTerminal, type WidthModel } from "../support/terminal.ts";

/** The probe's io wired to an emulator: our bytes in, its answers decoded back. */
function emulatorIo(model: WidthModel, col = 0) {
  const t = createTestTerminal({ cols: 40, rows: 5, widths: model });
  const decoder = createInputDecoder();
  const listeners = new Set<(e: InputEvent[]) => void>();
  t.term.onData((d) => { const evs = decoder.feed(d); for (const l of listeners) l(evs); });
  void t.write(`\x1b[2;1H${"p".repeat(col)}`);
  const io: ProbeIo = {
    write: (d) => void t.write(d),
    expectCursorReports: (n) => decoder.expectCursorReports(n),
    onEvents: (l) => { listeners.add(l); return () => listeners.delete(l); },
  };
  return { t, io };
}

const base = capsFromEnv({ TERM: "xterm-256color" });

describe("width probe", () => {
  test("xterm.js with Unicode 11 measures per code point; with its graphemes addon, as clusters; the samples are erased", async () => {
    for (const [model, rule] of [["unicode11", CODEPOINT], ["xterm-graphemes", GRAPHEME], ["graphemes", GRAPHEME]] as const) {
      const { t, io } = emulatorIo(model, 3);
      const r = await probeCaps(base, io, 2000);
      expect({ model, timedOut: r.timedOut, rule: r.caps.widths }).toEqual({ model, timedOut: false, rule });
      expect(r.caps.graphemeMode).toBe(false);
      // The line the cursor was on keeps what it had, and the cursor is back where it was.
      expect(t.screen()[1]).toBe("ppp");
      expect(t.cursor().col).toBe(3);
      t.dispose();
    }
  });

  test("a terminal that answers mode 2027 as switchable gets the grapheme rule and the mode turned on", () => {
    const d = createInputDecoder();
    const caps = applyReplies(base, d.feed("\x1b[?2027;2$y\x1b[?62c"));
    expect(caps.widths).toBe(GRAPHEME);
    expect(caps.graphemeMode).toBe(true);
    const always = applyReplies(base, d.feed("\x1b[?2027;3$y\x1b[?62c"));
    expect(always.widths).toBe(GRAPHEME);
    expect(always.graphemeMode).toBe(false);
  });

  test("a terminal that answers nothing costs the timeout and leaves the safe rule", async () => {
    const io: ProbeIo = { write: () => {}, expectCursorReports: () => {}, onEvents: () => () => {} };
    const r = await probeCaps(base, io, 20);
    expect(r.timedOut).toBe(true);
    expect(r.caps.widths).toBe(SAFE);
    expect(r.caps.background).toBeNull();
  });

  test("tmux 3.3a's answers (ZWJ joined, VS16 and skin tones not) make a rule of their own; odd widths keep the safe reading", () => {
    expect(ruleFromSamples({ zwj: 2, vs16: 1, modifier: 4, flag: 2 })).toEqual({ name: "measured", zwj: true, vs16: false, modifiers: false, flags: true });
    expect(ruleFromSamples({ zwj: 3, vs16: 0, modifier: 4, flag: 2 })).toEqual({ ...SAFE, name: "measured" });
  });
});
