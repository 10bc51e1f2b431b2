// A process read's wait_for, matched without ever blocking the event loop. The pattern comes from
// the model and the text from a program: a regex like `(a+)+$` backtracks exponentially on a long
// run of `a`s, and even `\d+x` is quadratic on a flood of digits. JavaScript has no linear-time
// regex engine, so a pattern with regex syntax runs in a worker with a time budget per check; a
// pattern without any (`Serving HTTP`, `>>> `) is a plain substring search, linear and in-thread.

/** The time one check of a regex may take before the wait gives up on the pattern. */
export const WAIT_CHECK_BUDGET_MS = 2000;

export class WaitPatternTooSlow extends Error {
  constructor(readonly source: string) {
    super(`wait_for /${source}/ took over ${WAIT_CHECK_BUDGET_MS / 1000} s on one check of this output and was stopped; use a plain text or a simpler pattern (no nested repeats like (a+)+)`);
  }
}

export type WaitPattern = {
  test(text: string): boolean | Promise<boolean>;
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
  return {
    test(text) {
      workerUrl ??= URL.createObjectURL(new Blob([WORKER], { type: "application/javascript" }));
      const w = (worker ??= new Worker(workerUrl));
      return new Promise<boolean>((resolve, reject) => {
        const timer = setTimeout(() => {
          // A runaway match cannot be interrupted, only its thread ended.
          w.terminate();
          worker = undefined;
          reject(new WaitPatternTooSlow(source));
        }, WAIT_CHECK_BUDGET_MS);
        w.onmessage = (e: MessageEvent<boolean>) => {
          clearTimeout(timer);
          resolve(e.data);
        };
        w.postMessage({ source, text });
      });
    },
    close() {
      worker?.terminate();
      worker = undefined;
    },
  };
}
