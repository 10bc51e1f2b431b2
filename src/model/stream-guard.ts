// The waits of one model stream (src/model/anthropic-client.ts): each settles with what it waits
// for, or fails when the request is aborted or has sent nothing for too long.

export const ABORTED = Symbol("aborted");
export const IDLE = Symbol("idle");

/**
 * One stream's waits: each settles with its promise, or rejects as soon as `signal` aborts (the
 * SDK may take its time to notice), or after `idleMs` without it settling. One listener and one
 * timer for the whole stream, not per wait: a wait per SSE event (thousands per answer) each with
 * its own promise, timer and abort listener was most of this module's CPU while text streamed.
 */
export class StreamGuard {
  private readonly stop: Promise<never>;
  private trip: (why: typeof ABORTED | typeof IDLE) => void = () => {};
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiting = false;
  private since = 0;
  private readonly onAbort = () => this.trip(ABORTED);

  constructor(
    private readonly signal: AbortSignal,
    private readonly idleMs: number,
  ) {
    this.stop = new Promise<never>((_, reject) => (this.trip = reject));
    this.stop.catch(() => {});
    if (signal.aborted) this.trip(ABORTED);
    else signal.addEventListener("abort", this.onAbort, { once: true });
  }

  async promptly<T>(p: Promise<T>): Promise<T> {
    this.since = performance.now();
    this.waiting = true;
    if (!this.timer) this.arm(this.idleMs);
    try {
      return await Promise.race([p, this.stop]);
    } finally {
      this.waiting = false;
    }
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.signal.removeEventListener("abort", this.onAbort);
  }

  /** The timer runs on from wait to wait; when it fires it trips only if the current wait has lasted idleMs. */
  private arm(ms: number): void {
    this.timer = setTimeout(() => {
      this.timer = null;
      if (!this.waiting) return;
      const left = this.since + this.idleMs - performance.now();
      if (left <= 0) this.trip(IDLE);
      else this.arm(left);
    }, ms);
  }
}
