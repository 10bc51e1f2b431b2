// A command in a pseudo-terminal of its own, for the process tool: programs see a terminal, so they
// line-buffer their output (Python, Ruby, C stdio), print their prompts and ask what they would ask
// a user. The child is a session and group leader (Bun makes it one with setsid and takes the
// terminal as its controlling tty), so signalGroup(pid) reaches everything it starts, and
// keystrokes like Ctrl-C reach its foreground group as they would from a keyboard.
import { commandEnv } from "./process-group.ts";

/** Wide, so tables and long log lines are not wrapped or cut; tall enough for a full-screen prompt. */
export const PTY_COLS = 200;
export const PTY_ROWS = 50;
/** After the leader exits, how long output still in the terminal may take to arrive. */
const DRAIN_MS = 300;

export type PtyChild = {
  pid: number;
  /** Bytes as typed on the terminal's keyboard. Throws once the terminal is closed. */
  write(data: string): void;
  /**
   * The leader exited and its output was read to the end (or DRAIN_MS passed: a daemon outside
   * the group may hold the terminal open forever). The terminal is closed by then.
   */
  exited: Promise<{ code: number | null; signal: string | null }>;
};

/** The environment for a process in a terminal: what commands get, but a terminal type and no forced-off colour. */
export function terminalEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env = commandEnv();
  env.TERM = "xterm-256color";
  // Colour as the user would see it: the escapes are stripped before the model reads the output.
  for (const k of ["NO_COLOR", "FORCE_COLOR", "CLICOLOR", "CLICOLOR_FORCE"]) {
    const v = process.env[k];
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return Object.assign(env, extra);
}

export function spawnPtyGroup(script: string, opts: { cwd: string; env: Record<string, string>; onData: (chunk: Uint8Array) => void; wrap?: (argv: string[]) => string[]; fds?: number[] }): PtyChild {
  let eof!: () => void;
  const ended = new Promise<void>((r) => (eof = r));
  const plain = ["bash", "-c", script];
  const proc = Bun.spawn(opts.wrap ? opts.wrap(plain) : plain, {
    cwd: opts.cwd,
    env: opts.env,
    // Descriptors a wrapper needs as fds 3, 4, … (the sandbox's session network); the terminal is 0-2.
    ...(opts.fds?.length ? { stdio: ["inherit", "inherit", "inherit", ...opts.fds] as ["inherit", "inherit", "inherit", ...number[]] } : {}),
    terminal: {
      cols: PTY_COLS,
      rows: PTY_ROWS,
      name: opts.env.TERM ?? "xterm-256color",
      data: (_t, d) => opts.onData(d),
      exit: () => eof(),
    },
  });
  const terminal = proc.terminal!;
  const exited = proc.exited.then(async (code) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([ended, new Promise((r) => (timer = setTimeout(r, DRAIN_MS)))]);
    clearTimeout(timer);
    terminal.close();
    const signal = typeof proc.signalCode === "string" ? proc.signalCode : null;
    return { code: signal ? null : code, signal };
  });
  return {
    pid: proc.pid,
    write(data) {
      if (terminal.closed) throw new Error("the terminal is closed");
      terminal.write(data);
    },
    exited,
  };
}
