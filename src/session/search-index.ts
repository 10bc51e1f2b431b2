// The text of a project's sessions, kept beside their logs (search-index.json in the project's
// sessions folder) so that a search reads one file instead of every log. It is derived and safe
// to delete: missing or unreadable, it is rebuilt. Logs only grow, so each entry remembers how far
// its log was read, and a log that grew is read from there on; one that shrank (or was replaced by
// a shorter one) is read again from its start. What is kept: the text of the user's messages and
// of the answers, one line per line, as the log holds it (already redacted when it was written).
import { closeSync, fstatSync, openSync, readdirSync, readSync, renameSync, statSync, writeFileSync, constants } from "node:fs";
import { join } from "node:path";
import { PRIVATE_FILE_MODE } from "../platform/private-files.ts";
import { LIMITS, readRegularText } from "../workspace/safe-read.ts";

const INDEX_VERSION = 1;
export const INDEX_FILE = "search-index.json";

/** One log's share of the index. */
export type IndexEntry = {
  /** Bytes of the log read so far (always at the end of a whole line). */
  offset: number;
  /** The log's first bytes: a log replaced by another one of the same or larger size is read again. */
  head: string;
  /** The messages' text, lines joined with "\n". */
  text: string;
  /** Lines of the log that could not be read (a torn write, a corrupt line): skipped and counted. */
  corrupt: number;
};

type IndexFile = { v: number; sessions: Record<string, IndexEntry> };

export type ProjectIndex = {
  dir: string;
  /** By log file name (<id>.jsonl). */
  sessions: Map<string, IndexEntry>;
  /** How it was brought up to date: "fresh" (read from scratch), "updated" or "current". */
  state: "fresh" | "updated" | "current";
  /** Log bytes read to bring it up to date. */
  bytesRead: number;
};

const HEAD_BYTES = 64;

function loadFile(path: string): Map<string, IndexEntry> | null {
  let raw: unknown;
  try {
    raw = JSON.parse(readRegularText(path, LIMITS.sessionLog));
  } catch {
    return null;
  }
  const f = raw as IndexFile;
  if (!f || typeof f !== "object" || f.v !== INDEX_VERSION || !f.sessions || typeof f.sessions !== "object") return null;
  const out = new Map<string, IndexEntry>();
  for (const [name, e] of Object.entries(f.sessions)) {
    if (!e || typeof e.offset !== "number" || typeof e.text !== "string" || typeof e.head !== "string" || typeof e.corrupt !== "number") return null;
    out.set(name, e);
  }
  return out;
}

/** The text a log line adds to the index; null when the line is not an event at all (corrupt). */
export function lineText(line: string): string[] | null {
  let e: { type?: unknown; content?: unknown; message?: { content?: unknown }; synthetic?: unknown };
  try {
    e = JSON.parse(line);
  } catch {
    return null;
  }
  if (!e || typeof e !== "object" || typeof e.type !== "string") return null;
  const blocks = e.type === "user_message" && !e.synthetic ? e.content : e.type === "assistant_message" ? e.message?.content : undefined;
  if (blocks === undefined) return [];
  const texts = typeof blocks === "string" ? [blocks] : Array.isArray(blocks) ? blocks.flatMap((b) => (b && b.type === "text" && typeof b.text === "string" ? [b.text as string] : [])) : [];
  const lines: string[] = [];
  for (const t of texts) for (const l of t.split("\n")) if (l.trim()) lines.push(l.trim());
  return lines;
}

const CHUNK = 4 * 1024 * 1024;

/** Reads `path` from `entry.offset` (whole lines only) into the entry; returns the bytes read. */
function readOn(path: string, entry: IndexEntry): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    if (!fstatSync(fd).isFile()) return 0;
    const chunk = Buffer.allocUnsafe(CHUNK);
    let pos = entry.offset;
    let carry: Buffer = Buffer.alloc(0);
    const added: string[] = [];
    let read = 0;
    for (;;) {
      const n = readSync(fd, chunk, 0, CHUNK, pos);
      if (n === 0) break;
      pos += n;
      read += n;
      // Where buf starts in the file: what was carried over sits just before this chunk.
      const base = pos - n - carry.length;
      const buf = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n);
      let start = 0;
      for (let nl = buf.indexOf(10, start); nl !== -1; nl = buf.indexOf(10, start)) {
        const line = buf.toString("utf8", start, nl);
        start = nl + 1;
        entry.offset = base + start;
        if (line.trim() === "") continue;
        const text = lineText(line);
        if (text === null) entry.corrupt++;
        else added.push(...text);
      }
      carry = Buffer.from(buf.subarray(start));
    }
    // A last line without its newline is a write in progress (or torn): it is read once it ends.
    if (added.length > 0) entry.text = entry.text ? `${entry.text}\n${added.join("\n")}` : added.join("\n");
    return read;
  } finally {
    closeSync(fd);
  }
}

function headOf(path: string): string {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  try {
    const b = Buffer.alloc(HEAD_BYTES);
    const n = readSync(fd, b, 0, HEAD_BYTES, 0);
    return b.toString("latin1", 0, n);
  } finally {
    closeSync(fd);
  }
}

/**
 * The index of one project's sessions folder, brought up to date with its logs and saved when it
 * changed. A save that fails (a read-only folder, a full disk) costs only the next search's time.
 */
export function openProjectIndex(dir: string): ProjectIndex {
  const indexPath = join(dir, INDEX_FILE);
  const loaded = loadFile(indexPath);
  const sessions = new Map<string, IndexEntry>();
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return { dir, sessions, state: "current", bytesRead: 0 };
  }
  let changed = loaded === null || names.length !== loaded.size;
  let bytesRead = 0;
  for (const name of names) {
    const path = join(dir, name);
    let size: number;
    try {
      const st = statSync(path);
      if (!st.isFile()) continue;
      size = st.size;
    } catch {
      continue;
    }
    let entry = loaded?.get(name);
    if (entry && entry.offset === size) {
      sessions.set(name, entry);
      continue;
    }
    try {
      const head = headOf(path);
      if (!entry || entry.offset > size || entry.head !== head.slice(0, entry.head.length)) entry = { offset: 0, head, text: "", corrupt: 0 };
      const before = entry.offset;
      bytesRead += readOn(path, entry);
      if (entry.offset !== before || !loaded?.has(name)) changed = true;
      entry.head = head;
      sessions.set(name, entry);
    } catch {
      // A log that cannot be read now is left out of this search; its entry is kept for later.
      if (entry) sessions.set(name, entry);
    }
  }
  if (changed) save(indexPath, sessions);
  return { dir, sessions, state: loaded === null ? "fresh" : changed ? "updated" : "current", bytesRead };
}

function save(path: string, sessions: Map<string, IndexEntry>) {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ v: INDEX_VERSION, sessions: Object.fromEntries(sessions) } satisfies IndexFile), { mode: PRIVATE_FILE_MODE });
    renameSync(tmp, path);
  } catch {
    // Derived data: the next search reads the logs again.
  }
}
