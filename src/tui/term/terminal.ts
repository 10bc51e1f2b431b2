// The terminal session: raw mode, the modes we push (bracketed paste, focus events, kitty keyboard
// or modifyOtherKeys), and a restore that always runs: normal exit, error, SIGINT, SIGTERM, SIGHUP,
// uncaught exceptions and unhandled rejections. Ctrl-Z (which arrives as a key in raw mode, or as
// SIGTSTP from `kill`) restores the terminal, stops the process, and on SIGCONT puts everything
// back and re-reads the size, since the window may have changed while we were stopped.
import { applyReplies, capsFromEnv, probeCaps, type Caps } from "./caps.ts";
import { createInputDecoder, ESC_TIMEOUT_MS, type InputEvent } from "./decoder.ts";
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

/** Device attributes: the request the app's link probe writes. */
const DA1 = "\x1b[c";
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

export async function openTerminal(opts: OpenTerminalOptions = {}): Promise<TerminalSession> {
  const stdin = opts.stdin ?? (process.stdin as TerminalInput);
  const stdout = opts.stdout ?? (process.stdout as unknown as TerminalOutputStream);
  const env = opts.env ?? process.env;
  let caps = capsFromEnv(env);
  const decoder = createInputDecoder();
  const inputListeners = new Set<(e: InputEvent[]) => void>();
  const resizeListeners = new Set<(c: number, r: number) => void>();
  const resumeListeners = new Set<() => void>();
  let escTimer: ReturnType<typeof setTimeout> | null = null;
  let active = false;
  let restored = false;
  /** The terminal is gone (SIGHUP, or a write said so): nothing more is written to it. */
  let hungUp = false;
  const markHungUp = () => {
    hungUp = true;
  };
  for (const stream of [stdin, stdout, process.stderr]) ignoreHangupErrors(stream, markHungUp);
  const writeOut = (data: string): boolean => {
    if (hungUp) return true;
    try {
      return stdout.write(data);
    } catch (e) {
      if (!isHangup(e)) throw e;
      hungUp = true;
      return true;
    }
  };

  /**
   * DA1 requests the app wrote (the link probe rides behind frames) that the terminal has not
   * answered yet. An answer that arrives once the tty is cooked again reaches the shell as typed
   * text ("1;2c" after Ctrl-Z), or the editor as keys: handing the terminal over waits for them.
   */
  let unanswered = 0;
  const answerWaiters = new Set<() => void>();
  const answered = () => {
    unanswered = Math.max(0, unanswered - 1);
    if (unanswered === 0) for (const w of [...answerWaiters]) w();
  };
  /** Resolves once every DA1 request written is answered (at once if none), or after ANSWER_WAIT_MS. */
  const answersIn = (): Promise<void> =>
    new Promise((resolve) => {
      if (unanswered === 0) return resolve();
      const done = () => {
        clearTimeout(timer);
        answerWaiters.delete(done);
        unanswered = 0; // a terminal that does not answer: taken as lost
        resolve();
      };
      // A terminal that never answers (or one gone) must not keep Ctrl-Z or the editor waiting.
      const timer = setTimeout(done, ANSWER_WAIT_MS);
      answerWaiters.add(done);
    });
  /** Closing: keys are not for the app any more. */
  let keysOff = false;
  const write = (data: string): boolean => {
    for (let i = data.indexOf(DA1); i !== -1; i = data.indexOf(DA1, i + DA1.length)) unanswered++;
    return writeOut(data);
  };

  /**
   * Keys that arrive before the app listens (while the capabilities are probed, on a busy machine
   * easily the user's first words) are held and handed to the first listener, never dropped.
   */
  let held: InputEvent[] | null = [];
  const dispatch = (events: InputEvent[]) => {
    if (events.length === 0) return;
    const da1 = events.filter((e) => e.type === "reply" && e.kind === "device-attributes").length;
    // Replies still are for the app (the link gauge).
    if (keysOff) events = events.filter((e) => e.type === "reply");
    if (held) held.push(...events.filter((e) => e.type !== "reply"));
    for (const l of inputListeners) l(events);
    for (let i = 0; i < da1; i++) answered();
  };
  const onData = (chunk: Buffer | string) => {
    if (escTimer) { clearTimeout(escTimer); escTimer = null; }
    dispatch(decoder.feed(typeof chunk === "string" ? chunk : new Uint8Array(chunk)));
    if (decoder.pending) escTimer = setTimeout(() => { escTimer = null; dispatch(decoder.flush()); }, ESC_TIMEOUT_MS);
  };
  const onResize = () => {
    for (const l of resizeListeners) l(stdout.columns ?? 80, stdout.rows ?? 24);
  };
  /** Asks the tty for its size; true when it changed (the stream's "resize" event reported it). */
  const refreshSize = (): boolean => {
    const c = stdout.columns, r = stdout.rows;
    try { stdout._refreshSize?.(); } catch { /* the terminal may be gone */ }
    return c !== stdout.columns || r !== stdout.rows;
  };

  // Mode 2027 goes on with our other modes and off with them (a shell after us, or an editor we hand
  // the terminal to, expects the terminal's own default).
  const enterSequence = () =>
    (caps.graphemeMode ? "\x1b[?2027h" : "") + (caps.bracketedPaste ? "\x1b[?2004h" : "") + (caps.focusEvents ? "\x1b[?1004h" : "") + (caps.kittyKeyboard ? "\x1b[>1u" : "\x1b[>4;2m");
  const leaveSequence = () =>
    "\x1b[?2026l" + (session.altScreen ? "\x1b[?1049l" : "") + "\x1b[m" + (caps.kittyKeyboard ? "\x1b[<u" : "\x1b[>4;0m") +
    (caps.focusEvents ? "\x1b[?1004l" : "") + (caps.bracketedPaste ? "\x1b[?2004l" : "") + (caps.graphemeMode ? "\x1b[?2027l" : "") + "\x1b[?25h";

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
    writeOut(enterSequence());
    active = true;
  };
  const leave = () => {
    if (!active) return;
    active = false;
    if (escTimer) { clearTimeout(escTimer); escTimer = null; }
    writeOut(leaveSequence());
    try { stdin.setRawMode?.(false); } catch { /* same */ }
  };

  const onSignal = (sig: NodeJS.Signals) => {
    session.restore();
    // Re-raise with the default action so the exit status says which signal ended us.
    process.kill(process.pid, sig);
  };
  const onExit = () => session.restore();
  const onCrash = (err: unknown) => {
    session.restore();
    process.stderr.write(`khaelor crashed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exit(1);
  };
  const stopListeners = new Set<() => void>();
  const onTstp = () => {
    if (stopListeners.size === 0) return session.suspend();
    for (const l of stopListeners) l();
  };
  const onCont = () => {
    if (restored) return;
    enter();
    // The window may have changed while we were stopped, and the SIGWINCH that says so may be
    // handled after this one (`columns` is only refreshed by it): ask the tty now.
    if (!refreshSize()) onResize();
    for (const l of resumeListeners) l();
  };

  /** Everything we hook on the process, installed at open and removed by restore. */
  const processHandlers: Array<[string, (...args: any[]) => void]> = [
    ...SIGNALS.map((sig) => [sig, onSignal] as [string, (...args: any[]) => void]),
    ["exit", onExit],
    ["uncaughtException", onCrash],
    ["unhandledRejection", onCrash],
    ["SIGTSTP", onTstp],
    ["SIGCONT", onCont],
  ];

  const session: TerminalSession = {
    get caps() { return caps; },
    set caps(c: Caps) { caps = c; },
    get cols() { return stdout.columns ?? 80; },
    get rows() { return stdout.rows ?? 24; },
    altScreen: false,
    write,
    once: (event, listener) => stdout.once(event, listener),
    onInput(l) {
      inputListeners.add(l);
      if (held) {
        const early = held;
        held = null;
        if (early.length > 0) queueMicrotask(() => l(early));
      }
      return () => inputListeners.delete(l);
    },
    onResize(l) { resizeListeners.add(l); return () => resizeListeners.delete(l); },
    onResume(l) { resumeListeners.add(l); return () => resumeListeners.delete(l); },
    onStopRequest(l) { stopListeners.add(l); return () => stopListeners.delete(l); },
    suspend() {
      if (restored) return;
      leave();
      process.kill(process.pid, "SIGSTOP");
    },
    answersIn,
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
          // The window may have been resized while the program had it.
          if (!refreshSize()) onResize();
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
      if (!wasRestored && !hungUp) {
        // Still raw: answers on their way are read here. Once cooked, the tty holds them for the
        // shell (no newline ends them), where they show as typed text.
        keysOff = true;
        await answersIn();
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
  if (opts.probe !== false && stdin.isTTY) {
    const probed = await probeCaps(caps, {
      write: (d) => void writeOut(d),
      expectCursorReports: (n) => decoder.expectCursorReports(n),
      // The probe listens for replies only; it must not take the held keys meant for the app.
      onEvents: (l) => {
        inputListeners.add(l);
        return () => inputListeners.delete(l);
      },
    }, opts.probeTimeoutMs ?? (Number(env.KHAELOR_PROBE_TIMEOUT_MS) || 150));
    caps = applyReplies(probed.caps, []);
    // Its DA1 (the last thing it asked) may still be answered, late: count it with the app's.
    if (probed.timedOut) unanswered++;
  }
  enter(true);
  return session;
}
