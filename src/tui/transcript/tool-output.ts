// A tool result as the user sees it. Results are written for the model: bash and process append a
// bracketed trailer of notes ("[exit code 1; cwd: .]", "[ticker (p1) running; offset 5]"), and
// some results end with instructions in tool syntax ("Read its output with action=read id=…").
// The user gets the output and what happened to it, never the model's bookkeeping. The tools say
// which is which in the result's display data (body, notes); the patterns below are only for
// session logs written before they did, and match exactly what src/tools (bash.ts, process.ts,
// read.ts, grep.ts) and the kernel's answer to a call cut by max_tokens wrote then; anything else
// is real output and is left alone.
import type { ToolDisplay } from "../../tools/types.ts";

export type ShownResult = {
  /** The output, with the model's trailer and instructions taken off. */
  body: string;
  /** What the user should know about how it ended ("exit code 1", "timed out"), or "" for nothing. */
  notes: string;
};

/** The kernel's answer for a call cut off by max_tokens (kernel/loop.ts), which tells the model how to retry. */
const CUT_CALL = /^Your response reached the output limit \(max_tokens\) while writing this \S+ call, so its input is incomplete and it was not run\. .*$/s;

export function shownResult(tool: string, text: string, display?: ToolDisplay): ShownResult {
  if (display?.body !== undefined) return { body: text.slice(0, display.body), notes: display.notes ?? "" };
  return fromOldLog(tool, text);
}

/** A result from a log written before tools gave display data: its text is read back into body and notes. */
function fromOldLog(tool: string, text: string): ShownResult {
  if (CUT_CALL.test(text)) return { body: "", notes: "the answer hit the output-token limit while writing this call, so it was not run; the agent was told to retry with less input" };
  switch (tool) {
    case "bash":
      return withTrailer(text, bashNotes);
    case "process":
      return processResult(text);
    case "read":
    case "grep":
      return withTrailer(text, searchNotes);
    default:
      return { body: text, notes: "" };
  }
}

/** The body, then the notes in brackets (the pager's view of a whole result). */
export function shownText(r: ShownResult): string {
  if (!r.notes) return r.body;
  return r.body ? `${r.body}\n\n[${r.notes}]` : `[${r.notes}]`;
}

/** Splits off a final "\n\n[…]" trailer (one line, as the tools write it) and rewrites its notes; null drops the split. */
function withTrailer(text: string, rewrite: (notes: string) => string | null): ShownResult {
  const at = text.lastIndexOf("\n\n[");
  if (at < 0 || !text.endsWith("]")) return { body: text, notes: "" };
  const raw = text.slice(at + 3, -1);
  if (raw.includes("\n")) return { body: text, notes: "" };
  const notes = rewrite(raw);
  return notes === null ? { body: text, notes: "" } : { body: text.slice(0, at), notes };
}

/** bash: its trailer always ends with "cwd: …" (bash.ts), which is how a real "[…]" line of output is told apart. */
function bashNotes(raw: string): string | null {
  if (!/(^|; )cwd: [^;]*$/.test(raw)) return null;
  return raw
    .replace(/(^|; )cwd: [^;]*$/, "")
    .replace(/^timed out after \d+ ms: (the command and everything it started were killed)\. For servers and watchers use the process tool; for long builds pass a larger timeout \(at most \d+\)/, "timed out: $1")
    .replace(/^cancelled by the user after \d+ ms;/, "cancelled by the user;")
    .replace(/(background processes the command left running were stopped); start long-running programs with the process tool/, "$1");
}

/** read and grep: their notes are for the user too, less the advice on how to call the tool next. */
function searchNotes(raw: string): string | null {
  if (!/^(showing lines \d+-\d+ of \d+|\d+ more (lines|files) not shown|\d+ matches in \d+ files|\d+ long lines? (was|were) cut|the search (timed out|produced)|encoding: |line endings: |No matches)/.test(raw)) return null;
  return raw
    .replace(/; continue with offset=\d+/, "")
    .replace(/; use grep or bash \(cut -c\) to see them whole/, "")
    .replace(/; narrow the search \(path, glob, type\) or raise head_limit/, "");
}

const PROCESS_LABEL = String.raw`(?:[A-Za-z0-9][A-Za-z0-9_.-]* \(p\d+\)|p\d+)`;
const PROCESS_STATE = String.raw`(running|exited with code -?\d+|exited with code null|killed by [A-Z0-9]+)`;
/** A read's trailer (process.ts): an optional wait_for note, "<label> <state>", "offset N", an optional dropped-output note. */
const READ_TRAILER = new RegExp(String.raw`\n\n\[(?:(.*); )?${PROCESS_LABEL} ${PROCESS_STATE}; offset \d+(?:; (\d+ older characters were dropped from the buffer))?\]$`, "s");

function processResult(text: string): ShownResult {
  const read = READ_TRAILER.exec(text);
  if (read) {
    const [, wait, state, dropped] = read;
    const notes = [wait && !/^\/.*\/ appeared$/s.test(wait) ? wait : "", state !== "running" ? `the process ${state}` : "", dropped ?? ""].filter(Boolean);
    return { body: text.slice(0, read.index), notes: notes.join("; ") };
  }
  const body = text
    .replace(/ Read its output with action=read id=\S+ \(wait_for a ready message\), stop it with action=stop\.$/, "")
    .replace(/ Read its answer with action=read(?: \(wait_for its prompt\))?\.$/, "")
    .replace(/ Start one with action=start\.$/, "");
  return { body, notes: "" };
}
