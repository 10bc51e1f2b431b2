// The waits of one model stream (src/model/anthropic-client.ts): each settles with what it waits
// for, or fails when the request is aborted or has sent nothing for too long.

export const ABORTED = Symbol("aborted");
export const IDLE = Symbol("idle");

/**
 * One stream's waits: each settles with its promise, or rejects as soon as `signal` aborts (the
 * SDK may take its time to notice), or after `idleMs` without it settling. One listener and one
 * timer for the whole stream, not per wait: a wait per SSE event (thousands per answer) each with
 * its own promise, timer and abort listener was most of this module's CPU while text streamed.
 *
 * A wait is not a Promise.race against one long-lived "stopped" promise: every race leaves a
 * reaction on that promise until it settles, and each reaction holds its race's result, so a
 * whole answer's SSE events stayed reachable until the stream ended (1,968 of them in the stream
 * bench), promoted to the old generation and left for a full collection once the answer was over.
 * Only the wait in progress is held (`rejectWait`), and dropped when it settles.
 */
export class StreamGuard {
  /** Why the stream stopped, once it has. */
  private stopped: typeof ABORTED | typeof IDLE | null = null;
  /** Fails the wait in progress (null between waits). */
  private rejectWait: ((why: typeof ABORTED | typeof IDLE) => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private waiting = false;
  private since = 0;
  private readonly onAbort = () => this.trip(ABORTED);

  constructor(
    private readonly signal: AbortSignal,
    private readonly idleMs: number,
  ) {
    if (signal.aborted) this.trip(ABORTED);
    else signal.addEventListener("abort", this.onAbort, { once: true });
  }

  promptly<T>(p: Promise<T>): Promise<T> {
    if (this.stopped) {
      p.catch(() => {});
      return Promise.reject(this.stopped);
    }
    this.since = performance.now();
    this.waiting = true;
    if (!this.timer) this.arm(this.idleMs);
    return new Promise<T>((resolve, reject) => {
      let open = true;
      const end = () => {
        open = false;
        this.waiting = false;
        if (this.rejectWait === fail) this.rejectWait = null;
      };
      const fail = (why: unknown) => {
        if (!open) return;
        end();
        reject(why);
      };
      this.rejectWait = fail;
      p.then((v) => {
        if (!open) return;
        end();
        resolve(v);
      }, fail);
    });
  }

  close(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.signal.removeEventListener("abort", this.onAbort);
  }

  private trip(why: typeof ABORTED | typeof IDLE): void {
    if (this.stopped) return;
    this.stopped = why;
    this.rejectWait?.(why);
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
