// Over a slow link the latest state wins: with stdout backed up, no frame is queued behind it, and
// when it drains only the newest state is drawn. The emulator must still end on the right screen.
import { expect, test } from "bun:test";
import { Writable } from "node:stream";
import { createScreen } from "../../../src/tui/screen/screen.ts";
import { createTestTerminal } from "../support/terminal.ts";

test("a throttled stdout ends on the final state with far fewer frames than updates", async () => {
  const t = createTestTerminal({ cols: 60, rows: 12 });
  let chunks = 0;
  // A pipe that accepts one small chunk at a time and finishes it only after the emulator parsed it.
  const out = new Writable({
    highWaterMark: 16,
    decodeStrings: false,
    write(chunk: string | Buffer, _enc, done) {
      chunks++;
      t.term.write(typeof chunk === "string" ? chunk : chunk.toString("utf8"), () => setImmediate(done));
    },
  });
  const screen = createScreen({ output: { write: (d) => out.write(d), once: (e, l) => out.once(e, l) }, caps: { colorDepth: "256", syncOutput: true }, cols: 60, rows: 12, frameIntervalMs: 0 });
  const updates = 2000;
  for (let i = 0; i < updates; i++) {
    screen.setLive([{ spans: [{ text: `update ${i}`, style: { bold: i % 2 === 0 } }] }, { spans: [{ text: "x".repeat(i % 50) }] }]);
    if (i % 50 === 0) await new Promise((r) => setImmediate(r)); // let the scheduler and the pipe run
  }
  // Wait until the last state has been drawn and the pipe is empty.
  while (screen.stats.frames === 0 || out.writableLength > 0 || t.screen()[0] !== `update ${updates - 1}`) {
    await new Promise((r) => setImmediate(r));
  }
  await new Promise<void>((r) => t.term.write("", r));
  expect(t.screen().slice(0, 2)).toEqual([`update ${updates - 1}`, "x".repeat((updates - 1) % 50)]);
  expect(t.screen().slice(2).every((l) => l === "")).toBe(true);
  expect(screen.stats.frames).toBeLessThan(updates / 10);
  expect(chunks).toBeLessThan(updates / 10); // one write per frame, never one per update
  screen.dispose();
  t.dispose();
}, 30_000);
