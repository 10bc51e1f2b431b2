// One writer per session. The lock is a file beside the log holding the owner's pid and host, and
// (on Linux) the boot, the process's start time and its command line: a lock whose process is gone
// (kill -9, power cut), or whose pid now belongs to some other process (after a reboot or a pid
// wrap-around), is stale and taken over.
import { closeSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { LIMITS, readRegularText } from "../workspace/safe-read.ts";
import { hostname } from "node:os";
import { lockPathOf, sessionIdOf } from "./paths.ts";
import { PRIVATE_FILE_MODE } from "../platform/private-files.ts";

type LockOwner = {
  pid: number;
  host: string;
  since: number;
  /** /proc/sys/kernel/random/boot_id: a pid from another boot is another process. */
  boot?: string;
  /** Field 22 of /proc/<pid>/stat (clock ticks after boot): a reused pid starts at another time. */
  start?: string;
  /** /proc/<pid>/cmdline, NUL-separated. */
  cmd?: string;
};

const readProc = (path: string): string | null => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

/** What identifies a running process beyond its pid; null where /proc is not there (macOS). */
export function processIdentity(pid: number | "self"): { boot: string; start: string; cmd: string } | null {
  const stat = readProc(`/proc/${pid}/stat`);
  const boot = readProc("/proc/sys/kernel/random/boot_id");
  const cmd = readProc(`/proc/${pid}/cmdline`);
  if (stat === null || boot === null || cmd === null) return null;
  // The command name (field 2) may hold spaces and parentheses: count from the last ")".
  const start = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  return start ? { boot: boot.trim(), start, cmd } : null;
}

export class SessionLockedError extends Error {
  constructor(
    readonly logPath: string,
    readonly owner: LockOwner,
  ) {
    const id = sessionIdOf(logPath);
    const where = owner.host === hostname() ? `process ${owner.pid}` : `process ${owner.pid} on ${owner.host}`;
    super(
      `Session ${id} is already open in another KHAELOR (${where}). Close that one first, or use --fork-session to continue this conversation in a new session.` +
        ` If no KHAELOR has it open${owner.host === hostname() ? "" : " (that machine is gone)"}, delete ${lockPathOf(logPath)}.`,
    );
    this.name = "SessionLockedError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The lock's process is still the KHAELOR that wrote it (same boot, start time and command line). */
function holds(owner: LockOwner): boolean {
  if (!isAlive(owner.pid)) return false;
  const now = processIdentity(owner.pid);
  if (!now) return true; // no /proc here: the pid is all we have
  // A lock from before identities were recorded: a pid that is not some KHAELOR was reused.
  if (owner.start === undefined) return /khaelor|main\.ts/i.test(now.cmd);
  return now.boot === owner.boot && now.start === owner.start && now.cmd === owner.cmd;
}

function readOwner(lockPath: string): LockOwner | null {
  try {
    const o = JSON.parse(readRegularText(lockPath, LIMITS.sessionMeta)) as Partial<LockOwner>;
    if (typeof o.pid === "number" && typeof o.host === "string")
      return {
        pid: o.pid,
        host: o.host,
        since: Number(o.since) || 0,
        ...(typeof o.boot === "string" ? { boot: o.boot } : {}),
        ...(typeof o.start === "string" ? { start: o.start } : {}),
        ...(typeof o.cmd === "string" ? { cmd: o.cmd } : {}),
      };
  } catch {
    // Missing or unreadable: the caller decides.
  }
  return null;
}

/** A lock file that is empty or garbage: a writer died between creating and filling it, unless that happened just now. */
const UNREADABLE_GRACE_MS = 2000;

function isStale(lockPath: string, owner: LockOwner | null): boolean {
  if (owner) return owner.host === hostname() && !holds(owner);
  try {
    return Date.now() - statSync(lockPath).mtimeMs > UNREADABLE_GRACE_MS;
  } catch {
    return true;
  }
}

export type SessionLock = { release(): void; /** A lock left by a process that died was taken over: that session crashed. */ recoveredStale: boolean };

/** Takes the writer lock of a session log. Throws SessionLockedError if a live process holds it. */
export function acquireSessionLock(logPath: string): SessionLock {
  const lockPath = lockPathOf(logPath);
  const mine: LockOwner = { pid: process.pid, host: hostname(), since: Date.now(), ...(processIdentity("self") ?? {}) };
  let recoveredStale = false;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(lockPath, "wx", PRIVATE_FILE_MODE);
      try {
        const buf = Buffer.from(JSON.stringify(mine));
        let off = 0;
        while (off < buf.length) off += writeSync(fd, buf, off, buf.length - off);
      } catch (e) {
        // A full disk: an empty lock would block the next start for no one; leave none.
        closeSync(fd);
        try {
          unlinkSync(lockPath);
        } catch {}
        throw e;
      }
      closeSync(fd);
      return { release: () => releaseIfMine(lockPath, mine), recoveredStale };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
    const owner = readOwner(lockPath);
    if (!isStale(lockPath, owner)) throw new SessionLockedError(logPath, owner ?? { pid: 0, host: "unknown", since: 0 });
    // Move the stale lock aside rather than deleting it: if another KHAELOR took it over in the
    // meantime, we notice (the moved file is not the stale one) and put it back.
    const aside = `${lockPath}.stale-${process.pid}-${attempt}`;
    try {
      renameSync(lockPath, aside);
    } catch {
      continue;
    }
    const moved = readOwner(aside);
    if (owner && moved && (moved.pid !== owner.pid || moved.since !== owner.since)) {
      try {
        renameSync(aside, lockPath);
      } catch {
        // It was recreated again; leave theirs alone.
      }
      continue;
    }
    recoveredStale = true;
    try {
      unlinkSync(aside);
    } catch {
      // Already gone.
    }
  }
  const owner = readOwner(lockPath);
  throw new SessionLockedError(logPath, owner ?? { pid: 0, host: "unknown", since: 0 });
}

function releaseIfMine(lockPath: string, mine: LockOwner): void {
  const owner = readOwner(lockPath);
  if (owner && owner.pid === mine.pid && owner.since === mine.since && owner.host === mine.host) {
    try {
      unlinkSync(lockPath);
    } catch {
      // Already gone.
    }
  }
}
