// Getting the screen's frames to the terminal: one write() per frame, wrapped in synchronized
// output (DEC 2026) where the terminal has it, at most one frame per interval, and none while
// stdout is backed up (once it drains, the latest state is drawn, and frames are spaced further
// apart until writes go through again).
//
// The frame clock: the one timer behind every frame. The screen says when it next wants a frame
// (`due`: now for a change, later for the app's paced layout, the spinner's next glyph, a flash's
// end, the cursor's settling); the clock arms a single timer for the earliest of them, never
// sooner than the interval after the last frame. With nothing due no timer is armed.
import { appendFileSync } from "node:fs";
import { LinkGauge } from "./link.ts";
import type { FrameStats, FrameTimers, ScreenOptions, ScreenStats } from "./types.ts";

const SYNC_BEGIN = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";
/** Frames up to this size go out bare (see emit). */
const SYNC_MIN_BYTES = 1024;

export const realTimers: FrameTimers = {
  now: () => performance.now(),
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
};

export class FrameOutput {
  readonly stats: ScreenStats = { frames: 0, bytes: 0, fullRepaints: 0, last: null };
  /** The terminal's cursor is shown (DECTCEM): both screens share it. */
  private cursorShown = true;
  private timer: unknown = null;
  /** When the armed timer fires. */
  private timerAt = Infinity;
  private waitingDrain = false;
  /** When the last frame was written (frames' pace is measured from it). */
  lastFrameAt = -Infinity;
  readonly timers: FrameTimers;
  private interval: number;
  private readonly baseInterval: number;
  private readonly writeLog: string | undefined;
  private disposed = false;
  /** The link's measure (measureLink): frames wait while its request is on the way. */
  link: LinkGauge | null = null;

  /** `frame` draws what is due; `due` says when a frame is next wanted (Infinity: none). */
  constructor(private readonly opts: ScreenOptions, private readonly frame: () => void, private readonly due: () => number) {
    this.timers = opts.timers ?? realTimers;
    this.baseInterval = opts.frameIntervalMs ?? (opts.caps.remote ? 33 : 16);
    this.interval = this.baseInterval;
    this.writeLog = opts.writeLogPath ?? process.env.KHAELOR_WRITE_LOG ?? undefined;
    if (opts.measureLink) this.measureLink(opts.measureLink === true ? {} : opts.measureLink);
  }

  /** From now on the link is measured (see ./link.ts). */
  measureLink(tuning: { slowMs?: number; everyMs?: number }): void {
    this.link ??= new LinkGauge({ ...tuning, wake: () => this.schedule() });
  }

  /** Shows or hides the terminal's cursor: the bytes to write before and after the frame's body. */
  cursor(show: boolean): { before: string; after: string } {
    if (show && !this.cursorShown) {
      this.cursorShown = true;
      return { before: "", after: "\x1b[?25h" };
    }
    if (!show && this.cursorShown) {
      this.cursorShown = false;
      return { before: "\x1b[?25l", after: "" };
    }
    return { before: "", after: "" };
  }

  /** One write() per frame, wrapped in synchronized output when the terminal has it. */
  emit(body: string, stats: FrameStats | null): void {
    if (body.length === 0) {
      if (stats) { this.stats.frames++; this.stats.last = stats; }
      return;
    }
    // A frame written in one write() of at most 1 KB reaches the terminal in one read (a pty takes
    // it whole; over SSH it fits one packet and one TCP segment, whose payload is ~1.4 KB), so it
    // cannot tear, and the 16 bytes of DEC 2026 were 4% of a streamed answer (most of its frames
    // are 60-120 bytes) and 2.5% of a fast one (frames of 550-850 bytes, 33 ms apart). Larger
    // frames (a table re-laid out, a resize) are wrapped.
    const data = (this.opts.caps.syncOutput && body.length > (this.opts.syncMinBytes ?? SYNC_MIN_BYTES) ? SYNC_BEGIN + body + SYNC_END : body) + (this.link?.probe() ?? "");
    if (this.writeLog) {
      try { appendFileSync(this.writeLog, data); } catch { /* debugging aid only */ }
    }
    const ok = this.opts.output.write(data);
    this.lastFrameAt = this.timers.now();
    const bytes = Buffer.byteLength(data);
    this.stats.bytes += bytes;
    if (stats) {
      stats.bytes = bytes;
      this.stats.frames++;
      if (stats.repaint) this.stats.fullRepaints++;
      this.stats.last = stats;
    }
    if (!ok && this.opts.output.once) {
      // stdout is backed up: no frame until it drains, then the latest state only; space frames out.
      this.waitingDrain = true;
      this.interval = Math.min(250, this.interval * 2);
      this.opts.output.once("drain", () => {
        this.waitingDrain = false;
        this.schedule();
      });
    } else if (this.interval > this.baseInterval) {
      this.interval = Math.max(this.baseInterval, Math.floor(this.interval * 0.75));
    }
  }

  /**
   * Arms the clock for the earliest frame due, no sooner than the interval after the last frame
   * (and none while stdout is backed up or the link's answer is awaited: the drain and the answer
   * call this again). Called whenever what is due may have moved earlier, and after every frame.
   */
  schedule(): void {
    if (this.opts.schedule === false || this.disposed) return;
    if (this.waitingDrain || this.link?.held) return;
    const due = this.due();
    if (due === Infinity) return;
    const at = Math.max(due, this.lastFrameAt + this.interval);
    if (this.timer !== null && this.timerAt <= at) return;
    this.cancel();
    this.timerAt = at;
    this.timer = this.timers.set(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.frame();
    }, Math.max(0, at - this.timers.now()));
  }

  /** The frame due is drawn now (or must wait): no timer for it. */
  cancel(): void {
    if (this.timer !== null) this.timers.clear(this.timer);
    this.timer = null;
    this.timerAt = Infinity;
  }

  dispose(): void {
    this.disposed = true;
    this.cancel();
    this.link?.dispose();
  }
}

/** A line for the screen's log (full repaints, broken invariants), and $KHAELOR_RENDER_LOG if set. */
export function logRender(opts: ScreenOptions, line: string): void {
  opts.log?.(line);
  const file = process.env.KHAELOR_RENDER_LOG;
  if (file) {
    try { appendFileSync(file, `${new Date().toISOString()} ${line}\n`); } catch { /* debugging aid only */ }
  }
}
