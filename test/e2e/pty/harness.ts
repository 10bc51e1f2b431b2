// Drives the real CLI in a pseudo-terminal and reads the screen through a real terminal emulator
// (@xterm/headless, via the TUI test harness). The pty is Bun's own (Bun.spawn with `terminal`):
// under Bun 1.4.5 on this machine @lydell/node-pty's children get SIGHUP within a few hundred
// milliseconds of starting, while Bun.Terminal runs them reliably. Tests wait on what the screen
// shows, never on time; every wait has a deadline that fails with the screen's contents.
import { afterAll } from "bun:test";
import { createTestTerminal, type PendingWrapModel, type TestTerminal, type WidthModel } from "../../tui/support/terminal.ts";
import { cliCommand } from "../../support/cli.ts";
import { startFakeApi, type FakeApi, type ScenarioInput } from "../../support/fake-api.ts";

export type PtySession = {
  readonly term: TestTerminal;
  readonly pid: number;
  /** Every byte the app wrote, in order. */
  output(): string;
  bytes(): number;
  type(text: string): void;
  /** Sends raw bytes (keys as escape sequences). */
  send(data: string): void;
  paste(text: string): void;
  resize(cols: number, rows: number): void;
  /** Resolves when `pred` holds for the screen (checked after every write from the app). */
  waitFor(pred: (screen: string) => boolean, what: string, timeoutMs?: number): Promise<void>;
  waitForText(text: string, timeoutMs?: number): Promise<void>;
  /** The visible screen joined by newlines. */
  screen(): string;
  /** Scrollback and screen, joined where the terminal soft-wrapped. */
  all(): string;
  exited: Promise<number>;
  /** Closes the terminal (the window, tmux kill-session): the app gets SIGHUP and EIO on every write. */
  hangup(): void;
  kill(): void;
};

export const KEY = {
  enter: "\r",
  esc: "\x1b",
  up: "\x1b[A",
  down: "\x1b[B",
  right: "\x1b[C",
  left: "\x1b[D",
  tab: "\t",
  shiftTab: "\x1b[Z",
  backspace: "\x7f",
  ctrlC: "\x03",
  ctrlD: "\x04",
  ctrlT: "\x14",
  ctrlA: "\x01",
  ctrlE: "\x05",
  ctrlK: "\x0b",
  ctrlY: "\x19",
  ctrlU: "\x15",
  altEnter: "\x1b\r",
  pageUp: "\x1b[5~",
  pageDown: "\x1b[6~",
  home: "\x1b[H",
  end: "\x1b[F",
};

export type PtyOptions = {
  cwd: string; env: Record<string, string>; cols?: number; rows?: number; widths?: WidthModel;
  /** "tmux": the emulator follows tmux where it differs from xterm (see PendingWrapModel). */
  model?: PendingWrapModel;
  /** The emulator's answers to the app's queries take this long to arrive, as over a slow link (ms). */
  replyDelayMs?: number;
  /** A shell command run in the same terminal after KHAELOR exits (as the user's shell would go on). */
  after?: string;
  /** The emulator answers OSC 11 (the background colour query) with this, e.g. "rgb:ffff/ffff/ffff" (xterm.js itself does not answer). */
  background?: string;
  /** Run this program instead of KHAELOR from source (or KHAELOR_BIN): a particular build. */
  program?: string;
};

/** The screen with each wrapped (indented) row joined to the one before it, as one line. */
export function unwrap(screen: string): string {
  return screen.replace(/\n +/g, " ");
}

export function startPty(args: string[], opts: PtyOptions): PtySession {
  const cols = opts.cols ?? 100;
  const rows = opts.rows ?? 30;
  const term = createTestTerminal({ cols, rows, widths: opts.widths, pendingWrap: opts.model });
  const cli = opts.program ? [opts.program, ...args] : cliCommand(args);
  const [file, ...rest] = opts.after ? ["/bin/sh", "-c", `"$@"; ${opts.after}`, "sh", ...cli] : cli;
  let out = "";
  let byteCount = 0;
  const waiters = new Set<() => void>();
  let pending = Promise.resolve();
  const decoder = new TextDecoder();
  const proc = Bun.spawn([file!, ...rest], {
    cwd: opts.cwd,
    // The emulator always answers the start-up probe: wait for its answer however loaded the machine.
    env: { TERM: "xterm-256color", KHAELOR_PROBE_TIMEOUT_MS: "20000", ...opts.env },
    terminal: {
      cols,
      rows,
      name: "xterm-256color",
      data(_t, bytes) {
        const d = decoder.decode(bytes, { stream: true });
        out += d;
        byteCount += bytes.byteLength;
        // Parsed as it arrives, as a terminal does: write() would parse it on a timer of its own,
        // which on a loaded machine lagged each frame by milliseconds.
        pending = pending.then(() => {
          term.writeNow(d);
          for (const w of [...waiters]) w();
        });
      },
    },
  });
  const pty = proc.terminal!;
  // The emulator answers the app's queries (DA1, DECRQM for synchronized output) as a real
  // terminal would, so capability probing finishes on the answer, not on its timeout.
  const delay = opts.replyDelayMs ?? 0;
  const answer = (reply: string) => {
    try { pty.write(reply); } catch { /* a late answer once the terminal is closed */ }
  };
  term.term.onData((reply) => (delay > 0 ? setTimeout(() => answer(reply), delay) : answer(reply)));
  const bg = opts.background;
  if (bg) term.term.parser.registerOscHandler(11, (data) => (data === "?" ? (pty.write(`\x1b]11;${bg}\x1b\\`), true) : false));
  const exited = proc.exited.then(async (code) => {
    await pending;
    for (const w of [...waiters]) w();
    return code;
  });
  let done = false;
  void exited.then(() => (done = true));
  const screen = () => term.screen().join("\n");
  const s: PtySession = {
    term,
    pid: proc.pid,
    output: () => out,
    bytes: () => byteCount,
    type: (text) => pty.write(text),
    send: (data) => pty.write(data),
    paste: (text) => pty.write(`\x1b[200~${text}\x1b[201~`),
    resize(c, r) {
      pty.resize(c, r);
      term.resize(c, r);
    },
    screen,
    all: () => term.logicalLines().join("\n"),
    waitFor(pred, what, timeoutMs = 15_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (pred(screen())) {
            waiters.delete(check);
            clearTimeout(timer);
            resolve();
          } else if (done) {
            waiters.delete(check);
            clearTimeout(timer);
            reject(new Error(`the app exited while waiting for ${what}; screen:\n${screen()}`));
          }
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`timed out waiting for ${what}; screen:\n${screen()}`));
        }, timeoutMs);
        waiters.add(check);
        void pending.then(check);
      });
    },
    waitForText(text, timeoutMs) {
      // Prose wraps between words, and where depends on how long the temporary paths on this
      // machine are: a text that wrapped onto an indented next row still counts.
      return s.waitFor((sc) => sc.includes(text) || unwrap(sc).includes(text), JSON.stringify(text), timeoutMs);
    },
    exited,
    hangup() {
      pty.close();
    },
    kill() {
      if (!done) proc.kill("SIGKILL");
      pty.close();
      term.dispose();
    },
  };
  return s;
}

/**
 * The permission prompt takes keys: its "[y]" is no longer dimmed. A prompt ignores keys in its
 * first moments (they were typed before it appeared), so a test answers only once this holds.
 */
export function promptArmed(s: PtySession): boolean {
  const lines = s.term.lines();
  for (let i = lines.length - 1; i >= 0; i--) {
    const col = lines[i]!.indexOf("[y]");
    if (col >= 0) return s.term.cellStyle(i, col)?.dim === false;
  }
  return false;
}

/** Waits for the permission prompt to take keys, then answers it with `key`. */
export async function answerPrompt(s: PtySession, key: string): Promise<void> {
  await s.waitFor(() => promptArmed(s), "the permission prompt to take keys");
  s.send(key);
}

export const SPINNER = /[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/;
/** The app is waiting for the user: the prompt's placeholder shows and no spinner turns. */
export const idle = (screen: string): boolean => screen.includes("ask anything") && !SPINNER.test(screen);

/** Once the app waits for the user: types `text`, waits for it to show in the composer, sends it. */
export async function submit(s: PtySession, text: string): Promise<void> {
  await s.waitFor(idle, "the composer");
  s.type(text);
  await s.waitForText(`› ${text}`);
  s.send(KEY.enter);
}

/**
 * Per test file: fake APIs and pty sessions that are all stopped when the file's tests end, so no
 * server or KHAELOR is left running whatever a test does.
 */
export function ptyFixtures() {
  const open: PtySession[] = [];
  const apis: FakeApi[] = [];
  afterAll(async () => {
    for (const s of open) s.kill();
    for (const a of apis) await a.close();
  });
  return {
    async api(scenario: ScenarioInput): Promise<FakeApi> {
      const a = await startFakeApi({ scenario });
      apis.push(a);
      return a;
    },
    pty(args: string[], opts: PtyOptions): PtySession {
      const s = startPty(args, { cols: 100, rows: 30, ...opts });
      open.push(s);
      return s;
    },
  };
}
