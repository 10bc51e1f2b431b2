// One frame clock: the screen's. Streamed text, the spinner, a flash's expiry and the cursor's
// settling all ask the screen for a frame at a time; the screen keeps one timer for the earliest,
// and with nothing due it keeps none. Driven here by a manual clock handed to the screen, so the
// assertions are about what is scheduled, never about how long anything took.
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import type { AgentSession, AgentTurnResult } from "../../../src/agent/types.ts";
import type { AgentEvent } from "../../../src/events/types.ts";
import { App, STREAM_GAP_MS } from "../../../src/tui/app/app.ts";
import { FileFinder } from "../../../src/tui/app/file-finder.ts";
import { PromptHistory } from "../../../src/tui/app/history.ts";
import { createScreen, type FrameTimers, type Screen } from "../../../src/tui/screen/screen.ts";
import { fakeSession } from "../support/app-state.ts";

/** A clock that moves only when told, with the timers armed on it. */
function manualTimers() {
  let t = 1_000;
  let seq = 0;
  const due = new Map<number, { at: number; fn: () => void }>();
  const timers: FrameTimers & { advance(ms: number): void; pending(): number; nextIn(): number | null } = {
    now: () => t,
    set(fn, ms) {
      const id = ++seq;
      due.set(id, { at: t + Math.max(0, ms), fn });
      return id;
    },
    clear(h) {
      due.delete(h as number);
    },
    /** Moves the clock by `ms`, running each timer that falls due on the way, in order. */
    advance(ms) {
      const end = t + ms;
      for (;;) {
        let next: [number, { at: number; fn: () => void }] | null = null;
        for (const e of due) if (e[1].at <= end && (!next || e[1].at < next[1].at)) next = e;
        if (!next) break;
        due.delete(next[0]);
        t = Math.max(t, next[1].at);
        next[1].fn();
      }
      t = end;
    },
    pending: () => due.size,
    nextIn: () => (due.size ? Math.min(...[...due.values()].map((d) => d.at)) - t : null),
  };
  return timers;
}

/** A session whose events and turn end the test drives. */
function drivenSession() {
  const listeners = new Set<(e: AgentEvent) => void>();
  let endTurn: (r: AgentTurnResult) => void = () => {};
  const s = fakeSession() as AgentSession & Record<string, unknown>;
  Object.assign(s, {
    notices: [],
    replayed: null,
    subscribe: (l: (e: AgentEvent) => void) => (listeners.add(l), () => listeners.delete(l)),
    runTurn: () => new Promise<AgentTurnResult>((r) => (endTurn = r)),
    costSoFar: () => 0,
    processes: () => [],
    isEmpty: () => true,
    close: async () => {},
    mcp: { servers: () => [], onChange: () => () => {} },
  });
  return {
    session: s as AgentSession,
    emit: (e: AgentEvent) => { for (const l of listeners) l(e); },
    end: () => endTurn({} as AgentTurnResult),
  };
}

/** Counts timers armed behind the screen's back (global setTimeout/setInterval) while `fn` runs. */
let stray = 0;
const realSetTimeout = globalThis.setTimeout;
const realSetInterval = globalThis.setInterval;
beforeEach(() => {
  stray = 0;
  globalThis.setTimeout = ((...a: Parameters<typeof setTimeout>) => (stray++, realSetTimeout(...a))) as typeof setTimeout;
  globalThis.setInterval = ((...a: Parameters<typeof setInterval>) => (stray++, realSetInterval(...a))) as typeof setInterval;
});
afterEach(() => {
  globalThis.setTimeout = realSetTimeout;
  globalThis.setInterval = realSetInterval;
});

function openApp(cursorStyle: "hardware" | "auto" = "hardware") {
  const clock = manualTimers();
  let out = "";
  const screen: Screen = createScreen({ output: { write: (d) => ((out += d), true) }, caps: { colorDepth: "256", syncOutput: false }, cols: 80, rows: 24, cursorStyle, timers: clock });
  const drive = drivenSession();
  const app = new App({
    session: drive.session, screen, history: new PromptHistory(null), finder: new FileFinder("/nonexistent"), links: false, gitBranch: null,
    reopen: () => Promise.reject(new Error("no")), onPager: () => {}, onExit: () => {}, now: () => clock.now(),
  });
  app.start([], null);
  clock.advance(1000);
  return { app, screen, clock, ...drive, written: () => out, take: () => { const o = out; out = ""; return o; } };
}

const settle = () => new Promise<void>((r) => queueMicrotask(r));

describe("one frame clock", () => {
  test("streamed text is drawn on the screen's clock alone, at most every STREAM_GAP_MS", () => {
    const { app, clock, emit, take, screen } = openApp();
    app.submit("go");
    clock.advance(200);
    take();
    emit({ type: "message_start", id: "m1", model: "x" });
    emit({ type: "text_delta", index: 0, text: "alpha " });
    // A delta after a pause is drawn at the next frame the screen's interval allows.
    clock.advance(16);
    expect(take()).toContain("alpha");
    const frames = screen.stats.frames;
    emit({ type: "text_delta", index: 0, text: "beta " });
    clock.advance(20);
    expect(screen.stats.frames).toBe(frames);
    emit({ type: "text_delta", index: 0, text: "gamma " });
    clock.advance(STREAM_GAP_MS - 21);
    expect(screen.stats.frames).toBe(frames);
    clock.advance(1);
    // Both deltas in one frame, STREAM_GAP_MS after the last one.
    expect(screen.stats.frames).toBe(frames + 1);
    expect(take()).toContain("beta gamma");
    expect(clock.pending()).toBe(0);
    expect(stray).toBe(0);
  });

  test("no spinner frames while the answer's own text is what moves", () => {
    const { app, clock, emit, screen } = openApp();
    app.submit("go");
    emit({ type: "message_start", id: "m1", model: "x" });
    emit({ type: "text_delta", index: 0, text: "streaming text" });
    clock.advance(100);
    const frames = screen.stats.frames;
    // The model pauses: nothing on screen depends on time, so nothing is scheduled.
    clock.advance(2000);
    expect(screen.stats.frames).toBe(frames);
    expect(clock.pending()).toBe(0);
    expect(stray).toBe(0);
  });

  test("the Working… spinner turns on the same clock, one timer at a time", () => {
    const { app, clock, take } = openApp();
    app.submit("go");
    clock.advance(400);
    const first = take();
    expect(first).toContain("Working");
    expect(clock.pending()).toBe(1);
    expect(clock.nextIn()!).toBeLessThanOrEqual(100);
    clock.advance(100);
    // The next frame draws the spinner's next glyph.
    expect(take()).toMatch(/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/);
    expect(clock.pending()).toBe(1);
    expect(stray).toBe(0);
  });

  test("after the answer nothing is scheduled: idle arms no timer", async () => {
    const { app, clock, emit, end, screen } = openApp("auto");
    app.submit("go");
    emit({ type: "message_start", id: "m1", model: "x" });
    emit({ type: "text_delta", index: 0, text: "the answer" });
    clock.advance(100);
    end();
    await settle();
    await settle();
    expect(app.busy).toBeNull();
    // The cursor comes back as the terminal's own once frames stop, then nothing more.
    clock.advance(1000);
    expect(clock.pending()).toBe(0);
    const frames = screen.stats.frames;
    clock.advance(60_000);
    expect(screen.stats.frames).toBe(frames);
    expect(stray).toBe(0);
  });

  test("a flash goes away on the clock, then nothing is scheduled", () => {
    const { app, clock, take } = openApp();
    take();
    app.flash("copied", 2500);
    clock.advance(16);
    expect(take()).toContain("copied");
    clock.advance(2500);
    expect(take()).not.toContain("copied");
    expect(app.screen.debugZone().liveRows).toBeGreaterThan(0);
    clock.advance(10_000);
    expect(clock.pending()).toBe(0);
    expect(stray).toBe(0);
  });
});
