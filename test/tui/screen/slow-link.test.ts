// Over a link that buffers everything (sshd and TCP: write() never pushes back), the screen measures
// how much is queued with a DA1 request riding behind its frames, and holds scheduled frames while
// it is unanswered: at most one frame is on its way, frames grow instead of multiplying, and the
// terminal still ends on the final state. Without the measure the queue grows with every update.
import { expect, test } from "bun:test";
import { createScreen } from "../../../src/tui/screen/screen.ts";
import { LinkGauge } from "../../../src/tui/screen/link.ts";
import { createTestTerminal } from "../support/terminal.ts";

async function streamOverSlowLink(measureLink: boolean) {
  const t = createTestTerminal({ cols: 60, rows: 12 });
  let queue = "";
  let maxQueued = 0;
  let answers = 0;
  const screen = createScreen({
    output: { write: (d) => ((queue += d), (maxQueued = Math.max(maxQueued, queue.length)), true) },
    caps: { colorDepth: "256", syncOutput: true },
    cols: 60,
    rows: 12,
    frameIntervalMs: 0,
    // Time is compressed here (the link drains in microseconds), so every round trip counts as slow.
    measureLink: measureLink ? { slowMs: 0 } : false,
  });
  // The terminal answers DA1 when it reads it, as a real one does; the answer goes back to the screen.
  t.term.onData((reply) => {
    if (/^\x1b\[\?[\d;]*c$/.test(reply)) {
      answers++;
      screen.linkAnswered();
    }
  });
  // The link delivers 8 characters per turn of the event loop: slower than the updates come.
  const deliver = async () => {
    const piece = queue.slice(0, 8);
    queue = queue.slice(8);
    await new Promise<void>((r) => t.term.write(piece, r));
    await new Promise((r) => setImmediate(r));
  };
  const updates = 600;
  for (let i = 0; i < updates; i++) {
    screen.setLive([{ spans: [{ text: `update ${i}`, style: { bold: i % 2 === 0 } }] }, { spans: [{ text: "x".repeat(i % 50) }] }]);
    await deliver();
  }
  while (queue.length > 0 || t.screen()[0] !== `update ${updates - 1}`) await deliver();
  const result = { screen: t.screen().slice(0, 2), frames: screen.stats.frames, maxQueued, answers };
  screen.dispose();
  t.dispose();
  return result;
}

test("on a link that buffers everything, frames wait for the terminal's answer: one frame in flight, the final state shown", async () => {
  const measured = await streamOverSlowLink(true);
  const blind = await streamOverSlowLink(false);
  expect(measured.screen).toEqual(["update 599", "x".repeat(599 % 50)]);
  expect(blind.screen).toEqual(measured.screen);
  expect(measured.answers).toBeGreaterThan(0);
  // One frame and its request: never more than a screenful of these two short rows in flight.
  expect(measured.maxQueued).toBeLessThan(400);
  expect(blind.maxQueued).toBeGreaterThan(measured.maxQueued * 4);
  expect(measured.frames).toBeLessThan(blind.frames);
}, 60_000);

test("the request rides behind a frame at most every 250 ms on a fast link, behind every frame on a slow one", () => {
  let now = 0;
  let wakes = 0;
  const g = new LinkGauge({ wake: () => wakes++, now: () => now });
  expect(g.probe()).toBe("\x1b[c");
  expect(g.held).toBe(true);
  expect(g.probe()).toBe(""); // one request on its way at a time
  now = 1;
  g.answered();
  expect(g.held).toBe(false);
  expect(wakes).toBe(1);
  expect(g.slow).toBe(false);
  now = 100;
  expect(g.probe()).toBe(""); // fast: not again before 250 ms
  now = 260;
  expect(g.probe()).toBe("\x1b[c");
  now = 460; // 200 ms for the answer: output was queued
  g.answered();
  expect(g.slow).toBe(true);
  now = 470;
  expect(g.probe()).toBe("\x1b[c"); // slow: behind every frame
  // An answer nobody asked for (the start-up probe's) measures nothing.
  g.answered();
  g.answered();
  expect(wakes).toBe(3);
  g.dispose();
});

test("a slow link stays slow after a quick answer: a shaper lets a frame through at full speed after a pause, then throttles", () => {
  let now = 0;
  const g = new LinkGauge({ wake: () => {}, now: () => now, stickyMs: 5000 });
  expect(g.probe()).toBe("\x1b[c");
  now = 120; // a frame queued behind others
  g.answered();
  expect(g.slow).toBe(true);
  now = 130;
  expect(g.probe()).toBe("\x1b[c");
  now = 133; // the next one went through on the refilled bucket
  g.answered();
  expect(g.slow).toBe(true);
  now = 140;
  expect(g.probe()).toBe("\x1b[c"); // still behind every frame, and held
  expect(g.held).toBe(true);
  now = 142;
  g.answered();
  // Only quick answers for a while: the link is fast again, and asked at most every 250 ms.
  now = 5121;
  expect(g.slow).toBe(false);
  expect(g.probe()).toBe("\x1b[c");
  now = 5122;
  g.answered();
  now = 5130;
  expect(g.probe()).toBe("");
  g.dispose();
});
