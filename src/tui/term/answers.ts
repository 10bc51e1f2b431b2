// The terminal's answers still on their way. The app's link probe writes DA1 requests behind its
// frames; an answer that arrives once the tty is cooked again reaches the shell as typed text
// ("1;2c" after Ctrl-Z), or an editor as keys: lending the terminal out waits for them first.

/** Device attributes: the request the app's link probe writes. */
export const DA1 = "\x1b[c";

export type PendingAnswers = {
  /** Counts the DA1 requests in what is about to be written. */
  written(data: string): void;
  /** One more request whose answer may still come (the capability probe's, when it timed out). */
  expectOne(): void;
  /** `n` answers arrived. */
  answered(n: number): void;
  /** Resolves once every request written is answered (at once if none), or after `waitMs`. */
  answersIn(): Promise<void>;
};

export function pendingAnswers(waitMs: number): PendingAnswers {
  let unanswered = 0;
  const waiters = new Set<() => void>();
  const answerOne = () => {
    unanswered = Math.max(0, unanswered - 1);
    if (unanswered === 0) for (const w of [...waiters]) w();
  };
  return {
    written(data) {
      for (let i = data.indexOf(DA1); i !== -1; i = data.indexOf(DA1, i + DA1.length)) unanswered++;
    },
    expectOne() {
      unanswered++;
    },
    answered(n) {
      for (let i = 0; i < n; i++) answerOne();
    },
    answersIn: () =>
      new Promise((resolve) => {
        if (unanswered === 0) return resolve();
        const done = () => {
          clearTimeout(timer);
          waiters.delete(done);
          unanswered = 0; // a terminal that does not answer: taken as lost
          resolve();
        };
        // A terminal that never answers (or one gone) must not keep Ctrl-Z or the editor waiting.
        const timer = setTimeout(done, waitMs);
        waiters.add(done);
      }),
  };
}
