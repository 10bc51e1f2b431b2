// The sessions of a project: create, reopen for append, list, find by id prefix, fork.
import { appendFileSync, closeSync, constants, existsSync, fstatSync, fsyncSync, ftruncateSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { errnoOf, fsReason, isDiskFull, isUserFsError } from "../workspace/fs-errors.ts";
import { fileKind, LIMITS, readRegularText } from "../workspace/safe-read.ts";
import { dirname, join, resolve } from "node:path";
import { newEventId, newSessionId } from "../events/id.ts";
import { FORMAT_VERSION, NewerFormatError } from "../events/schema.ts";
import type { DurableEvent, PermissionMode, SessionHeader } from "../events/types.ts";
import { VERSION } from "../version.ts";
import { acquireSessionLock } from "./lock.ts";
import { createWriter, NewerSessionError, readSessionLog, streamSessionLog, type SessionLog, type SessionWriter, type WriterOptions } from "./log.ts";
import { currentBranch } from "./branch.ts";
import { replaySession, type Replayed } from "./replay.ts";
import { INTERRUPTED_RESULT } from "./view.ts";
import { dataRoot, metaPathOf, projectSessionsDir, sessionIdOf, sessionPath, sessionsRoot } from "./paths.ts";
import { createSummaryBuilder, type SessionSummary } from "./summary.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../platform/private-files.ts";

type Env = Record<string, string | undefined>;

export type CreateSessionOptions = {
  cwd: string;
  model: string;
  permissionMode: PermissionMode;
  khaelorVersion?: string;
  git?: SessionHeader["git"];
  /** The session this one continues (--fork-session). */
  forkedFrom?: string;
  /** Events to copy in after the header (a fork's history). */
  seed?: DurableEvent[];
  sessionId?: string;
  /** Where the log goes instead of the project's sessions directory (a subagent's, beside its parent's). */
  path?: string;
  env?: Env;
  onError?: WriterOptions["onError"];
};

function fsyncDir(dir: string) {
  // The new file's directory entry must survive a power cut too.
  try {
    const fd = openSync(dir, "r");
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Some file systems refuse fsync on directories; the file itself is synced.
  }
}

/** Starts a new session log (header written and synced, seed events copied) and holds its writer lock. */
export function createSession(opts: CreateSessionOptions): SessionWriter {
  const sessionId = opts.sessionId ?? newSessionId();
  const path = opts.path ?? sessionPath(opts.cwd, sessionId, opts.env);
  ensurePrivateDir(dirname(path), dataRoot(opts.env));
  const lock = acquireSessionLock(path);
  let fd: number;
  try {
    // O_APPEND: after a write is cut back (a full disk), the next one starts at the cut, not past it.
    fd = openSync(path, "ax", PRIVATE_FILE_MODE);
  } catch (e) {
    lock.release();
    throw e;
  }
  const writer = createWriter(path, fd, { existing: [], release: lock.release, onError: opts.onError });
  const now = Date.now();
  writer.append({
    type: "session_header",
    id: newEventId(now),
    ts: now,
    formatVersion: FORMAT_VERSION,
    khaelorVersion: opts.khaelorVersion ?? VERSION,
    sessionId,
    cwd: resolve(opts.cwd),
    model: opts.model,
    permissionMode: opts.permissionMode,
    ...(opts.forkedFrom ? { forkedFrom: opts.forkedFrom } : {}),
    ...(opts.git !== undefined ? { git: opts.git } : {}),
  });
  for (const e of opts.seed ?? []) if (e.type !== "session_header") writer.append(e);
  if (opts.seed?.length) writer.sync();
  const failed = writer.failure;
  if (failed && writer.summary().cwd === "") {
    // Not even the header fits (a full disk): leave no empty log behind for the session list.
    writer.close();
    rmSync(path, { force: true });
    throw failed;
  }
  fsyncDir(dirname(path));
  return writer;
}

type Appendable = { writer: SessionWriter; recoveredStaleLock: boolean; events: DurableEvent[]; warnings: string[]; unreadableResults: string[] };

/** The session cannot be continued where it is: its log or its directory is not writable. */
export class SessionUnwritableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionUnwritableError";
  }
}

const tornPathOf = (path: string) => `${path}.torn`;

/**
 * A log's last bytes after its last newline. A complete event whose newline never made it keeps
 * its place (it gets the newline); what does not parse (a write cut short, NUL padding) moves to
 * <id>.jsonl.torn, so nothing is thrown away, and the log ends on a clean line.
 */
function repairTail(path: string, fd: number, size: number, tail: NonNullable<SessionLog["tail"]>): string | null {
  const cut = size - Buffer.byteLength(tail.keep + tail.junk, "utf8");
  let moved: string | null = null;
  if (tail.junk !== "") {
    appendFileSync(tornPathOf(path), tail.junk.endsWith("\n") ? tail.junk : `${tail.junk}\n`);
    moved = tornPathOf(path);
  }
  if (tail.junk === "") {
    writeSync(fd, "\n");
  } else {
    try {
      // Cut back to the last whole line, then put back the event that parsed.
      const rw = openSync(path, "r+");
      try {
        ftruncateSync(rw, cut);
      } finally {
        closeSync(rw);
      }
      if (tail.keep) writeSync(fd, `${tail.keep}\n`);
    } catch (e) {
      // An append-only log (chattr +a) cannot be cut: end the junk's line so new events start
      // clean (it stays, skipped with a warning, and its copy is in the .torn file).
      if (errnoOf(e) !== "EPERM" && errnoOf(e) !== "EACCES") throw e;
      writeSync(fd, "\n");
      if (tail.keep) writeSync(fd, `${tail.keep}\n`);
    }
  }
  fsyncSync(fd);
  return moved;
}

function openForAppend(path: string, opts: { events?: DurableEvent[]; onError?: WriterOptions["onError"] }): Appendable {
  if (!existsSync(path)) throw new SessionNotFoundError(`No session log at ${path}. Run \`khaelor sessions\` to list this project's sessions.`);
  // Opening a FIFO would block for good; opened non-blocking, and only a regular file is read.
  const st = statSync(path);
  if (!st.isFile()) throw new Error(`cannot read ${path}: it is ${fileKind(st)}, not a regular file`);
  const id = sessionIdOf(path);
  let lock;
  try {
    lock = acquireSessionLock(path);
  } catch (e) {
    if (!isUserFsError(e) || errnoOf(e) === "EEXIST") throw e;
    throw new SessionUnwritableError(
      isDiskFull(e)
        ? `Session ${id} cannot be continued: ${fsReason(e)} (${dirname(path)}). Free some space and try again.`
        : `Session ${id} cannot be continued: its directory ${dirname(path)} is not writable (${fsReason(e)}). Make it writable, or set KHAELOR_HOME to a directory you can write and continue there with --resume ${path}.`,
    );
  }
  try {
    let fd: number;
    try {
      // Append only: an append-only log (chattr +a) can still be continued.
      fd = openSync(path, constants.O_WRONLY | constants.O_APPEND | constants.O_NONBLOCK | constants.O_NOCTTY);
    } catch (e) {
      if (!isUserFsError(e)) throw e;
      throw new SessionUnwritableError(
        `Session ${id} cannot be continued: its log ${path} is read-only (${fsReason(e)}). Make it writable (chmod u+w, or chattr -i), or continue the conversation in a new session with --fork-session.`,
      );
    }
    let events = opts.events;
    let warnings: string[] = [];
    let unreadableResults: string[] = [];
    try {
      const opened = fstatSync(fd);
      if (!opened.isFile()) throw new Error(`cannot read ${path}: it is ${fileKind(opened)}, not a regular file`);
      let log: SessionLog & { size: number };
      try {
        log = streamSessionLog(path);
      } catch (e) {
        if (e instanceof NewerFormatError) throw new NewerSessionError(path, e);
        throw e;
      }
      if (log.events.length === 0)
        throw new SessionEmptyError(
          log.size === 0
            ? `Session ${id} is empty: its log ${path} is 0 bytes (nothing was saved in it), so there is nothing to resume. Start a new session, or resume another (khaelor sessions lists them).`
            : `Session ${id} has no readable events: every line of ${path} is damaged, so there is nothing to resume. Start a new session, or resume another (khaelor sessions lists them).`,
        );
      warnings = log.warnings.map((w) => w.message);
      unreadableResults = log.unreadableResults;
      if (log.tail) {
        const moved = repairTail(path, fd, log.size, log.tail);
        if (moved) warnings.push(`the unreadable end of the log was moved to ${moved}`);
      }
      events ??= log.events;
    } catch (e) {
      closeSync(fd);
      throw e;
    }
    const writer = createWriter(path, fd, { existing: events, release: lock.release, onError: opts.onError });
    return { writer, recoveredStaleLock: lock.recoveredStale, events, warnings, unreadableResults };
  } catch (e) {
    lock.release();
    throw e;
  }
}

export class SessionEmptyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionEmptyError";
  }
}

/**
 * Reopens an existing log to continue it. Takes the lock (refused while another KHAELOR writes it;
 * recovered when that one died), and repairs a torn last line so new events start on a clean line.
 */
export function openSessionForAppend(path: string, opts: { events?: DurableEvent[]; onError?: WriterOptions["onError"] } = {}): SessionWriter {
  return openForAppend(path, opts).writer;
}

export { SessionLockedError } from "./lock.ts";
export { NewerSessionError } from "./log.ts";

export type OpenedSession = {
  writer: SessionWriter;
  replayed: Replayed;
  /** Torn or corrupt lines that were skipped, for the user. */
  warnings: string[];
  /** The previous run died (stale lock, or a turn without its end); crash recovery was recorded. */
  crashed: boolean;
  /** Processes the crashed run had started: they are no longer managed (and may still be running). */
  lostProcesses: Replayed["lostProcesses"];
};

/**
 * --resume / --continue: lock, read, replay, and record crash recovery so the log itself says what
 * happened: a synthetic "interrupted" result for each tool call that never finished, then an
 * interruption event. The returned replay includes those events.
 */
export function openSession(path: string, opts: { onError?: WriterOptions["onError"] } = {}): OpenedSession {
  const opened = openForAppend(path, opts);
  const replayed = replaySession(opened.events);
  const crashed = opened.recoveredStaleLock || replayed.turnOpen;
  if (crashed) {
    const names = new Map<string, string>();
    for (const e of opened.events)
      if (e.type === "assistant_message") for (const b of e.message.content) if (b.type === "tool_use") names.set(b.id, b.name);
    const recovery: DurableEvent[] = replayed.danglingToolUses.map((toolUseId) => ({
      type: "tool_result",
      id: newEventId(),
      ts: Date.now(),
      toolUseId,
      name: names.get(toolUseId) ?? "unknown",
      content: INTERRUPTED_RESULT,
      isError: true,
      kind: "error",
      summary: "interrupted before it finished",
      interrupted: true,
      durationMs: 0,
    }));
    recovery.push({ type: "interruption", id: newEventId(), ts: Date.now(), reason: "crash_recovery" });
    if (replayed.turnOpen) recovery.push({ type: "turn_end", id: newEventId(), ts: Date.now(), reason: "error" });
    for (const e of recovery) {
      opened.writer.append(e);
      opened.events.push(e);
      replayed.view.apply(e);
    }
    replayed.danglingToolUses = [];
    replayed.turnOpen = false;
    replayed.lastEventId = opened.events[opened.events.length - 1]!.id;
  }
  return { writer: opened.writer, replayed, warnings: opened.warnings, crashed, lostProcesses: crashed ? replayed.lostProcesses : [] };
}

/** The summary cache beside a log, when it matches the log's size and time; null when it does not (or there is none). */
export function readSummaryCache(path: string, size: number, mtimeMs: number): Omit<SessionSummary, "path"> | null {
  try {
    const meta = JSON.parse(readRegularText(metaPathOf(path), LIMITS.sessionMeta)) as Omit<SessionSummary, "path"> & { size?: number; mtimeMs?: number; formatVersion?: number };
    if (meta.size !== size || typeof meta.id !== "string") return null;
    if (meta.mtimeMs !== undefined && meta.mtimeMs !== mtimeMs) return null;
    // A newer KHAELOR's cache over its own lines: read the log, which says so.
    if ((meta.formatVersion ?? 1) > FORMAT_VERSION) return null;
    const { size: _size, mtimeMs: _m, formatVersion: _v, ...summary } = meta;
    return summary;
  } catch {
    return null;
  }
}

/** The summary of one log: from its cache when the cache matches the log's size, else by reading it. */
export function summarizeSession(path: string): SessionSummary | null {
  let size: number;
  let mtime: number;
  try {
    const st = statSync(path);
    size = st.size;
    mtime = st.mtimeMs;
  } catch {
    return null;
  }
  const cached = readSummaryCache(path, size, mtime);
  if (cached) return { ...cached, path };
  const b = createSummaryBuilder(sessionIdOf(path));
  let log;
  try {
    // A newer KHAELOR's lines end the reading but not the listing: the session is shown, marked.
    log = streamSessionLog(path, { upTo: "newer", keep: false, onEvent: (e) => b.add(e) });
  } catch {
    return null;
  }
  const s = b.result();
  // Its last activity is at least the file's: a newer KHAELOR's events are later than those read.
  const lastActivity = log.newer ? Math.max(s.lastActivity, mtime) : s.lastActivity || mtime;
  return { ...s, lastActivity, path, ...(log.newer ? { newerFormat: log.newer.message } : {}) };
}

/** This project's sessions, most recent first. Cheap: one stat and one small cache read per session. */
export function listSessions(cwd: string, env?: Env): SessionSummary[] {
  const dir = projectSessionsDir(cwd, env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return [];
  }
  const out: SessionSummary[] = [];
  for (const n of names) {
    const s = summarizeSession(join(dir, n));
    if (s) out.push(s);
  }
  return out.sort((a, b) => b.lastActivity - a.lastActivity);
}

/** The session `--continue` picks: the most recently active one of this project. */
export function latestSession(cwd: string, env?: Env): SessionSummary | null {
  return listSessions(cwd, env)[0] ?? null;
}

export class SessionNotFoundError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SessionNotFoundError";
  }
}

/** `--resume <id or unique prefix>` (or a path to a .jsonl log). Throws SessionNotFoundError with what to do. */
export function resolveSession(cwd: string, idOrPrefix: string, env?: Env): SessionSummary {
  const wanted = idOrPrefix.trim();
  if (wanted === "") throw new SessionNotFoundError("No session id given. Run `khaelor sessions` to list this project's sessions.");
  if (wanted.endsWith(".jsonl") && existsSync(wanted)) {
    const s = summarizeSession(resolve(wanted));
    if (s) return s;
  }
  const sessions = listSessions(cwd, env);
  const exact = sessions.find((s) => s.id === wanted || sessionIdOf(s.path) === wanted);
  if (exact) return exact;
  const matches = sessions.filter((s) => sessionIdOf(s.path).startsWith(wanted));
  if (matches.length === 1) return matches[0]!;
  if (matches.length > 1) {
    const shown = matches
      .slice(0, 5)
      .map((s) => `  ${sessionIdOf(s.path)}  ${s.title || "(untitled)"}`)
      .join("\n");
    const more = matches.length > 5 ? `\n  … and ${matches.length - 5} more` : "";
    throw new SessionNotFoundError(`"${wanted}" matches ${matches.length} sessions; type more of the id:\n${shown}${more}`);
  }
  const elsewhere = findInOtherProjects(cwd, wanted, env);
  if (elsewhere) {
    throw new SessionNotFoundError(
      `Session ${sessionIdOf(elsewhere.path)} belongs to another project (${elsewhere.cwd || dirname(elsewhere.path)}). Run KHAELOR from that directory (or pass --cwd) to resume it.`,
    );
  }
  throw new SessionNotFoundError(
    sessions.length === 0
      ? `No sessions yet for ${resolve(cwd)}. Start one with \`khaelor\`.`
      : `No session of ${resolve(cwd)} has an id starting with "${wanted}". Run \`khaelor sessions\` to list them.`,
  );
}

function findInOtherProjects(cwd: string, prefix: string, env?: Env): SessionSummary | null {
  const root = sessionsRoot(env);
  const own = projectSessionsDir(cwd, env);
  let dirs: string[];
  try {
    dirs = readdirSync(root);
  } catch {
    return null;
  }
  for (const d of dirs) {
    const dir = join(root, d);
    if (dir === own) continue;
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    const hit = names.find((n) => n.endsWith(".jsonl") && n.startsWith(prefix));
    if (hit) return summarizeSession(join(dir, hit));
  }
  return null;
}

/**
 * --fork-session: the history of a session, to seed a new one (createSession({ forkedFrom, seed })):
 * its current branch, without what its rewinds left behind. The old log is only read: never
 * locked, never written.
 */
export function forkSession(sourcePath: string): { forkedFrom: string; events: DurableEvent[]; replayed: Replayed; warnings: string[] } {
  const log = readSessionLog(sourcePath);
  if (log.events.length === 0) throw new SessionEmptyError(`Session ${sessionIdOf(sourcePath)} is empty (${sourcePath} holds no readable events), so there is nothing to fork.`);
  const replayed = replaySession(log.events);
  return {
    forkedFrom: replayed.header?.sessionId ?? sessionIdOf(sourcePath),
    events: currentBranch(log.events).filter((e) => e.type !== "session_header"),
    replayed,
    warnings: log.warnings.map((w) => w.message),
  };
}
