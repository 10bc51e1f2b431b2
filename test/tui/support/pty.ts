// A command in a real pseudo-terminal (Bun's own pty: Bun.spawn with `terminal`), for tests that
// need the kernel's tty behaviour: raw mode, termios, job control signals. Output is kept as raw
// text; tests wait on conditions over it, never on time (every wait has a deadline that fails with
// the output so far).
import { readlinkSync } from "node:fs";

export type RawPty = {
  readonly pid: number;
  /** Everything the pty printed so far. */
  output(): string;
  write(data: string): void;
  resize(cols: number, rows: number): void;
  /** Resolves with the output once `pred` holds for it (checked after every chunk). */
  waitFor(pred: (out: string) => boolean, what: string, timeoutMs?: number): Promise<string>;
  waitForText(text: string, timeoutMs?: number): Promise<string>;
  exited: Promise<number>;
  close(): void;
};

export function spawnInPty(argv: string[], opts: { cwd?: string; env?: Record<string, string | undefined>; cols?: number; rows?: number } = {}): RawPty {
  let out = "";
  const waiters = new Set<() => void>();
  const decoder = new TextDecoder();
  let done = false;
  const proc = Bun.spawn(argv, {
    cwd: opts.cwd,
    env: { ...process.env, TERM: "xterm-256color", ...opts.env },
    terminal: {
      cols: opts.cols ?? 80,
      rows: opts.rows ?? 24,
      name: "xterm-256color",
      data(_t, bytes) {
        out += decoder.decode(bytes, { stream: true });
        for (const w of [...waiters]) w();
      },
    },
  });
  const pty = proc.terminal!;
  const exited = proc.exited.then((code) => {
    done = true;
    for (const w of [...waiters]) w();
    return code;
  });
  const self: RawPty = {
    pid: proc.pid,
    output: () => out,
    write: (d) => pty.write(d),
    resize: (c, r) => pty.resize(c, r),
    waitFor(pred, what, timeoutMs = 15_000) {
      return new Promise<string>((resolve, reject) => {
        const check = () => {
          if (pred(out)) finish(() => resolve(out));
          else if (done) finish(() => reject(new Error(`the command exited while waiting for ${what}; output:\n${JSON.stringify(out)}`)));
        };
        const finish = (f: () => void) => { waiters.delete(check); clearTimeout(timer); f(); };
        const timer = setTimeout(() => finish(() => reject(new Error(`timed out waiting for ${what}; output:\n${JSON.stringify(out)}`))), timeoutMs);
        waiters.add(check);
        check();
      });
    },
    waitForText: (text, timeoutMs) => self.waitFor((o) => o.includes(text), JSON.stringify(text), timeoutMs),
    exited,
    close() {
      if (!done) proc.kill("SIGKILL");
      pty.close();
    },
  };
  return self;
}

/** The tty device a process has as stdin (Linux), to read its termios from outside with `stty -F`. */
export function ttyOf(pid: number): string {
  return readlinkSync(`/proc/${pid}/fd/0`);
}
