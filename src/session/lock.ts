// One writer per session. The lock is a file beside the log holding the owner's pid and host; a
// lock whose process is gone (kill -9, power cut) is stale and taken over.
import { readRegularText, LIMITS } from "../workspace/safe-read.ts";
import { closeSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { lockPathOf, sessionIdOf } from "./paths.ts";

type LockOwner = { pid: number; host: string; since: number };

export class SessionLockedError extends Error {
  constructor(
    readonly logPath: string,
    readonly owner: LockOwner,
  ) {
    const id = sessionIdOf(logPath);
    const where = owner.host === hostname() ? `process ${owner.pid}` : `process ${owner.pid} on ${owner.host}`;
    super(
      `Session ${id} is already open in another KHAELOR (${where}). Close that one first, or use --fork-session to continue this conversation in a new session.` +
        (owner.host === hostname() ? "" : ` If that machine is gone, delete ${lockPathOf(logPath)}.`),
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

function readOwner(lockPath: string): LockOwner | null {
  try {
    const o = JSON.parse(readRegularText(lockPath, LIMITS.sessionMeta)) as Partial<LockOwner>;
    if (typeof o.pid === "number" && typeof o.host === "string") return { pid: o.pid, host: o.host, since: Number(o.since) || 0 };
  } catch {
    // Missing or unreadable: the caller decides.
  }
  return null;
}

/** A lock file that is empty or garbage: a writer died between creating and filling it, unless that happened just now. */
const UNREADABLE_GRACE_MS = 2000;

function isStale(lockPath: string, owner: LockOwner | null): boolean {
  if (owner) return owner.host === hostname() && !isAlive(owner.pid);
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
  const mine: LockOwner = { pid: process.pid, host: hostname(), since: Date.now() };
  let recoveredStale = false;
  for (let attempt = 0; attempt < 5; attempt++) {
    try {
      const fd = openSync(lockPath, "wx");
      try {
        writeSync(fd, JSON.stringify(mine));
      } finally {
        closeSync(fd);
      }
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
