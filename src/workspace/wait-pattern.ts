// A process read's wait_for, matched without ever blocking the event loop. The pattern comes from
// the model and the text from a program: a regex like `a*a*a*x` backtracks in cubic time on a long
// run of `a`s, `\d+x` in quadratic time on a flood of digits, and `(a+)+$` exponentially (where
// JavaScriptCore stops it after ~0.4 s and answers "no match", again on every new chunk). There is
// no linear-time regex engine here, so a pattern with regex syntax runs in a worker with a time
// budget per check; a pattern without any (`Serving HTTP`, `>>> `) is a plain substring search,
// linear and in-thread.
// The worker's source is a string turned into a blob URL, not a file: `bun build --compile` has
// no file to resolve at run time, and a blob URL runs the same from source and in the binary
// (test/hostile/wait-pattern.test.ts runs against the compiled binary).

/** The time one check of a regex may take before the wait gives up on the pattern. */
export const WAIT_CHECK_BUDGET_MS = 2000;

/** A wait_for that could not be checked: the read fails with this message. */
export class WaitPatternError extends Error {}

export class WaitPatternTooSlow extends WaitPatternError {
  constructor(readonly source: string) {
    super(`wait_for /${source}/ took over ${WAIT_CHECK_BUDGET_MS / 1000} s on one check of this output and was stopped; use a plain text or a simpler pattern (no overlapping repeats like (a+)+ or a*a*x)`);
  }
}

export type WaitPattern = {
  /** Whether the pattern occurs in `text`; an abort ends a running check at once (it answers false). */
  test(text: string, signal?: AbortSignal): boolean | Promise<boolean>;
  close?(): void;
};

const REGEX_SYNTAX = /[\\^$.|?*+()[\]{}]/;

const WORKER = `self.onmessage = (e) => { let r; try { r = new RegExp(e.data.source, "m").test(e.data.text); } catch { r = false; } postMessage(r); };`;
let workerUrl: string | undefined;

/** Compiles `source` (throws SyntaxError for an invalid regex). */
export function waitPattern(source: string): WaitPattern {
  if (!REGEX_SYNTAX.test(source)) return { test: (text) => text.includes(source) };
  new RegExp(source, "m");
  let worker: Worker | undefined;
  const end = () => {
    // A runaway match cannot be interrupted, only its thread ended.
    worker?.terminate();
    worker = undefined;
  };
  return {
    test(text, signal) {
      if (signal?.aborted) return false;
      workerUrl ??= URL.createObjectURL(new Blob([WORKER], { type: "application/javascript" }));
      const w = (worker ??= new Worker(workerUrl));
      return new Promise<boolean>((resolve, reject) => {
        const settle = () => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", onAbort);
          w.onmessage = null;
          w.onerror = null;
        };
        const timer = setTimeout(() => {
          settle();
          end();
          reject(new WaitPatternTooSlow(source));
        }, WAIT_CHECK_BUDGET_MS);
        const onAbort = () => {
          settle();
          end();
          resolve(false);
        };
        signal?.addEventListener("abort", onAbort, { once: true });
        w.onmessage = (e: MessageEvent<boolean>) => {
          settle();
          resolve(e.data);
        };
        w.onerror = (e: ErrorEvent) => {
          settle();
          end();
          reject(new WaitPatternError(`wait_for could not be checked: ${e.message || "its worker failed"}`));
        };
        w.postMessage({ source, text });
      });
    },
    close: end,
  };
}
