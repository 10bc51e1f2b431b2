// Claude Code's `statusLine: {type: "command"}`: the user's command gets the session as JSON on
// stdin and its first line of output is drawn above the built-in status line. It runs on events,
// never more often than every 300 ms (one run at a time; events during a run ask for one more
// after it), with a timeout, and never holds up a frame: the line shown is the last one that
// came back. A command that fails leaves the built-in line alone and says why once.
import { spawn } from "node:child_process";
import type { Span } from "../../tui/render/style.ts";
import { sgrToSpans } from "../../tui/render/sgr-spans.ts";

export type StatusLineSetting = { command: string; padding?: number; file: string };

export const STATUS_MIN_GAP_MS = 300;
export const STATUS_TIMEOUT_MS = 5000;
const MAX_OUTPUT = 64 * 1024;

export type StatusCommandDeps = {
  /** Runs the command with `stdin`; resolves its stdout, rejects with why it failed. */
  run(stdin: string, signal: AbortSignal): Promise<string>;
  now(): number;
  /** A timer; returns its cancel. Injected so tests drive the clock. */
  later(fn: () => void, ms: number): () => void;
  /** The line to draw (null: none, the built-in line alone). */
  show(line: Span[] | null): void;
  notice(text: string): void;
  timeoutMs?: number;
};

export type StatusCommand = { request(): void; stop(): void };

export function statusCommand(describe: () => string, input: () => unknown, deps: StatusCommandDeps): StatusCommand {
  let running = false;
  let again = false;
  let stopped = false;
  let lastStart = -Infinity;
  let pending: (() => void) | null = null;
  let current: AbortController | null = null;
  let warned = false;

  const start = () => {
    pending = null;
    if (stopped) return;
    running = true;
    again = false;
    lastStart = deps.now();
    const ac = new AbortController();
    current = ac;
    const timeoutMs = deps.timeoutMs ?? STATUS_TIMEOUT_MS;
    let timedOut = false;
    const cancelTimeout = deps.later(() => {
      timedOut = true;
      ac.abort();
    }, timeoutMs);
    let stdin = "{}";
    try {
      stdin = JSON.stringify(input());
    } catch {
      // The session went away between the event and the run: the command still gets an object.
    }
    deps
      .run(stdin, ac.signal)
      .then((out) => {
        if (stopped) return;
        const first = out.split("\n")[0]?.replace(/\r$/, "") ?? "";
        const spans = sgrToSpans(first);
        deps.show(spans.some((s) => s.text.trim() !== "") ? spans : null);
      })
      .catch((e: unknown) => {
        if (stopped) return;
        deps.show(null);
        if (warned) return;
        warned = true;
        const why = timedOut ? `did not finish within ${timeoutMs / 1000} s` : e instanceof Error ? e.message : String(e);
        deps.notice(`status line command ${describe()} ${why}; showing the built-in status line (this is said once)`);
      })
      .finally(() => {
        cancelTimeout();
        running = false;
        current = null;
        if (again) request();
      });
  };

  const request = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    if (pending) return;
    const wait = lastStart + STATUS_MIN_GAP_MS - deps.now();
    if (wait <= 0) start();
    else pending = deps.later(start, wait);
  };

  return {
    request,
    stop() {
      stopped = true;
      pending?.();
      pending = null;
      current?.abort();
    },
  };
}

/** `/bin/sh -c command` in its own process group, killed whole when `signal` aborts. */
export function runStatusCommand(command: string, cwd: string, stdin: string, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("/bin/sh", ["-c", command], { cwd, stdio: ["pipe", "pipe", "pipe"], detached: true });
    let out = "";
    let err = "";
    let done = false;
    const finish = (f: () => void) => {
      if (done) return;
      done = true;
      signal.removeEventListener("abort", onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      f();
    };
    const onAbort = () => {
      try {
        if (child.pid) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      finish(() => reject(new Error("was stopped")));
    };
    signal.addEventListener("abort", onAbort, { once: true });
    child.stdout.setEncoding("utf8").on("data", (c: string) => {
      if (out.length < MAX_OUTPUT) out += c;
    });
    child.stderr.setEncoding("utf8").on("data", (c: string) => {
      if (err.length < MAX_OUTPUT) err += c;
    });
    child.stdin.on("error", () => {});
    child.stdin.end(stdin);
    child.on("error", (e) => finish(() => reject(new Error(`could not start: ${e.message}`))));
    child.on("close", (code, sig) =>
      finish(() => {
        if (code === 0) resolve(out);
        else {
          const detail = err.trim().split("\n")[0]?.slice(0, 200) ?? "";
          reject(new Error(`${sig ? `was killed by ${sig}` : `exited with code ${code}`}${detail ? ` (${detail})` : ""}`));
        }
      }),
    );
    if (signal.aborted) onAbort();
  });
}
