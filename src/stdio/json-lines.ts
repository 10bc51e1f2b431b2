// Line-delimited JSON as the protocol modes read it from a pipe (ACP, stream-json input): lines
// split as the bytes come, each chunk scanned once, and no line held past a size limit. A line
// over the limit is skipped to its end, keeping only its start, so the mode can answer it (the
// request id there, when it can be read) and go on with the next line.

/**
 * The most one message may take: 32 MiB, the Messages API's own request limit, so any message
 * the model could be sent fits (a prompt carries its images as base64, at most 5 MB each as the
 * API takes them). Larger is a broken or hostile peer, not a prompt.
 */
export const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;

/** How much of a too-large line is kept to read its id from. */
const HEAD_BYTES = 64 * 1024;

const LF = 0x0a;
const CR = 0x0d;

export type JsonLine =
  /** A whole line, without its line ending (LF or CRLF); it may be blank. */
  | { kind: "line"; text: string }
  /** A line over the limit, skipped: its size in bytes (without the line ending) and its start. */
  | { kind: "too_large"; bytes: number; head: string };

/** Splits a byte stream into lines as it arrives; memory stays within the limit plus one chunk. */
export class LineSplitter {
  private pending: Uint8Array[] = [];
  private pendingBytes = 0;
  /** Set while the current line is over the limit: only its start is kept, and its size counted. */
  private skipping: { head: Uint8Array[]; headBytes: number; bytes: number; lastCr: boolean } | null = null;
  private readonly decoder = new TextDecoder();

  constructor(readonly limit = MAX_MESSAGE_BYTES) {}

  /** The lines `chunk` ends; the rest of it waits for the next chunk. */
  push(chunk: Uint8Array): JsonLine[] {
    const out: JsonLine[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(LF); nl !== -1; nl = chunk.indexOf(LF, start)) {
      this.take(chunk.subarray(start, nl));
      out.push(this.endLine());
      start = nl + 1;
    }
    if (start < chunk.length) this.take(chunk.subarray(start));
    return out;
  }

  /** The last line when the input ends without a line break, if there is one. */
  end(): JsonLine | null {
    if (this.pendingBytes === 0 && !this.skipping) return null;
    return this.endLine();
  }

  private take(part: Uint8Array): void {
    if (part.length === 0) return;
    const skip = this.skipping;
    if (skip) {
      if (skip.headBytes < HEAD_BYTES) {
        const kept = part.slice(0, HEAD_BYTES - skip.headBytes);
        skip.head.push(kept);
        skip.headBytes += kept.length;
      }
      skip.bytes += part.length;
      skip.lastCr = part[part.length - 1] === CR;
      return;
    }
    // One byte over the limit may be the CR of a CRLF: the line is judged without it at its end.
    if (this.pendingBytes + part.length > this.limit + 1) {
      this.skipping = { head: [], headBytes: 0, bytes: 0, lastCr: false };
      const held = this.pending;
      this.pending = [];
      this.pendingBytes = 0;
      for (const p of [...held, part]) this.take(p);
      return;
    }
    // A copy: the caller may reuse its buffer (a stream's chunk) once push returns.
    this.pending.push(part.slice());
    this.pendingBytes += part.length;
  }

  private endLine(): JsonLine {
    if (this.skipping) {
      const { bytes, lastCr } = this.skipping;
      const head = concat(this.skipping.head);
      this.skipping = null;
      // The line ending is no part of the line, nor of its start when all of it was kept.
      const whole = lastCr && head.length === bytes;
      return { kind: "too_large", bytes: bytes - (lastCr ? 1 : 0), head: this.decoder.decode(whole ? head.subarray(0, -1) : head) };
    }
    let line = concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    if (line.length > 0 && line[line.length - 1] === CR) line = line.subarray(0, -1);
    if (line.length > this.limit) return { kind: "too_large", bytes: line.length, head: this.decoder.decode(line.subarray(0, HEAD_BYTES)) };
    return { kind: "line", text: this.decoder.decode(line) };
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** The lines of a byte stream (stdin), read as they come; a read error ends the iteration by throwing it. */
export async function* jsonLines(input: AsyncIterable<Uint8Array>, limit = MAX_MESSAGE_BYTES): AsyncGenerator<JsonLine> {
  const splitter = new LineSplitter(limit);
  for await (const chunk of input) yield* splitter.push(chunk);
  const last = splitter.end();
  if (last) yield last;
}

/** What a peer is told about a too-large line: its size and the limit, both in bytes. */
export function tooLargeMessage(bytes: number, limit = MAX_MESSAGE_BYTES): string {
  return `the message is ${bytes.toLocaleString("en-US")} bytes, over the limit of ${limit.toLocaleString("en-US")} bytes`;
}

/** What the start of a too-large line shows: its top-level keys in order, and those with a string or number value. */
export type LeadingFields = { keys: string[]; values: Map<string, string | number> };

/**
 * The top-level fields of a JSON object read from its first bytes only (a line too large to
 * parse): a JSON-RPC message's `"id"` and whether it is a response (`"result"`, `"error"`), a
 * control request's `"type"` and `"request_id"`. A key whose value was cut off is listed without
 * a value; nothing past it is read. Empty when the text is not an object.
 */
export function leadingFields(head: string): LeadingFields {
  const found: LeadingFields = { keys: [], values: new Map() };
  let i = skipSpace(head, 0);
  if (head[i] !== "{") return found;
  i++;
  for (;;) {
    i = skipSpace(head, i);
    const key = readString(head, i);
    if (!key) return found;
    i = skipSpace(head, key.end);
    if (head[i] !== ":") return found;
    found.keys.push(key.value);
    i = skipSpace(head, i + 1);
    const s = readString(head, i);
    if (s) found.values.set(key.value, s.value);
    else {
      const n = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?(?=\s*[,}])/.exec(head.slice(i, i + 40));
      if (n) found.values.set(key.value, Number(n[0]));
    }
    const after = skipValue(head, i);
    if (after === -1) return found;
    i = skipSpace(head, after);
    if (head[i] !== ",") return found;
    i++;
  }
}

function skipSpace(s: string, i: number): number {
  while (i < s.length && (s[i] === " " || s[i] === "\t" || s[i] === "\n" || s[i] === "\r")) i++;
  return i;
}

/** A JSON string starting at `i`: its value and where it ends; null when there is none (or it is cut off). */
function readString(s: string, i: number): { value: string; end: number } | null {
  if (s[i] !== '"') return null;
  for (let j = i + 1; j < s.length; j++) {
    if (s[j] === "\\") j++;
    else if (s[j] === '"') {
      try {
        return { value: JSON.parse(s.slice(i, j + 1)) as string, end: j + 1 };
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** Where the JSON value starting at `i` ends, or -1 when it is cut off or malformed. */
function skipValue(s: string, i: number): number {
  if (s[i] === '"') return readString(s, i)?.end ?? -1;
  if (s[i] !== "{" && s[i] !== "[") {
    const m = /^[^,}\]\s]+/.exec(s.slice(i, i + 64));
    return m ? i + m[0].length : -1;
  }
  let depth = 0;
  for (let j = i; j < s.length; j++) {
    const c = s[j];
    if (c === '"') {
      const str = readString(s, j);
      if (!str) return -1;
      j = str.end - 1;
    } else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") {
      depth--;
      if (depth === 0) return j + 1;
    }
  }
  return -1;
}
