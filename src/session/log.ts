// The session log: one JSON line per durable event, appended with one write() each. The writer
// fsyncs at loop boundaries (a user message, each tool result, the end of a turn, a compaction), so
// a power cut loses at most the in-flight model turn; kill -9 loses nothing that was written.
import { closeSync, constants, fstatSync, fsyncSync, ftruncateSync, openSync, readSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from "node:fs";
import { fileKind, formatBytes, LIMITS } from "../workspace/safe-read.ts";
import type { DurableEvent } from "../events/types.ts";
import { FORMAT_VERSION, NewerFormatError, parseEventLine, serializeEvent } from "../events/schema.ts";
import { fsReason } from "../workspace/fs-errors.ts";
import { UNREADABLE_RESULT } from "./view.ts";
import { metaPathOf, sessionIdOf } from "./paths.ts";
import { createRedactor, type Redactor } from "./redact.ts";
import { createSummaryBuilder, type SessionSummary, type SummaryBuilder } from "./summary.ts";
import { PRIVATE_FILE_MODE } from "../platform/private-files.ts";
import { imagesDirOf, imageStoreReader, imageStoreWriter } from "./image-store.ts";

export interface SessionWriter {
  readonly path: string;
  readonly sessionId: string;
  /** One write per event. Secrets are redacted first. Syncs by itself at loop boundaries. */
  append(e: DurableEvent): void;
  /** fsync the log now. */
  sync(): void;
  /**
   * After a failed write every later event waits in memory (writing them past the gap would make
   * a log that lies). This writes them now, in order: true when the log is whole again.
   */
  retry(): boolean;
  /** Forgets the events waiting after a failure (the turn they belong to is given up); the failure stays until retry(). */
  discardPending(): void;
  /** The failure that has events waiting, or null when everything appended is on disk. */
  readonly failure: SessionWriteError | null;
  /** Syncs, writes the summary cache, releases the lock. Idempotent. */
  close(): void;
  summary(): SessionSummary;
}

/** Event types after which the log is fsynced: the boundaries a resume restarts from. */
const SYNC_AFTER = new Set<DurableEvent["type"]>(["session_header", "user_message", "tool_result", "turn_end", "compaction", "interruption"]);

export type WriterOptions = {
  /** Events already in the log (to seed the summary); read from disk when omitted. */
  existing?: DurableEvent[];
  redact?: Redactor;
  /** A failed write (disk full, I/O error). Without it, append throws. The log stays readable either way. */
  onError?: (e: SessionWriteError) => void;
  release?: () => void;
};

export class SessionWriteError extends Error {
  constructor(
    readonly path: string,
    override readonly cause: unknown,
    /** The last event that is on disk: everything up to it is safe, nothing after it was saved. */
    readonly lastSaved: DurableEvent | null = null,
  ) {
    super(`${fsReason(cause)}; nothing after ${describeSaved(lastSaved)} was saved to the session log ${path}`);
    this.name = "SessionWriteError";
  }
}

const clock = (ts: number) => new Date(ts).toTimeString().slice(0, 8);
const quote = (text: string) => {
  const line = text.trim().replace(/\s+/g, " ");
  return `"${line.length > 40 ? `${line.slice(0, 39)}…` : line}"`;
};

/** The last saved event, as a user would recognise it: `your message "fix the test" (14:02:11)`. */
export function describeSaved(e: DurableEvent | null): string {
  if (!e) return "the start of the session";
  switch (e.type) {
    case "session_header":
      return `the start of the session (${clock(e.ts)})`;
    case "user_message": {
      const text = typeof e.content === "string" ? e.content : e.content.map((b) => (b.type === "text" ? b.text : "")).join(" ");
      return e.synthetic || e.steering ? `a note to the model (${clock(e.ts)})` : `your message ${quote(text)} (${clock(e.ts)})`;
    }
    case "assistant_message":
      return `the model's reply of ${clock(e.ts)}`;
    case "tool_result":
      return `the result of ${e.name} (${clock(e.ts)})`;
    case "turn_end":
      return `the end of the turn at ${clock(e.ts)}`;
    default:
      return `the ${e.type.replace(/_/g, " ")} of ${clock(e.ts)}`;
  }
}

/** Lock already held by the caller; `fd` opened for append. */
export function createWriter(path: string, fd: number, opts: WriterOptions = {}): SessionWriter {
  const redact = opts.redact ?? createRedactor();
  const storeImage = imageStoreWriter(imagesDirOf(path));
  const builder: SummaryBuilder = createSummaryBuilder(sessionIdOf(path));
  for (const e of opts.existing ?? []) builder.add(e);
  let size = fstatSync(fd).size;
  // A failed write may have left part of a line that could not be cut off; the next one starts on a fresh line.
  let torn = false;
  let closed = false;
  let dirtyMeta = false;
  let lastSaved: DurableEvent | null = opts.existing?.at(-1) ?? null;
  let failure: SessionWriteError | null = null;
  const pending: DurableEvent[] = [];

  const fail = (cause: unknown) => {
    const err = new SessionWriteError(path, cause, lastSaved);
    failure ??= err;
    if (opts.onError) opts.onError(err);
    else throw err;
  };

  const writeMeta = () => {
    if (!dirtyMeta) return;
    // Derived data: a temp file and a rename (never a half-written cache), no fsync.
    const meta = metaPathOf(path);
    try {
      // The log's mtime too: an edit that keeps the size (another program, a newer KHAELOR) shows.
      const mtimeMs = fstatSync(fd).mtimeMs;
      // Redacted as the log is: the title is the first prompt, which may hold a pasted key.
      writeFileSync(`${meta}.tmp`, redact(JSON.stringify({ ...builder.result(), size, mtimeMs, formatVersion: FORMAT_VERSION })), { mode: PRIVATE_FILE_MODE });
      renameSync(`${meta}.tmp`, meta);
      dirtyMeta = false;
    } catch {
      // The cache is optional: a listing rescans the log. An empty temp file is not left behind.
      try {
        unlinkSync(`${meta}.tmp`);
      } catch {}
    }
  };

  /** One event to disk; on failure the log is cut back to where it was, so no torn line stays. */
  const write = (e: DurableEvent): unknown => {
    let line: string;
    try {
      // Images go to their files first (a full disk fails here, before any byte of the line).
      line = (torn ? "\n" : "") + redact(serializeEvent(e, storeImage)) + "\n";
    } catch (cause) {
      return cause;
    }
    const buf = Buffer.from(line, "utf8");
    let written = 0;
    try {
      while (written < buf.length) written += writeSync(fd, buf, written, buf.length - written);
      torn = false;
    } catch (cause) {
      if (written > 0) {
        try {
          ftruncateSync(fd, size);
        } catch {
          size += written;
          torn = true;
        }
      }
      return cause;
    }
    size += written;
    builder.add(e);
    lastSaved = e;
    dirtyMeta = true;
    return null;
  };

  const writer: SessionWriter = {
    path,
    sessionId: sessionIdOf(path),
    get failure() {
      return failure;
    },
    append(e) {
      if (closed) throw new Error(`session log ${path} is closed; this event was not written: ${e.type}`);
      if (failure) {
        pending.push(e);
        return;
      }
      const cause = write(e);
      if (cause) {
        pending.push(e);
        fail(cause);
        return;
      }
      if (SYNC_AFTER.has(e.type)) writer.sync();
      if (e.type === "turn_end") writeMeta();
    },
    discardPending() {
      pending.length = 0;
    },
    retry() {
      if (closed) return false;
      while (pending.length > 0) {
        const cause = write(pending[0]!);
        if (cause) {
          failure = new SessionWriteError(path, cause, lastSaved);
          return false;
        }
        pending.shift();
      }
      failure = null;
      writer.sync();
      writeMeta();
      return failure === null;
    },
    sync() {
      if (closed) return;
      try {
        fsyncSync(fd);
      } catch (cause) {
        fail(cause);
      }
    },
    close() {
      if (closed) return;
      if (!failure) writer.sync();
      writeMeta();
      closed = true;
      closeSync(fd);
      openWriters.delete(writer);
      opts.release?.();
    },
    summary: () => ({ ...builder.result(), path }),
  };
  openWriters.add(writer);
  ensureExitHook();
  return writer;
}

// A process that exits without closing its writers (an uncaught error, process.exit) still
// releases its locks and leaves an up-to-date summary.
const openWriters = new Set<SessionWriter>();
let exitHooked = false;
function ensureExitHook() {
  if (exitHooked) return;
  exitHooked = true;
  process.on("exit", () => {
    for (const w of [...openWriters]) {
      try {
        w.close();
      } catch {
        // Best effort at exit.
      }
    }
  });
}

export type LogWarning = { line: number; message: string };
export type SessionLog = {
  events: DurableEvent[];
  warnings: LogWarning[];
  /** The log ends in a partial line (a crash mid-write). */
  tornTail: boolean;
  /**
   * The bytes after the last newline, when there are any: `keep` is a complete event whose newline
   * never made it (with any NUL or blank padding cut off), `junk` what does not parse.
   */
  tail?: { keep: string; junk: string };
  /** tool_use ids named by lines that could not be read: their results exist but are lost to corruption. */
  unreadableResults: string[];
  /** With `upTo: "newer"`: where a line of a newer format stopped the reading (the events before it are read). */
  newer?: NewerFormatError & { line: number };
};

/** A log (or a line of it) a newer KHAELOR wrote: reading on would drop what this version cannot understand. */
export class NewerSessionError extends Error {
  constructor(
    readonly path: string,
    override readonly cause: NewerFormatError,
  ) {
    super(`Session ${sessionIdOf(path)} was ${cause.message}. Nothing was written to it, and no other session was continued in its place.`);
    this.name = "NewerSessionError";
  }
}

/**
 * Reads a session log. A torn last line (a crash mid-write) is ignored and reported; a corrupt line
 * elsewhere is skipped with a warning. Neither stops a resume. Throws NewerSessionError if a newer
 * KHAELOR wrote any of it (or the file's own error if it cannot be read).
 */
export function readSessionLog(path: string): SessionLog {
  try {
    return streamSessionLog(path);
  } catch (e) {
    if (e instanceof NewerFormatError) throw new NewerSessionError(path, e);
    throw e;
  }
}

type ParseOptions = {
  upTo?: "newer";
  /** The folder of the log's stored images; without it an image reads as the text "[image]" (a listing). */
  imagesDir?: string;
  /** Each event as it is read; with `keep: false` the events are not collected (a listing needs only a summary). */
  onEvent?: (e: DurableEvent) => void;
  keep?: boolean;
};

/** One log, line by line: the same reading for a string and for a file streamed in chunks. */
function createLogParser(opts: ParseOptions) {
  const events: DurableEvent[] = [];
  const warnings: LogWarning[] = [];
  const unreadableResults: string[] = [];
  let headerVersion: number | undefined;
  let tornTail = false;
  let tail: SessionLog["tail"];
  let lastTs = 0;
  let newer: SessionLog["newer"];
  const images = opts.imagesDir !== undefined ? imageStoreReader(opts.imagesDir) : undefined;
  const add = (e: DurableEvent) => {
    lastTs = e.ts;
    opts.onEvent?.(e);
    if (opts.keep !== false) events.push(e);
  };
  return {
    /** False once a newer format stopped the reading. `isTail`: the bytes after the last newline. */
    line(raw: string, lineNo: number, isTail: boolean): boolean {
      // A power cut can leave NULs (or blanks) after the last write: they pad, they are not part of it.
      const line = isTail ? raw.replace(/[\0\s]+$/, "") : raw;
      if (line.trim() === "") {
        if (isTail) tail = { keep: "", junk: raw };
        return true;
      }
      try {
        const e = parseEventLine(line, headerVersion, images);
        if (e.type === "session_header" && headerVersion === undefined) headerVersion = e.formatVersion;
        add(e);
        if (isTail) tail = { keep: line, junk: raw.slice(line.length) };
      } catch (err) {
        if (err instanceof NewerFormatError) {
          if (opts.upTo !== "newer") throw err;
          newer = Object.assign(err, { line: lineNo });
          return false;
        }
        const why = (err as Error).message;
        // A tool result that cannot be read still happened: the call ran. Saying "interrupted" (as
        // for a call that never answered) would invite the model to run it again.
        const named = /"toolUseId"\s*:\s*"([^"]+)"/.exec(line)?.[1];
        if (named && /"type"\s*:\s*"tool_result"/.test(line)) {
          unreadableResults.push(named);
          add({
            type: "tool_result",
            id: `unreadable-line-${lineNo}`,
            ts: lastTs,
            toolUseId: named,
            name: /"name"\s*:\s*"([^"]+)"/.exec(line)?.[1] ?? "unknown",
            content: UNREADABLE_RESULT,
            isError: true,
            kind: "error",
            summary: "result unreadable in the session log",
            durationMs: 0,
          });
        }
        if (isTail) {
          tornTail = true;
          tail = { keep: "", junk: raw };
          warnings.push({ line: lineNo, message: `line ${lineNo}: the last line is incomplete (KHAELOR stopped mid-write); ignored` });
        } else warnings.push({ line: lineNo, message: `line ${lineNo}: skipped, ${why}` });
      }
      return true;
    },
    result(): SessionLog {
      return { events, warnings, tornTail, unreadableResults, ...(tail ? { tail } : {}), ...(newer ? { newer } : {}) };
    },
  };
}

/** `upTo: "newer"` stops at the first line of a newer format and reports it instead of throwing (for listings). */
export function parseSessionLog(text: string, opts: ParseOptions = {}): SessionLog {
  const parser = createLogParser(opts);
  const lines = text.split("\n");
  const endsClean = text.length === 0 || text.endsWith("\n");
  // split() leaves "" after a final newline.
  const last = endsClean ? lines.length - 1 : lines.length;
  for (let i = 0; i < last; i++) if (!parser.line(lines[i]!, i + 1, !endsClean && i === lines.length - 1)) break;
  return parser.result();
}

const CHUNK_BYTES = 4 * 1024 * 1024;

/**
 * The same as parseSessionLog(readFileSync(path)), streamed: the file is read in chunks and only
 * one line's text is alive at a time, so a 1 GB log does not cost its size three times over (the
 * whole text, its lines, the events) before the events are even built.
 */
export function streamSessionLog(path: string, opts: ParseOptions = {}): SessionLog & { size: number } {
  // Events kept are a session to continue: their images are read back; a listing's are not.
  const parser = createLogParser(opts.keep === false ? opts : { imagesDir: imagesDirOf(path), ...opts });
  // Only a regular file is read, opened so a FIFO cannot block us; never past the cap.
  const before = statSync(path);
  if (!before.isFile()) throw new Error(`cannot read ${path}: it is ${fileKind(before)}, not a regular file`);
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  let size = 0;
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`cannot read ${path}: it is ${fileKind(st)}, not a regular file`);
    if (st.size > LIMITS.sessionLog) throw new Error(`cannot read ${path}: it is ${formatBytes(st.size)}, over the ${formatBytes(LIMITS.sessionLog)} limit for a session log`);
    const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
    let carry: Buffer = Buffer.alloc(0);
    let lineNo = 0;
    let going = true;
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (n === 0) break;
      size += n;
      const buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl !== -1 && going; nl = buf.indexOf(10, start)) {
        going = parser.line(buf.toString("utf8", start, nl), ++lineNo, false);
        start = nl + 1;
      }
      if (!going) break;
      // The partial line waits for the next chunk (copied: the chunk buffer is reused).
      carry = Buffer.from(buf.subarray(start));
    }
    if (going && carry.length > 0) parser.line(carry.toString("utf8"), ++lineNo, true);
  } finally {
    closeSync(fd);
  }
  return { ...parser.result(), size };
}
