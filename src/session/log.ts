// The session log: one JSON line per durable event, appended with one write() each. The writer
// fsyncs at loop boundaries (a user message, each tool result, the end of a turn, a compaction), so
// a power cut loses at most the in-flight model turn; kill -9 loses nothing that was written.
import { closeSync, fstatSync, fsyncSync, openSync, renameSync, writeFileSync, writeSync } from "node:fs";
import { LIMITS, readRegularFile } from "../workspace/safe-read.ts";
import type { DurableEvent } from "../events/types.ts";
import { NewerFormatError, parseEventLine, serializeEvent } from "../events/schema.ts";
import { metaPathOf, sessionIdOf } from "./paths.ts";
import { createRedactor, type Redactor } from "./redact.ts";
import { createSummaryBuilder, type SessionSummary, type SummaryBuilder } from "./summary.ts";

export interface SessionWriter {
  readonly path: string;
  readonly sessionId: string;
  /** One write per event. Secrets are redacted first. Syncs by itself at loop boundaries. */
  append(e: DurableEvent): void;
  /** fsync the log now. */
  sync(): void;
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
  ) {
    const code = (cause as NodeJS.ErrnoException)?.code;
    const why = code === "ENOSPC" ? "the disk is full" : code === "EDQUOT" ? "the disk quota is exceeded" : String((cause as Error)?.message ?? cause);
    super(`Could not write to the session log ${path}: ${why}. Free some space; everything up to the last saved event is safe.`);
    this.name = "SessionWriteError";
  }
}

/** Lock already held by the caller; `fd` opened for append. */
export function createWriter(path: string, fd: number, opts: WriterOptions = {}): SessionWriter {
  const redact = opts.redact ?? createRedactor();
  const builder: SummaryBuilder = createSummaryBuilder(sessionIdOf(path));
  for (const e of opts.existing ?? []) builder.add(e);
  let size = fstatSync(fd).size;
  // A failed write may have left part of a line; the next one starts on a fresh line.
  let torn = false;
  let closed = false;
  let dirtyMeta = false;

  const fail = (cause: unknown) => {
    const err = new SessionWriteError(path, cause);
    if (opts.onError) opts.onError(err);
    else throw err;
  };

  const writeMeta = () => {
    if (!dirtyMeta) return;
    // Derived data: a temp file and a rename (never a half-written cache), no fsync.
    const meta = metaPathOf(path);
    try {
      writeFileSync(`${meta}.tmp`, JSON.stringify({ ...builder.result(), size }));
      renameSync(`${meta}.tmp`, meta);
      dirtyMeta = false;
    } catch {
      // The cache is optional: a listing rescans the log.
    }
  };

  const writer: SessionWriter = {
    path,
    sessionId: sessionIdOf(path),
    append(e) {
      if (closed) throw new Error(`session log ${path} is closed; this event was not written: ${e.type}`);
      const line = (torn ? "\n" : "") + redact(serializeEvent(e)) + "\n";
      const buf = Buffer.from(line, "utf8");
      let written = 0;
      try {
        while (written < buf.length) written += writeSync(fd, buf, written, buf.length - written);
        torn = false;
      } catch (cause) {
        size += written;
        torn = torn || written > 0;
        fail(cause);
        return;
      }
      size += written;
      builder.add(e);
      dirtyMeta = true;
      if (SYNC_AFTER.has(e.type)) writer.sync();
      if (e.type === "turn_end") writeMeta();
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
      writer.sync();
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
export type SessionLog = { events: DurableEvent[]; warnings: LogWarning[]; /** The log ends in a partial line (a crash mid-write). */ tornTail: boolean };

/**
 * Reads a session log. A torn last line (a crash mid-write) is ignored and reported; a corrupt line
 * elsewhere is skipped with a warning. Neither stops a resume. Throws only if the file cannot be read
 * or a newer KHAELOR wrote it.
 */
export function readSessionLog(path: string): SessionLog {
  return parseSessionLog(readRegularFile(path, { maxBytes: LIMITS.sessionLog }).bytes.toString("utf8"));
}

export function parseSessionLog(text: string): SessionLog {
  const events: DurableEvent[] = [];
  const warnings: LogWarning[] = [];
  const lines = text.split("\n");
  const endsClean = text.length === 0 || text.endsWith("\n");
  // split() leaves "" after a final newline.
  const last = endsClean ? lines.length - 1 : lines.length;
  let headerVersion: number | undefined;
  let tornTail = false;
  for (let i = 0; i < last; i++) {
    const line = lines[i]!;
    if (line.trim() === "") continue;
    const isLast = i === lines.length - 1;
    try {
      const e = parseEventLine(line, headerVersion);
      if (e.type === "session_header" && headerVersion === undefined) headerVersion = e.formatVersion;
      events.push(e);
    } catch (err) {
      if (err instanceof NewerFormatError) throw new Error(`Cannot read this session log: it was ${err.message}.`);
      const why = (err as Error).message;
      if (isLast) {
        tornTail = true;
        warnings.push({ line: i + 1, message: `line ${i + 1}: the last line is incomplete (KHAELOR stopped mid-write); ignored` });
      } else warnings.push({ line: i + 1, message: `line ${i + 1}: skipped, ${why}` });
    }
  }
  return { events, warnings, tornTail };
}
