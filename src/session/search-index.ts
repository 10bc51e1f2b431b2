// The text of a project's sessions, kept beside their logs (search-index.json in the project's
// sessions folder) so that a search reads one file instead of every log. It is derived and safe
// to delete: missing or unreadable, it is rebuilt. Logs only grow, so each entry remembers how far
// its log was read, and a log that grew is read from there on; one that shrank (or was replaced by
// a shorter one) is read again from its start. What is kept: the lines of the user's messages, the
// answers, the tool calls' inputs and the head and tail of each tool result (./search-line.ts), as
// the log holds them (already redacted when they were written), and each session's summary folded
// from the same bytes, so a search needs neither the logs nor their summary caches once indexed.
//
// The file is one JSON line of entries (with each text's length), then the texts one after
// another, unescaped: loading it is a decode and some slices, not a JSON parse of the text.
import { closeSync, constants, fstatSync, openSync, readdirSync, readSync, renameSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "../platform/private-files.ts";
import { LIMITS, readRegularText } from "../workspace/safe-read.ts";
import { readLine } from "./search-line.ts";
import { createSummaryBuilder, type SummaryState } from "./summary.ts";
import { sessionIdOf } from "./paths.ts";

const INDEX_VERSION = 2;
export const INDEX_FILE = "search-index.json";

/** One log's share of the index. */
export type IndexEntry = {
  /** Bytes of the log read so far (always at the end of a whole line). */
  offset: number;
  /** The log's first bytes: a log replaced by another one of the same or larger size is read again. */
  head: string;
  /** The searchable lines, joined with "\n". */
  text: string;
  /** Lines of the log that could not be read (a torn write, a corrupt line): skipped and counted. */
  corrupt: number;
  /** The session's summary so far, folded from the lines read. */
  fold: SummaryState;
  /** The header's format version (a line without its own is read as this one). */
  version?: number;
  /** A newer KHAELOR wrote from `offset` on: what it says (the reading stops there). */
  newer?: string;
};

type StoredEntry = Omit<IndexEntry, "text"> & { chars: number };

/** A log whose entry is missing or behind: to be read (on from its entry's offset). */
export type PendingLog = { name: string; path: string; size: number; mtimeMs: number };

export type ProjectIndex = {
  dir: string;
  /** By log file name (<id>.jsonl): the entries up to date, and those read since. */
  sessions: Map<string, IndexEntry>;
  /** Logs still to read, newest first. */
  pending: PendingLog[];
  /** Logs that were read (or left) and those gone: the file is saved once they are all read. */
  changed: boolean;
  /** Whether there was no usable index file (so every log is read from its start). */
  fresh: boolean;
  /** Log bytes read so far. */
  bytesRead: number;
  /** Entries loaded for logs still pending: each is read on from its offset. */
  stale: Map<string, IndexEntry>;
  /** Each log's modification time, as listed (an empty or newer log's last activity). */
  mtimes: Map<string, number>;
};

const HEAD_BYTES = 64;

function loadFile(path: string): Map<string, IndexEntry> | null {
  let raw: string;
  try {
    raw = readRegularText(path, LIMITS.sessionLog);
  } catch {
    return null;
  }
  const nl = raw.indexOf("\n");
  let f: { v?: unknown; sessions?: Record<string, StoredEntry> };
  try {
    f = JSON.parse(nl === -1 ? raw : raw.slice(0, nl));
  } catch {
    return null;
  }
  if (!f || typeof f !== "object" || f.v !== INDEX_VERSION || !f.sessions || typeof f.sessions !== "object") return null;
  const out = new Map<string, IndexEntry>();
  let at = nl + 1;
  for (const [name, e] of Object.entries(f.sessions)) {
    if (!e || typeof e.offset !== "number" || typeof e.chars !== "number" || typeof e.head !== "string" || typeof e.corrupt !== "number" || !e.fold || typeof e.fold.summary !== "object") return null;
    const { chars, ...rest } = e;
    out.set(name, { ...rest, text: raw.slice(at, at + chars) });
    at += chars;
  }
  // Texts that do not add up to what is there: the file was cut or edited.
  return at === raw.length ? out : null;
}

/**
 * A project's index as its file has it, checked against the logs: the entries of logs that have
 * not changed, and the logs to read (newest first). Nothing is read from the logs yet.
 */
export function loadProjectIndex(dir: string): ProjectIndex {
  const loaded = loadFile(join(dir, INDEX_FILE));
  const index: ProjectIndex = { dir, sessions: new Map(), pending: [], changed: loaded === null, fresh: loaded === null, bytesRead: 0, stale: new Map(), mtimes: new Map() };
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  } catch {
    index.changed = false;
    return index;
  }
  if (loaded && names.length !== loaded.size) index.changed = true;
  for (const name of names) {
    const path = join(dir, name);
    let st;
    try {
      st = statSync(path);
    } catch {
      continue;
    }
    if (!st.isFile()) continue;
    index.mtimes.set(name, st.mtimeMs);
    const entry = loaded?.get(name);
    // A log a newer KHAELOR went on writing stays where it stopped: nothing more of it can be read.
    if (entry && (entry.offset === st.size || (entry.newer !== undefined && entry.offset < st.size))) index.sessions.set(name, entry);
    else {
      if (entry) index.stale.set(name, entry);
      index.pending.push({ name, path, size: st.size, mtimeMs: st.mtimeMs });
    }
  }
  index.pending.sort((a, b) => b.mtimeMs - a.mtimeMs);
  return index;
}

/** Reads one pending log (on from its entry, if it had one) into the index; returns its entry, or null if it could not be read now. */
export function indexLog(index: ProjectIndex, log: PendingLog): IndexEntry | null {
  const old = index.stale.get(log.name);
  index.stale.delete(log.name);
  // A log that cannot be read now is left out of this search; its old entry is kept for later.
  const leave = () => {
    if (old) index.sessions.set(log.name, old);
    return null;
  };
  let fd: number;
  try {
    fd = openSync(log.path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch {
    return leave();
  }
  try {
    if (!fstatSync(fd).isFile()) return leave();
    const head = headOf(fd);
    const entry = !old || old.offset > log.size || old.head !== head.slice(0, old.head.length) ? { offset: 0, head, text: "", corrupt: 0, fold: createSummaryBuilder(sessionIdOf(log.path)).state() } : { ...old, head };
    index.bytesRead += readOn(fd, log.path, entry);
    index.sessions.set(log.name, entry);
    index.changed = true;
    return entry;
  } catch {
    return leave();
  } finally {
    closeSync(fd);
  }
}

const CHUNK = 4 * 1024 * 1024;
/** One buffer for every read (reading is synchronous): a fresh 4 MB per log cost more than the reading. */
let shared: Buffer | null = null;

/** Reads the log open as `fd` from `entry.offset` (whole lines only) into the entry; returns the bytes read. */
function readOn(fd: number, path: string, entry: IndexEntry): number {
  const chunk = (shared ??= Buffer.allocUnsafe(CHUNK));
  const summary = createSummaryBuilder(sessionIdOf(path), entry.fold);
  let pos = entry.offset;
  let carry: Buffer = Buffer.alloc(0);
  const added: string[] = [];
  let read = 0;
  reading: for (;;) {
    const n = readSync(fd, chunk, 0, CHUNK, pos);
    if (n === 0) break;
    pos += n;
    read += n;
    // Where buf starts in the file: what was carried over sits just before this chunk.
    const base = pos - n - carry.length;
    const buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
    let start = 0;
    for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
      if (!onLine(buf, start, nl, entry, summary, added)) break reading;
      start = nl + 1;
      entry.offset = base + start;
    }
    carry = Buffer.from(buf.subarray(start));
  }
  // A last line without its newline is a write in progress (or torn): it is read once it ends.
  if (added.length > 0) entry.text = entry.text ? `${entry.text}\n${added.join("\n")}` : added.join("\n");
  entry.fold = summary.state();
  return read;
}

/** One line into the entry; false when a newer format stops the reading at it. */
function onLine(buf: Buffer, start: number, end: number, entry: IndexEntry, summary: ReturnType<typeof createSummaryBuilder>, added: string[]): boolean {
  // Every event starts its object at once; only another line is looked at whole (a blank one is skipped).
  if (end === start || (buf[start] !== 0x7b && buf.toString("utf8", start, end).trim() === "")) return true;
  let r;
  try {
    r = readLine(buf, start, end, entry.version);
  } catch (e) {
    entry.newer = e instanceof Error ? e.message : String(e);
    return false;
  }
  if (r.kind === "corrupt") {
    entry.corrupt++;
    return true;
  }
  if (r.event) {
    if (r.event.type === "session_header" && entry.version === undefined) entry.version = r.event.formatVersion;
    summary.add(r.event);
  } else if (r.ts !== null) {
    // An event left unparsed counts only by its time (the last activity): the summary reads nothing else of it.
    summary.add({ type: "tool_result", ts: r.ts } as Parameters<typeof summary.add>[0]);
  }
  for (const l of r.lines) added.push(l);
  return true;
}

function headOf(fd: number): string {
  const b = Buffer.alloc(HEAD_BYTES);
  const n = readSync(fd, b, 0, HEAD_BYTES, 0);
  return b.toString("latin1", 0, n);
}

/** Saves the index if anything changed. A save that fails (a read-only folder, a full disk) costs only the next search's time. */
export function saveProjectIndex(index: ProjectIndex): void {
  if (!index.changed) return;
  const path = join(index.dir, INDEX_FILE);
  const tmp = `${path}.${process.pid}.tmp`;
  const sessions: Record<string, StoredEntry> = {};
  const texts: string[] = [];
  // Entries of logs not read on yet (a search left before the end) are kept as they were.
  for (const [name, { text, ...rest }] of [...index.sessions, ...index.stale]) {
    sessions[name] = { ...rest, chars: text.length };
    texts.push(text);
  }
  try {
    writeFileSync(tmp, `${JSON.stringify({ v: INDEX_VERSION, sessions })}\n${texts.join("")}`, { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, path);
    index.changed = false;
  } catch {
    // Derived data: the next search reads the logs again.
  }
}
