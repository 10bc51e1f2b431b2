// Synchronized output (DEC 2026) only where a frame could tear: a frame of up to 1 KB goes out in
// one write() and reaches the terminal in one read (a pty takes it whole; over SSH it is one packet
// in one TCP segment), so its 16 bytes of wrapper buy nothing; a larger one is wrapped.
import { expect, test } from "bun:test";
import { createScreen } from "../../../src/tui/screen/screen.ts";

const BEGIN = "\x1b[?2026h";

function frameOf(lines: number, width: number): string {
  let out = "";
  const screen = createScreen({ output: { write: (d) => ((out += d), true) }, caps: { colorDepth: "256", syncOutput: true }, cols: 120, rows: 40, schedule: false });
  screen.frame();
  out = "";
  screen.setLive(Array.from({ length: lines }, (_, i) => ({ spans: [{ text: String(i % 10).repeat(width) }] })));
  screen.frame();
  return out;
}

test("a frame under 1 KB is written bare: one write, one read, no wrapper", () => {
  const f = frameOf(8, 100);
  expect(f.length).toBeGreaterThan(700);
  expect(f.length).toBeLessThan(1024);
  expect(f.includes(BEGIN)).toBe(false);
});

test("a larger frame is wrapped in synchronized output", () => {
  const f = frameOf(20, 100);
  expect(f.length).toBeGreaterThan(1024);
  expect(f.startsWith(BEGIN)).toBe(true);
});
