// The one way KHAELOR opens a file for its content: the read tool, settings, instruction files,
// session files, whatever a rule or a tool names. A repository can hold a FIFO (an open() that never
// returns, freezing the event loop and every signal handler with it), a link to /dev/zero (a read
// that never ends) or a file of many gigabytes; each must give a clear error instead. So: the path
// must name a regular file (after links), it is opened non-blocking, the open file is checked again
// (the path may have been swapped in between), and no more than the cap is ever read.
import { closeSync, constants, fstatSync, openSync, readSync, statSync, type Stats } from "node:fs";

export class FileReadError extends Error {
  constructor(
    readonly path: string,
    /** ENOENT, EACCES… as fs gives them; ENOTREG for a special file, EFBIG over the cap. */
    readonly code: string,
    /** Why, without the path: "it is a FIFO (named pipe), not a regular file". */
    readonly reason: string,
  ) {
    super(`cannot read ${path}: ${reason}`);
    this.name = "FileReadError";
  }
}

export type ReadLimits = {
  maxBytes: number;
  /** Over the cap, keep the first maxBytes (and say so) instead of failing. */
  truncate?: boolean;
};

export type ReadBytes = { bytes: Buffer; stat: Stats; truncated: boolean };

/** What a path is, in words, for an error message: "a FIFO (named pipe)", "a directory". */
export function fileKind(st: Stats): string {
  if (st.isFile()) return "a regular file";
  if (st.isDirectory()) return "a directory";
  if (st.isFIFO()) return "a FIFO (named pipe)";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  return "not a regular file";
}

const notRegular = (path: string, st: Stats) =>
  new FileReadError(path, "ENOTREG", `it is ${fileKind(st)}, not a regular file`);

const tooLarge = (path: string, size: number, max: number) =>
  new FileReadError(path, "EFBIG", `it is ${formatBytes(size)}, over the ${formatBytes(max)} limit for this file`);

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  if (n < 1024 ** 3) return `${(n / 1024 ** 2).toFixed(n < 10 * 1024 ** 2 ? 1 : 0)} MB`;
  return `${(n / 1024 ** 3).toFixed(1)} GB`;
}

function fsError(path: string, e: unknown): FileReadError {
  if (e instanceof FileReadError) return e;
  const err = e as NodeJS.ErrnoException;
  const code = err.code ?? "EIO";
  const why =
    code === "ENOENT" || code === "ENOTDIR" ? "it does not exist" : code === "EACCES" || code === "EPERM" ? "permission denied" : code === "ELOOP" ? "it is a loop of symbolic links" : (err.message ?? String(e));
  return new FileReadError(path, code, why);
}

/** The file's bytes, checked as above. Throws FileReadError (with an fs code or ENOTREG / EFBIG). */
export function readRegularFile(path: string, limits: ReadLimits): ReadBytes {
  let fd: number;
  try {
    // Refuse before opening: opening some devices has effects of its own.
    const before = statSync(path);
    if (!before.isFile()) throw notRegular(path, before);
    if (before.size > limits.maxBytes && !limits.truncate) throw tooLarge(path, before.size, limits.maxBytes);
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    throw fsError(path, e);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw notRegular(path, stat);
    if (stat.size > limits.maxBytes && !limits.truncate) throw tooLarge(path, stat.size, limits.maxBytes);
    // Read to the end, never past cap + 1: files under /proc say size 0, and a file may grow.
    const cap = limits.maxBytes + 1;
    let buf = Buffer.allocUnsafe(Math.min(cap, Math.max(stat.size + 1, 4096)));
    let len = 0;
    for (;;) {
      if (len === buf.length) {
        if (buf.length >= cap) break;
        const bigger = Buffer.allocUnsafe(Math.min(cap, buf.length * 2));
        buf.copy(bigger, 0, 0, len);
        buf = bigger;
      }
      const n = readSync(fd, buf, len, buf.length - len, null);
      if (n === 0) break;
      len += n;
    }
    if (len > limits.maxBytes) {
      if (!limits.truncate) throw tooLarge(path, Math.max(len, stat.size), limits.maxBytes);
      return { bytes: buf.subarray(0, limits.maxBytes), stat, truncated: true };
    }
    return { bytes: len === buf.length ? buf : Buffer.from(buf.subarray(0, len)), stat, truncated: false };
  } catch (e) {
    throw fsError(path, e);
  } finally {
    closeSync(fd);
  }
}

/** The file as UTF-8 text, a leading byte-order mark dropped (settings and notes, not edited files). */
export function readRegularText(path: string, maxBytes: number): string {
  return stripBom(readRegularFile(path, { maxBytes }).bytes.toString("utf8"));
}

/** As readRegularText, but a missing file is null; every other problem still throws. */
export function readTextIfExists(path: string, maxBytes: number): string | null {
  try {
    return readRegularText(path, maxBytes);
  } catch (e) {
    if (e instanceof FileReadError && (e.code === "ENOENT" || e.code === "ENOTDIR")) return null;
    throw e;
  }
}

export const stripBom = (s: string): string => (s.charCodeAt(0) === 0xfeff ? s.slice(1) : s);

/** Caps by kind of file: generous for what users write, never unbounded. */
export const LIMITS = {
  /** A file the model reads or edits, loaded whole (the read tool has a lower cap for whole reads). */
  workFile: 256 * 1024 * 1024,
  settings: 4 * 1024 * 1024,
  /** .gitignore-like lists, git's small files, package.json. */
  smallConfig: 4 * 1024 * 1024,
  /** Streamed line by line (src/session/log.ts), so a long session's 1.2 GB log still resumes. */
  sessionLog: 4 * 1024 * 1024 * 1024,
  sessionMeta: 1024 * 1024,
  history: 64 * 1024 * 1024,
} as const;
