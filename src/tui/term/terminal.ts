// The terminal session: raw mode, the modes we push (bracketed paste, focus events, kitty keyboard
// or modifyOtherKeys), and a restore that always runs: normal exit, error, SIGINT, SIGTERM, SIGHUP,
// uncaught exceptions and unhandled rejections. Ctrl-Z (which arrives as a key in raw mode, or as
// SIGTSTP from `kill`) restores the terminal, stops the process, and on SIGCONT puts everything
// back and re-reads the size, since the window may have changed while we were stopped.
import { pendingAnswers, type PendingAnswers } from "./answers.ts";
import { applyReplies, capsFromEnv, probeCaps, type Caps } from "./caps.ts";
import type { InputEvent } from "./decoder.ts";
import { createInputFeed, type InputFeed } from "./input-feed.ts";
import { plainLineFeeds } from "./line-feeds.ts";

export type TerminalInput = NodeJS.ReadableStream & { isTTY?: boolean; setRawMode?(mode: boolean): unknown };
export type TerminalOutputStream = NodeJS.WritableStream & {
  columns?: number;
  rows?: number;
  /** Node's and Bun's tty streams: re-reads the size from the tty (TIOCGWINSZ), emitting "resize" if it changed. */
  _refreshSize?(): void;
  on(event: "resize", l: () => void): unknown;
};

export type TerminalSession = {
  caps: Caps;
  readonly cols: number;
  readonly rows: number;
  /** Writes to the terminal; false when the stream is backed up (wait for "drain"). */
  write(data: string): boolean;
  once(event: "drain", listener: () => void): unknown;
  onInput(listener: (events: InputEvent[]) => void): () => void;
  onResize(listener: (cols: number, rows: number) => void): () => void;
  /** After Ctrl-Z and `fg`: repaint everything (the shell may have drawn over us). */
  onResume(listener: () => void): () => void;
  /** SIGTSTP (`kill -TSTP`): the listener stops the way Ctrl-Z does; without one, suspend() at once. */
  onStopRequest(listener: () => void): () => void;
  /** Set while the app shows the alternate screen, so a restore leaves it. */
  altScreen: boolean;
  /** Ctrl-Z: give the terminal back to the shell and stop (wait for answersIn first). */
  suspend(): void;
  /** Resolves once the terminal has answered what we asked of it (bounded): call before suspend and handOver. */
  answersIn(): Promise<void>;
  /**
   * Lends the terminal to a program that runs to its end inside `run` (an editor): our modes off
   * and the tty cooked while it runs, everything back (and the size re-read) after.
   */
  handOver<T>(run: () => T): T;
  /** Undo everything we changed. Idempotent; runs by itself on exit, signals and crashes. */
  restore(): void;
  /** Wait for the answers to what we asked (bounded), restore, then discard input still in flight (key releases) so it never reaches the shell. */
  close(): Promise<void>;
};

export type OpenTerminalOptions = {
  stdin?: TerminalInput;
  stdout?: TerminalOutputStream;
  env?: Record<string, string | undefined>;
  /** Ask the terminal about DEC 2026 and the kitty protocol (default true). */
  probe?: boolean;
  /** Default 150, or KHAELOR_PROBE_TIMEOUT_MS (tests on a loaded machine wait for the answer, not the clock). */
  probeTimeoutMs?: number;
  /** Install process-wide signal/exit/crash handlers (default true). */
  handleSignals?: boolean;
};

const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** How long lending the terminal out (Ctrl-Z, the editor) or leaving it waits for its answers to what we asked (ms). */
const ANSWER_WAIT_MS = 300;

/** What writing to (or reading from) a terminal that was closed gives: the window, tmux or ssh is gone. */
const HANGUP_CODES = new Set(["EIO", "EPIPE", "ENXIO"]);
const isHangup = (e: unknown): boolean => HANGUP_CODES.has((e as NodeJS.ErrnoException | null)?.code ?? "");

/**
 * After a hangup every terminal write fails (EIO, EPIPE), and an unhandled stream error would
 * crash the shutdown that saves the in-flight work: those errors are swallowed for the rest of the
 * process's life (the SIGHUP path ends it), anything else is still thrown.
 */
function ignoreHangupErrors(stream: NodeJS.EventEmitter, onHangup: () => void) {
  stream.on("error", (e: unknown) => {
    if (!isHangup(e)) throw e;
    onHangup();
  });
}

/** Writes to the terminal until it is gone (SIGHUP, or a write said so); after that nothing is written. */
function hangupSafeOutput(stdin: TerminalInput, stdout: TerminalOutputStream) {
  const out = {
    hungUp: false,
    write(data: string): boolean {
      if (out.hungUp) return true;
      try {
        return stdout.write(data);
      } catch (e) {
        if (!isHangup(e)) throw e;
        out.hungUp = true;
        return true;
      }
    },
  };
  for (const stream of [stdin, stdout, process.stderr]) ignoreHangupErrors(stream, () => void (out.hungUp = true));
  return out;
}

// Mode 2027 goes on with our other modes and off with them (a shell after us, or an editor we hand
// the terminal to, expects the terminal's own default).
const enterSequence = (caps: Caps) =>
  (caps.graphemeMode ? "\x1b[?2027h" : "") + (caps.bracketedPaste ? "\x1b[?2004h" : "") + (caps.focusEvents ? "\x1b[?1004h" : "") + (caps.kittyKeyboard ? "\x1b[>1u" : "\x1b[>4;2m");
const leaveSequence = (caps: Caps, altScreen: boolean) =>
  "\x1b[?2026l" + (altScreen ? "\x1b[?1049l" : "") + "\x1b[m" + (caps.kittyKeyboard ? "\x1b[<u" : "\x1b[>4;0m") +
  (caps.focusEvents ? "\x1b[?1004l" : "") + (caps.bracketedPaste ? "\x1b[?2004l" : "") + (caps.graphemeMode ? "\x1b[?2027l" : "") + "\x1b[?25h";

/** Asks the tty for its size; true when it changed (the stream's "resize" event reported it). */
function refreshSize(stdout: TerminalOutputStream): boolean {
  const c = stdout.columns, r = stdout.rows;
  try { stdout._refreshSize?.(); } catch { /* the terminal may be gone */ }
  return c !== stdout.columns || r !== stdout.rows;
}

type Listeners<F> = Set<F> & { on(l: F): () => void };
function listeners<F>(): Listeners<F> {
  const set = new Set<F>() as Listeners<F>;
  set.on = (l) => {
    set.add(l);
    return () => void set.delete(l);
  };
  return set;
}

export async function openTerminal(opts: OpenTerminalOptions = {}): Promise<TerminalSession> {
  const stdin = opts.stdin ?? (process.stdin as TerminalInput);
  const stdout = opts.stdout ?? (process.stdout as unknown as TerminalOutputStream);
  const env = opts.env ?? process.env;
  let caps = capsFromEnv(env);
  const resizeListeners = listeners<(c: number, r: number) => void>();
  const resumeListeners = listeners<() => void>();
  const stopListeners = listeners<() => void>();
  let active = false;
  let restored = false;
  const out = hangupSafeOutput(stdin, stdout);
  const answers = pendingAnswers(ANSWER_WAIT_MS);
  const input = createInputFeed((n) => answers.answered(n));
  const onData = (chunk: Buffer | string) => input.data(chunk);
  const onResize = () => {
    for (const l of resizeListeners) l(stdout.columns ?? 80, stdout.rows ?? 24);
  };
  /** After the terminal was away (fg, an editor): the window may have changed meanwhile. */
  const resized = () => {
    if (!refreshSize(stdout)) onResize();
  };

  // stty takes ~5 ms (a process). At start it runs once the session is handed to the app, so the
  // app's first frames are not held back by it (they take the tty's CR before each LF meanwhile;
  // skipped if we left). After fg and an editor it runs at once: the repaint follows at once.
  const enter = (soon = false) => {
    stdin.setRawMode?.(true);
    if (!soon) plainLineFeeds(stdin);
    else setImmediate(() => {
      if (active) plainLineFeeds(stdin);
    });
    stdin.resume();
    out.write(enterSequence(caps));
    active = true;
  };
  const leave = () => {
    if (!active) return;
    active = false;
    input.cancelPending();
    out.write(leaveSequence(caps, session.altScreen));
    try { stdin.setRawMode?.(false); } catch { /* same */ }
  };

  const onTstp = () => {
    if (stopListeners.size === 0) return session.suspend();
    for (const l of stopListeners) l();
  };
  const onCont = () => {
    if (restored) return;
    enter();
    // The SIGWINCH that says the window changed while we were stopped may be handled after this
    // one (`columns` is only refreshed by it): ask the tty now.
    resized();
    for (const l of resumeListeners) l();
  };

  const processHandlers = processHooks(() => session.restore(), onTstp, onCont);

  const session: TerminalSession = {
    get caps() { return caps; },
    set caps(c: Caps) { caps = c; },
    get cols() { return stdout.columns ?? 80; },
    get rows() { return stdout.rows ?? 24; },
    altScreen: false,
    write(data) {
      answers.written(data);
      return out.write(data);
    },
    once: (event, listener) => stdout.once(event, listener),
    onInput: (l) => input.listen(l),
    onResize: resizeListeners.on,
    onResume: resumeListeners.on,
    onStopRequest: stopListeners.on,
    suspend() {
      if (restored) return;
      leave();
      process.kill(process.pid, "SIGSTOP");
    },
    answersIn: answers.answersIn,
    handOver(run) {
      leave();
      stdin.pause();
      // The program may stop itself and us with it (vim's :suspend signals the whole process
      // group): then we stop too, as a shell's job would, instead of waiting on a stopped child.
      const ownTstp = process.listeners("SIGTSTP").includes(onTstp);
      if (ownTstp) process.off("SIGTSTP", onTstp);
      try {
        return run();
      } finally {
        if (ownTstp && !restored) process.on("SIGTSTP", onTstp);
        if (!restored) {
          enter();
          resized();
        }
      }
    },
    restore() {
      if (restored) return;
      restored = true;
      leave();
      stdin.off("data", onData);
      stdout.off?.("resize", onResize);
      if (opts.handleSignals !== false) for (const [event, handler] of processHandlers) process.off(event, handler);
    },
    async close() {
      const wasRestored = restored;
      if (!wasRestored && !out.hungUp) {
        // Still raw: answers on their way are read here. Once cooked, the tty holds them for the
        // shell (no newline ends them), where they show as typed text.
        input.keysOff();
        await answers.answersIn();
      }
      session.restore();
      if (wasRestored) return;
      const swallow = () => {};
      stdin.on("data", swallow);
      await new Promise((r) => setTimeout(r, 50));
      stdin.off("data", swallow);
      stdin.pause();
    },
  };

  if (opts.handleSignals !== false) for (const [event, handler] of processHandlers) process.on(event, handler);
  stdin.on("data", onData);
  stdout.on("resize", onResize);
  stdin.setRawMode?.(true);
  stdin.resume();
  if (opts.probe !== false && stdin.isTTY) caps = await probe(caps, out, input, answers, opts.probeTimeoutMs ?? (Number(env.KHAELOR_PROBE_TIMEOUT_MS) || 150));
  enter(true);
  return session;
}

/** What the terminal says it can do, asked in one round trip. */
async function probe(caps: Caps, out: { write(d: string): boolean }, input: InputFeed, answers: PendingAnswers, timeoutMs: number): Promise<Caps> {
  const probed = await probeCaps(caps, {
    write: (d) => void out.write(d),
    expectCursorReports: (n) => input.expectCursorReports(n),
    // The probe listens for replies only; it must not take the held keys meant for the app.
    onEvents: (l) => input.listenReplies(l),
  }, timeoutMs);
  // Its DA1 (the last thing it asked) may still be answered, late: count it with the app's.
  if (probed.timedOut) answers.expectOne();
  return applyReplies(probed.caps, []);
}

type ProcessHandler = (...args: any[]) => void;

/** Everything we hook on the process, installed at open and removed by restore. */
function processHooks(restore: () => void, onTstp: () => void, onCont: () => void): Array<[string, ProcessHandler]> {
  const onSignal = (sig: NodeJS.Signals) => {
    restore();
    // Re-raise with the default action so the exit status says which signal ended us.
    process.kill(process.pid, sig);
  };
  const onCrash = (err: unknown) => {
    restore();
    process.stderr.write(`khaelor crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  };
  return [
    ...SIGNALS.map((sig): [string, ProcessHandler] => [sig, onSignal]),
    ["exit", restore],
    ["uncaughtException", onCrash],
    ["unhandledRejection", onCrash],
    ["SIGTSTP", onTstp],
    ["SIGCONT", onCont],
  ];
}
