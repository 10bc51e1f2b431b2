// Getting the screen's frames to the terminal: one write() per frame, wrapped in synchronized
// output (DEC 2026) where the terminal has it, at most one frame per interval, and none while
// stdout is backed up (once it drains, the latest state is drawn, and frames are spaced further
// apart until writes go through again). With nothing to draw no timer runs.
import { appendFileSync } from "node:fs";
import { LinkGauge } from "./link.ts";
import type { FrameStats, ScreenOptions, ScreenStats } from "./types.ts";

const SYNC_BEGIN = "\x1b[?2026h";
const SYNC_END = "\x1b[?2026l";

export class FrameOutput {
  readonly stats: ScreenStats = { frames: 0, bytes: 0, fullRepaints: 0, last: null };
  /** The terminal's cursor is shown (DECTCEM): both screens share it. */
  private cursorShown = true;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waitingDrain = false;
  private lastFrameAt = -Infinity;
  private interval: number;
  private readonly baseInterval: number;
  private readonly writeLog: string | undefined;
  private disposed = false;
  /** The link's measure (measureLink): frames wait while its request is on the way. */
  link: LinkGauge | null = null;

  /** `frame` draws the latest state; `dirty` says whether there is one to draw. */
  constructor(private readonly opts: ScreenOptions, private readonly frame: () => void, private readonly dirty: () => boolean) {
    this.baseInterval = opts.frameIntervalMs ?? (opts.caps.remote ? 33 : 16);
    this.interval = this.baseInterval;
    this.writeLog = opts.writeLogPath ?? process.env.KHAELOR_WRITE_LOG ?? undefined;
    if (opts.measureLink) this.measureLink(opts.measureLink === true ? {} : opts.measureLink);
  }

  /** From now on the link is measured (see ./link.ts). */
  measureLink(tuning: { slowMs?: number; everyMs?: number }): void {
    this.link ??= new LinkGauge({ ...tuning, wake: () => { if (this.dirty()) this.schedule(); } });
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
    // A frame written in one write() of at most a few hundred bytes reaches the terminal in one read
    // (a pty takes it whole; over SSH it fits one packet and one TCP segment), so it cannot tear,
    // and the 16 bytes of DEC 2026 were 4% of a streamed answer (most of its frames are 60-120
    // bytes). Larger frames (a table re-laid out, a resize, a burst) are wrapped.
    const data = (this.opts.caps.syncOutput && body.length > (this.opts.syncMinBytes ?? 512) ? SYNC_BEGIN + body + SYNC_END : body) + (this.link?.probe() ?? "");
    if (this.writeLog) {
      try { appendFileSync(this.writeLog, data); } catch { /* debugging aid only */ }
    }
    const ok = this.opts.output.write(data);
    this.lastFrameAt = performance.now();
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
        if (this.dirty()) this.schedule();
      });
    } else if (this.interval > this.baseInterval) {
      this.interval = Math.max(this.baseInterval, Math.floor(this.interval * 0.75));
    }
  }

  /** A frame is due: drawn after the interval since the last one (never while stdout is backed up). */
  schedule(): void {
    if (this.opts.schedule === false || this.disposed) return;
    if (this.timer || this.waitingDrain || this.link?.held) return;
    const delay = Math.max(0, this.lastFrameAt + this.interval - performance.now());
    this.timer = setTimeout(() => {
      this.timer = null;
      this.frame();
    }, delay);
  }

  /** The frame due is drawn now (or must wait): no timer for it. */
  cancel(): void {
    if (this.timer) { clearTimeout(this.timer); this.timer = null; }
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
