// Long-running processes the model starts (dev servers, watchers, REPLs) plus the groups of bash
// commands in flight, so that one call stops them all when KHAELOR exits. Each process runs in a
// pseudo-terminal of its own (./pty-group.ts); its output, cleaned of escape sequences as it
// arrives, goes into a rolling buffer, and each read returns what is new since the previous read.
import { groupAlive, signalGroup } from "./process-group.ts";
import { spawnPtyGroup, terminalEnv } from "./pty-group.ts";
import type { CommandConfinement } from "./confinement.ts";
import { collapseRedraws, TerminalText } from "./terminal-text.ts";

export const PROCESS_BUFFER_CHARS = 1_000_000;
const STOP_GRACE_MS = 2000;

export type ProcessState = "running" | "exited";

export type ProcessInfo = {
  id: string;
  name: string | null;
  pid: number;
  command: string;
  cwd: string;
  state: ProcessState;
  exitCode: number | null;
  signal: string | null;
  startedAt: number;
  endedAt: number | null;
  uptimeMs: number;
  /** Total bytes of output produced, including any dropped from the buffer. */
  bytes: number;
};

export type ReadOptions = {
  /** Only the last N lines (of everything still buffered). */
  tail?: number;
  /** From this output offset (as reported by an earlier read) instead of the read cursor. */
  since?: number;
  /** Wait until this pattern appears in new output (or the process exits, or the timeout). */
  waitFor?: { test(text: string, signal?: AbortSignal): boolean | Promise<boolean> };
  timeoutMs?: number;
  signal?: AbortSignal;
};

/** Keys `write` can press after the text, as a terminal's keyboard sends them. */
export const KEYS = {
  Enter: "\r",
  Tab: "\t",
  Escape: "\x1b",
  Backspace: "\x7f",
  Up: "\x1b[A",
  Down: "\x1b[B",
  Right: "\x1b[C",
  Left: "\x1b[D",
  "Ctrl-C": "\x03",
  "Ctrl-D": "\x04",
  "Ctrl-Z": "\x1a",
  "Ctrl-\\": "\x1c",
} as const;
export type KeyName = keyof typeof KEYS;

/** Text as typed: a line break is the Enter key (CR), which the terminal turns into the program's newline. */
export const typed = (text: string): string => text.replace(/\r?\n/g, "\r");

/** How far back a wait_for re-reads text it already checked, so a match split across chunks is found. */
const WAIT_OVERLAP = 4096;

export type ReadResult = {
  text: string;
  /** Offset just after the returned text; pass as `since` to read from here again. */
  offset: number;
  /** Characters lost to the rolling buffer before the requested start. */
  dropped: number;
  matched: boolean | null;
  timedOut: boolean;
  info: ProcessInfo;
};

class ManagedProcess {
  buffer = "";
  /** Absolute offset of buffer[0] in everything the process ever printed. */
  bufferStart = 0;
  cursor = 0;
  bytes = 0;
  state: ProcessState = "running";
  exitCode: number | null = null;
  signal: string | null = null;
  endedAt: number | null = null;
  stoppedByUs = false;
  readonly startedAt = Date.now();
  private waiters = new Set<() => void>();

  constructor(
    readonly id: string,
    readonly name: string | null,
    readonly pid: number,
    readonly command: string,
    readonly cwd: string,
    readonly input: ((data: string) => void) | null,
    readonly exited: Promise<unknown>,
  ) {}

  get end(): number {
    return this.bufferStart + this.buffer.length;
  }

  append(text: string, byteLength: number): void {
    this.bytes += byteLength;
    if (text === "") return;
    this.buffer += text;
    if (this.buffer.length > PROCESS_BUFFER_CHARS) {
      // Drop whole lines where we can, so a read never starts mid-line.
      let cut = this.buffer.length - PROCESS_BUFFER_CHARS;
      const nl = this.buffer.indexOf("\n", cut);
      if (nl !== -1 && nl - cut < 4096) cut = nl + 1;
      this.buffer = this.buffer.slice(cut);
      this.bufferStart += cut;
    }
    this.wake();
  }

  wake(): void {
    for (const w of this.waiters) w();
  }

  /** Resolves on the next output or state change. */
  changed(): { promise: Promise<void>; cancel(): void } {
    let fn!: () => void;
    const promise = new Promise<void>((resolve) => {
      fn = () => {
        this.waiters.delete(fn);
        resolve();
      };
      this.waiters.add(fn);
    });
    return { promise, cancel: () => fn() };
  }

  info(): ProcessInfo {
    return {
      id: this.id,
      name: this.name,
      pid: this.pid,
      command: this.command,
      cwd: this.cwd,
      state: this.state,
      exitCode: this.exitCode,
      signal: this.signal,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      uptimeMs: (this.endedAt ?? Date.now()) - this.startedAt,
      bytes: this.bytes,
    };
  }

  label(): string {
    return this.name ? `${this.name} (${this.id})` : this.id;
  }
}

export class ProcessRegistry {
  private readonly procs = new Map<string, ManagedProcess>();
  /** Groups of bash commands in flight: not listed, but stopped with everything else. */
  private readonly transient = new Set<number>();
  private notices: string[] = [];
  private seq = 0;

  /** `env` is added to every process's environment: the session's mark, which finds them after a crash. */
  constructor(private readonly env: Record<string, string> = {}) {}

  /** The session's mark, for bash commands to carry too (see marked-processes.ts). */
  get mark(): Readonly<Record<string, string>> {
    return this.env;
  }

  /** `confine`: the sandbox the process runs in (absent or answering null: none). */
  start(opts: { command: string; cwd: string; name?: string; confine?: CommandConfinement }): ProcessInfo {
    if (opts.name !== undefined) {
      if (!/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/.test(opts.name)) {
        throw new Error(`invalid process name "${opts.name}": use letters, digits, "-", "_" or "." (at most 64)`);
      }
      const clash = this.find(opts.name);
      if (clash && clash.state === "running") {
        throw new Error(`a process named "${opts.name}" is already running (${clash.id}); stop it first or pick another name`);
      }
      if (/^p\d+$/.test(opts.name)) throw new Error(`"${opts.name}" looks like a process id; pick another name`);
    }
    const id = `p${++this.seq}`;
    const text = new TerminalText();
    const decoder = new TextDecoder();
    // Terminal output is delivered from the event loop, never during spawnPtyGroup: `proc` is set by then.
    let proc!: ManagedProcess;
    const answer = (column: number) => {
      try {
        g.write(`\x1b[1;${column}R`);
      } catch {
        // the terminal closed while the program asked
      }
    };
    const onData = (chunk: Uint8Array) => proc.append(text.push(decoder.decode(chunk, { stream: true }), answer), chunk.length);
    const confined = opts.confine?.wrap(["bash", "-c", opts.command], { cwd: opts.cwd, pty: true, line: opts.command }) ?? null;
    const env = confined ? terminalEnv({ ...this.env, ...confined.env }) : terminalEnv(this.env);
    const g = spawnPtyGroup(opts.command, { cwd: opts.cwd, env, onData, ...(confined ? { wrap: () => confined.argv, fds: confined.fds } : {}) });
    proc = new ManagedProcess(id, opts.name ?? null, g.pid, opts.command, opts.cwd, (data) => g.write(data), g.exited);
    void g.exited.then(({ code, signal }) => {
      proc.append(text.push(decoder.decode()), 0);
      text.end();
      proc.state = "exited";
      proc.exitCode = code;
      proc.signal = signal;
      proc.endedAt = Date.now();
      // The leader is gone; anything it left in the group would be an orphan.
      signalGroup(proc.pid, "SIGKILL");
      const blocked = confined?.finish(proc.buffer.slice(-65_536)) ?? [];
      if (!proc.stoppedByUs) {
        const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
        this.notices.push(`process ${proc.label()} ${how} (process read id=${proc.id} shows its last output)${blocked.length ? `; ${blocked.join("; ")}` : ""}`);
      }
      proc.wake();
    });
    this.procs.set(id, proc);
    return proc.info();
  }

  /** A process by id, or by name (the most recent one with that name). */
  private find(idOrName: string): ManagedProcess | undefined {
    const byId = this.procs.get(idOrName);
    if (byId) return byId;
    let found: ManagedProcess | undefined;
    for (const p of this.procs.values()) if (p.name === idOrName) found = p;
    return found;
  }

  private require(idOrName: string): ManagedProcess {
    const p = this.find(idOrName);
    if (!p) {
      const known = [...this.procs.values()].map((q) => q.label());
      throw new Error(`no process "${idOrName}"${known.length ? `; known: ${known.join(", ")}` : "; start one with action=start"}`);
    }
    return p;
  }

  get(idOrName: string): ProcessInfo | undefined {
    return this.find(idOrName)?.info();
  }

  list(): ProcessInfo[] {
    return [...this.procs.values()].map((p) => p.info());
  }

  async read(idOrName: string, opts: ReadOptions = {}): Promise<ReadResult> {
    const p = this.require(idOrName);
    let matched: boolean | null = null;
    let timedOut = false;
    const from = opts.since ?? p.cursor;
    if (opts.waitFor) {
      const re = opts.waitFor;
      const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
      // Checked as the model will read it (redraws collapsed); a flood is re-read only near its end.
      let checked = from;
      for (;;) {
        const at = scanStart(p, from, checked);
        checked = p.end;
        if (await re.test(collapseRedraws(p.buffer.slice(at - p.bufferStart)), opts.signal)) {
          matched = true;
          break;
        }
        // The check is asynchronous: output that arrived while it ran (perhaps with the exit) is
        // checked before anything waits for a change that already happened.
        if (p.end > checked && !opts.signal?.aborted && Date.now() < deadline) continue;
        if (p.state === "exited" || opts.signal?.aborted) {
          matched = false;
          break;
        }
        const left = deadline - Date.now();
        if (left <= 0) {
          matched = false;
          timedOut = true;
          break;
        }
        const ch = p.changed();
        const timer = setTimeout(ch.cancel, left);
        const onAbort = () => ch.cancel();
        opts.signal?.addEventListener("abort", onAbort, { once: true });
        await ch.promise;
        clearTimeout(timer);
        opts.signal?.removeEventListener("abort", onAbort);
      }
    }
    const start = Math.max(from, p.bufferStart);
    const dropped = start - from;
    let text = p.buffer.slice(start - p.bufferStart);
    if (opts.tail !== undefined) {
      const lines = text.split("\n");
      if (lines[lines.length - 1] === "") lines.pop();
      text = lines.slice(-opts.tail).join("\n") + (lines.length ? "\n" : "");
    }
    p.cursor = p.end;
    return { text, offset: p.end, dropped: Math.max(0, dropped), matched, timedOut, info: p.info() };
  }

  /** Keystrokes for the process's terminal: `text` as typed (see `typed`), then the named keys. */
  write(idOrName: string, text: string, keys: readonly KeyName[] = []): void {
    const p = this.require(idOrName);
    if (p.state !== "running" || !p.input) throw new Error(`process ${p.label()} is not running; nothing reads its input`);
    try {
      p.input(typed(text) + keys.map((k) => KEYS[k]).join(""));
    } catch {
      throw new Error(`process ${p.label()} is exiting; its terminal is closed`);
    }
  }

  /** TERM (or `signal`) to the whole group, then KILL after the grace period. */
  async stop(idOrName: string, signal: NodeJS.Signals = "SIGTERM", graceMs = STOP_GRACE_MS): Promise<ProcessInfo> {
    const p = this.require(idOrName);
    if (p.state === "running") {
      p.stoppedByUs = true;
      await stopGroup(p.pid, p.exited, signal, graceMs);
    }
    return p.info();
  }

  /** Register a bash command's group so stopAll() reaches it; call the returned function when it ended. */
  track(pgid: number): () => void {
    this.transient.add(pgid);
    return () => this.transient.delete(pgid);
  }

  /** Drain "process X exited" lines for the model's next turn. */
  takeExitNotices(): string[] {
    const out = this.notices;
    this.notices = [];
    return out;
  }

  /**
   * Stop everything: TERM to every group now (synchronously, so a signal handler that exits right
   * after still delivered them), KILL to whatever is left after the grace period.
   */
  async stopAll(graceMs = 1000): Promise<void> {
    const running = [...this.procs.values()].filter((p) => p.state === "running");
    for (const p of running) p.stoppedByUs = true;
    await Promise.all([
      ...running.map((p) => stopGroup(p.pid, p.exited, "SIGTERM", graceMs)),
      ...[...this.transient].map((pgid) => stopGroup(pgid, null, "SIGTERM", graceMs)),
    ]);
  }

  /** For process.on("exit"), where nothing asynchronous runs any more. */
  killAllSync(): void {
    for (const p of this.procs.values()) {
      if (p.state === "running") {
        p.stoppedByUs = true;
        signalGroup(p.pid, "SIGKILL");
      }
    }
    for (const pgid of this.transient) signalGroup(pgid, "SIGKILL");
  }
}

/** Where a wait_for check starts: `from` at first, later only the last few KB (from a line start). */
function scanStart(p: ManagedProcess, from: number, checked: number): number {
  const floor = Math.max(from, p.bufferStart);
  const at = Math.max(floor, checked - WAIT_OVERLAP);
  if (at === floor) return floor;
  return Math.max(floor, p.buffer.lastIndexOf("\n", at - p.bufferStart - 1) + 1 + p.bufferStart);
}

/**
 * Signal the group, wait for the leader (or the group) to go, KILL if it outlives the grace.
 * The signal is sent before the first await so callers on their way out still reach it.
 */
export async function stopGroup(pgid: number, leaderExited: Promise<unknown> | null, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (!signalGroup(pgid, signal)) return;
  const wait = (p: Promise<unknown>, ms: number) => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([p, new Promise((r) => (timer = setTimeout(r, ms)))]).finally(() => clearTimeout(timer));
  };
  if (leaderExited) await wait(leaderExited, graceMs);
  // Other members normally die with the leader. Those that do not get a short moment, then KILL.
  // (A killed member can stay a zombie when no init reaps orphans, so "alive" is not awaited long.)
  const deadline = Date.now() + (leaderExited ? 100 : graceMs);
  while (groupAlive(pgid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  signalGroup(pgid, "SIGKILL");
  if (leaderExited) await wait(leaderExited, 1000);
}
