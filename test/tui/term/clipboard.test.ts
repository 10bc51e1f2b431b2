// Where /copy sends the text, by terminal, tmux and size: a table of copyToClipboard with the
// terminal's write and the clipboard command injected. The app's part (which answer, the line it
// shows, a real clipboard command on PATH) stays end to end in test/e2e/pty/daily.test.ts.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { copyToClipboard, OSC52_MAX_BASE64, osc52 } from "../../../src/tui/term/clipboard.ts";

const TEXT = "# Plan\n\n1. Read `parser.ts`";
const b64 = (s: string) => Buffer.from(s, "utf8").toString("base64");

async function copy(text: string, env: Record<string, string>, inTmux = false, helper: { copy: string[]; paste: string[] } | null = null) {
  const written: string[] = [];
  const result = await copyToClipboard(text, { write: (d) => written.push(d), env, inTmux, helper });
  return { result, written: written.join("") };
}

/** A stand-in clipboard command that keeps what it was given in a file. */
function recordingHelper(): { helper: { copy: string[]; paste: string[] }; got: () => string } {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-clip-"));
  const bin = join(dir, "clip");
  writeFileSync(bin, `#!/bin/sh\ncat > "${dir}/got"\n`);
  chmodSync(bin, 0o755);
  return { helper: { copy: [bin], paste: [bin] }, got: () => readFileSync(join(dir, "got"), "utf8") };
}

describe("copyToClipboard", () => {
  test("a terminal that takes OSC 52 gets one carrying the text", async () => {
    const { result, written } = await copy(TEXT, { TERM_PROGRAM: "WezTerm" });
    expect(result).toEqual({ ok: true, where: "the terminal's clipboard (OSC 52)" });
    expect(written).toBe(`\x1b]52;c;${b64(TEXT)}\x07`);
  });

  test("in tmux it goes twice: bare for tmux's clipboard, and inside the passthrough", async () => {
    const { result, written } = await copy(TEXT, { TMUX: "/tmp/tmux-1000/default,1,0", TERM_PROGRAM: "tmux" }, true);
    expect(result).toEqual({ ok: true, where: "the terminal's clipboard (OSC 52 through tmux)" });
    const seq = `\x1b]52;c;${b64(TEXT)}\x07`;
    expect(written).toBe(`${seq}\x1bPtmux;${seq.replaceAll("\x1b", "\x1b\x1b")}\x1b\\`);
    expect(osc52(TEXT, true)).toBe(written);
  });

  for (const [name, env] of [
    ["Apple's Terminal", { TERM_PROGRAM: "Apple_Terminal" }],
    ["the VTE family", { VTE_VERSION: "7600" }],
    ["the Linux console", { TERM: "linux" }],
  ] as const) {
    test(`${name} ignores OSC 52: the clipboard command gets the text, or the user is told there is none`, async () => {
      const rec = recordingHelper();
      const viaHelper = await copy(TEXT, env, false, rec.helper);
      expect(viaHelper.result).toEqual({ ok: true, where: `the clipboard (${rec.helper.copy[0]})` });
      expect(viaHelper.written).toBe("");
      expect(rec.got()).toBe(TEXT);
      const none = await copy(TEXT, env, false, null);
      expect(none.result).toEqual({ ok: false, error: "this terminal does not take OSC 52 copies and no clipboard command (pbcopy, wl-copy, xclip, xsel) was found" });
      expect(none.written).toBe("");
    });
  }

  test("inside tmux the outer terminal is unknown: OSC 52 even under Apple's Terminal", async () => {
    const { written } = await copy(TEXT, { TMUX: "/tmp/tmux-1000/default,1,0", TERM_PROGRAM: "Apple_Terminal" }, true);
    expect(written).toContain(`\x1b]52;c;${b64(TEXT)}\x07`);
  });

  test("past the OSC 52 limit the clipboard command takes it; without one the user reads the size", async () => {
    const big = "word ".repeat(16_000); // 80 KB: past 100 KB once encoded
    expect(b64(big).length).toBeGreaterThan(OSC52_MAX_BASE64);
    const rec = recordingHelper();
    const viaHelper = await copy(big, { TERM_PROGRAM: "WezTerm" }, false, rec.helper);
    expect(viaHelper.result.ok).toBe(true);
    expect(viaHelper.written).toBe("");
    expect(rec.got()).toBe(big);
    const none = await copy(big, { TERM_PROGRAM: "WezTerm" }, false, null);
    expect(none.result).toEqual({ ok: false, error: "too large to copy through the terminal (104 KB encoded; terminals take about 100 KB) and no clipboard command (pbcopy, wl-copy, xclip, xsel) was found" });
    expect(none.written).toBe("");
  });

  test("a clipboard command that fails is reported, not taken for a copy", async () => {
    const { result } = await copy(TEXT, { TERM_PROGRAM: "Apple_Terminal" }, false, { copy: ["false"], paste: ["false"] });
    expect(result.ok).toBe(false);
  });
});
