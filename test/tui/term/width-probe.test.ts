// The start-up probe against real emulators: xterm.js answering as it draws (per-code-point
// Unicode 11 widths, or grapheme clusters), a terminal that answers mode 2027, and one that
// answers nothing. The samples never stay on screen.
import { describe, expect, test } from "bun:test";
import { PassThrough } from "node:stream";
import { openTerminal, type TerminalInput, type TerminalOutputStream } from "../../../src/tui/term/terminal.ts";
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

describe("mode 2027 in the terminal session", () => {
  test("turned on after a 'switchable' answer, off again when the terminal is handed over and on the way out; cursor reports never become keys", async () => {
    const stdin = Object.assign(new PassThrough(), { isTTY: true, setRawMode: () => undefined }) as unknown as TerminalInput & PassThrough;
    const stdout = Object.assign(new PassThrough(), { columns: 80, rows: 24 }) as unknown as TerminalOutputStream & PassThrough;
    let written = "";
    stdout.on("data", (d: Buffer) => {
      written += d.toString();
      if (d.toString().includes("\x1b[c")) stdin.write("\x1b[?2027;2$y\x1b[3;1R\x1b[3;3R\x1b[3;4R\x1b[3;3R\x1b[3;3R\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?62;22c");
    });
    const term = await openTerminal({ stdin, stdout, env: { TERM: "xterm-256color" }, handleSignals: false, probeTimeoutMs: 5_000 });
    const got: InputEvent[] = [];
    term.onInput((evs) => got.push(...evs));
    expect(term.caps.widths).toBe(GRAPHEME);
    expect(term.caps.graphemeMode).toBe(true);
    expect(term.caps.background).toEqual({ r: 255, g: 255, b: 255 });
    expect(written.split("\x1b[c")[1]).toContain("\x1b[?2027h");
    const at = written.length;
    term.handOver(() => undefined);
    expect(written.slice(at)).toMatch(/\x1b\[\?2027l.*\x1b\[\?2027h/s);
    const end = written.length;
    await term.close();
    expect(written.slice(end)).toContain("\x1b[?2027l");
    expect(got.filter((e) => e.type === "key")).toEqual([]);
  });
});
