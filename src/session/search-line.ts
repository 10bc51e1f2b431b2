// What one log line adds to the search index, read as cheaply as the line allows. Most of a log's
// bytes are tool results (a command's output, a file read), so a line's type is peeked at from its
// first bytes (the log writes `{"v":…,"id":…,"ts":…,"type":…` first) and a tool result is never
// parsed whole: only the head and the tail of its text are decoded, which is where a command's
// first lines and its error usually are. The events a session's summary needs (its header, the
// user's messages, the answers, setting changes) are parsed, so the index can keep the summary
// beside the text: a line of today's format as JSON with the few fields read checked (validating
// each against the whole schema cost five times the parse), an older one as the log reader
// parses it (migrated, then validated).
import type { DurableEvent } from "../events/types.ts";
import { FORMAT_VERSION, parseEventLine } from "../events/schema.ts";
import { VERSION_FIELD } from "../events/migrations.ts";

/** Of a tool result's text, at most this many bytes of its start and as many of its end are kept. */
export const TOOL_TEXT_BYTES = 512;
/** Of a thinking block, and of each string a tool call was given (a command, a path, a file's content). */
const THINKING_CHARS = 1024;
const INPUT_CHARS = 300;
const PEEK_BYTES = 256;

/** The events whose whole line is parsed: the summary folds them, or their text is indexed whole. */
const PARSED = new Set(["session_header", "user_message", "assistant_message", "compaction", "setting_change"]);

export type LineRead =
  /** Not an event (a torn write, corrupt bytes). */
  | { kind: "corrupt" }
  /** An event: its time, the text lines it adds, and the parsed event when it was parsed. */
  | { kind: "event"; ts: number | null; lines: string[]; event: DurableEvent | null };

const TYPE_KEY = '"type":"';
const TS_KEY = '"ts":';
const CONTENT_KEY = '"content":';

/** Reads the line `buf[start, end)` (no newline); `version` is the log header's format version. */
export function readLine(buf: Buffer, start: number, end: number, version: number | undefined): LineRead {
  const type = peekType(buf, start, end);
  if (type === null || PARSED.has(type)) return parsed(buf.toString("utf8", start, end), version);
  // The cheap path still refuses a line cut short: every event ends its object.
  if (buf[end - 1] !== 0x7d /* } */) return { kind: "corrupt" };
  return { kind: "event", ts: peekTs(buf, start, end), lines: type === "tool_result" ? toolResultLines(buf, start, end) : [], event: null };
}

/** The event's type, from the first bytes of its line (null when it is not there). */
function peekType(buf: Buffer, start: number, end: number): string | null {
  const at = buf.indexOf(TYPE_KEY, start, "latin1");
  if (at === -1 || at > Math.min(end, start + PEEK_BYTES)) return null;
  const from = at + TYPE_KEY.length;
  const close = buf.indexOf(0x22, from);
  return close === -1 || close > end || close - from > 40 ? null : buf.toString("latin1", from, close);
}

function peekTs(buf: Buffer, start: number, end: number): number | null {
  const at = buf.indexOf(TS_KEY, start, "latin1");
  if (at === -1 || at > Math.min(end, start + PEEK_BYTES)) return null;
  let n = 0;
  let i = at + TS_KEY.length;
  for (; i < end && buf[i]! >= 0x30 && buf[i]! <= 0x39; i++) n = n * 10 + (buf[i]! - 0x30);
  return i === at + TS_KEY.length ? null : n;
}

function parsed(line: string, version: number | undefined): LineRead {
  let e: DurableEvent;
  try {
    const raw = JSON.parse(line) as Record<string, unknown> | null;
    if (raw && typeof raw === "object" && raw[VERSION_FIELD] === FORMAT_VERSION) {
      if (!plausible(raw)) return { kind: "corrupt" };
      e = raw as unknown as DurableEvent;
    } else e = parseEventLine(line, version);
  } catch (err) {
    // A newer KHAELOR's line is not corrupt: the caller is told (it stops the summary there).
    if (err instanceof Error && err.name === "NewerFormatError") throw err;
    return { kind: "corrupt" };
  }
  try {
    return { kind: "event", ts: e.ts, lines: eventLines(e), event: e };
  } catch {
    // A field of the wrong kind deeper in (a block's text not a string): not an event this reads.
    return { kind: "corrupt" };
  }
}

/** The fields the summary and the index read, of the kinds they are read as. */
function plausible(r: Record<string, unknown>): boolean {
  if (typeof r.id !== "string" || typeof r.ts !== "number") return false;
  const str = (v: unknown) => v === undefined || typeof v === "string";
  switch (r.type) {
    case "session_header":
      return typeof r.sessionId === "string" && typeof r.cwd === "string" && typeof r.model === "string" && typeof r.formatVersion === "number" && str(r.forkedFrom);
    case "user_message":
      return (typeof r.content === "string" || Array.isArray(r.content)) && str(r.display) && str(r.synthetic);
    case "assistant_message": {
      const m = r.message as { content?: unknown } | null;
      return typeof m === "object" && m !== null && Array.isArray(m.content) && (r.costUsd === null || r.costUsd === undefined || typeof r.costUsd === "number");
    }
    case "compaction":
      return r.costUsd === null || r.costUsd === undefined || typeof r.costUsd === "number";
    case "setting_change":
      return str(r.model) && str(r.title);
    default:
      return false;
  }
}

/** The text lines of a parsed event the search finds: the user's words, the answers, tool calls. */
export function eventLines(e: DurableEvent): string[] {
  const out: string[] = [];
  if (e.type === "user_message") {
    if (e.display !== undefined) push(out, e.display);
    if (e.synthetic === "shell" && e.shell) {
      // A `!` command: the command as typed, and its output as a tool result's is kept.
      push(out, `! ${e.shell.command}`);
      const text = typeof e.content === "string" ? e.content : e.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
      push(out, headAndTail(text));
    } else if (!e.synthetic) {
      if (typeof e.content === "string") push(out, e.content);
      else for (const b of e.content) if (b.type === "text") push(out, b.text);
    }
  } else if (e.type === "assistant_message") {
    for (const b of e.message.content) {
      if (b.type === "text") push(out, b.text);
      else if (b.type === "thinking") push(out, String(b.thinking).slice(0, THINKING_CHARS));
      else if (b.type === "tool_use") push(out, toolCallText(b.name, b.input));
    }
  }
  return out;
}

/** A tool call as `name: value` for each string it was given (`bash: bun test`, `read: src/a.ts`). */
function toolCallText(name: string, input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const values = Object.values(input as Record<string, unknown>).filter((v): v is string => typeof v === "string" && v.trim() !== "");
  return values.map((v) => `${name}: ${v.length > INPUT_CHARS ? v.slice(0, INPUT_CHARS) : v}`).join("\n");
}

function headAndTail(text: string): string {
  return text.length <= 2 * TOOL_TEXT_BYTES ? text : `${text.slice(0, TOOL_TEXT_BYTES)}\n${text.slice(-TOOL_TEXT_BYTES)}`;
}

function push(out: string[], text: string) {
  for (const l of text.split("\n")) {
    const t = l.trim();
    if (t) out.push(t);
  }
}

/** A tool result's text, its head and tail only, decoded from the JSON string in place. */
function toolResultLines(buf: Buffer, start: number, end: number): string[] {
  const at = buf.indexOf(CONTENT_KEY, start, "latin1");
  if (at === -1 || at >= end) return [];
  const open = at + CONTENT_KEY.length;
  const out: string[] = [];
  if (buf[open] !== 0x22 /* " */) {
    // Blocks (text beside images): rare and small enough to parse the line for.
    try {
      const e = JSON.parse(buf.toString("utf8", start, end)) as { content?: unknown };
      if (Array.isArray(e.content)) for (const b of e.content) if (b && b.type === "text" && typeof b.text === "string") push(out, headAndTail(b.text));
    } catch {
      // Its text is not searched; the line is still an event.
    }
    return out;
  }
  const from = open + 1;
  const close = stringEnd(buf, from, end);
  if (close - from <= 2 * TOOL_TEXT_BYTES) {
    push(out, decode(buf, from, close));
    return out;
  }
  push(out, decode(buf, from, cutBefore(buf, from, from + TOOL_TEXT_BYTES)));
  push(out, decode(buf, cutAfter(buf, from, close - TOOL_TEXT_BYTES), close));
  return out;
}

/** Where the JSON string starting at `from` ends (its closing quote), or `end` if it does not. */
function stringEnd(buf: Buffer, from: number, end: number): number {
  for (let q = buf.indexOf(0x22, from); q !== -1 && q < end; q = buf.indexOf(0x22, q + 1)) if (backslashesBefore(buf, q, from) % 2 === 0) return q;
  return end;
}

function backslashesBefore(buf: Buffer, at: number, from: number): number {
  let n = 0;
  while (at - n - 1 >= from && buf[at - n - 1] === 0x5c) n++;
  return n;
}

/** `at`, moved back so no escape sequence or UTF-8 character is cut in two. */
function cutBefore(buf: Buffer, from: number, at: number): number {
  // An escape that would be cut: \uXXXX is the longest, six bytes.
  for (let k = at - 1; k >= Math.max(from, at - 6); k--) {
    if (buf[k] === 0x5c && backslashesBefore(buf, k, from) % 2 === 0) {
      const len = buf[k + 1] === 0x75 /* u */ ? 6 : 2;
      if (k + len > at) at = k;
      break;
    }
  }
  while (at > from && ((buf[at]! & 0xc0) === 0x80)) at--;
  return at;
}

/** `at`, moved on past an escape sequence or UTF-8 character it falls inside. */
function cutAfter(buf: Buffer, from: number, at: number): number {
  for (let k = at - 1; k >= Math.max(from, at - 5); k--) {
    if (buf[k] === 0x5c && backslashesBefore(buf, k, from) % 2 === 0) {
      const len = buf[k + 1] === 0x75 ? 6 : 2;
      if (k + len > at) at = k + len;
      break;
    }
  }
  while ((buf[at]! & 0xc0) === 0x80) at++;
  return at;
}

function decode(buf: Buffer, from: number, to: number): string {
  try {
    return JSON.parse(`"${buf.toString("utf8", from, to)}"`) as string;
  } catch {
    return "";
  }
}
