// The words of the notices the transcript shows for events that are not messages: a policy's
// message to the model, an undo, a compaction. Each says what happened in the user's terms.
import type { CompactionEvent, RewindEvent, UndoEvent, UserMessageEvent } from "../../events/types.ts";

/**
 * A message a policy wrote to the model, as the user should hear of it: what happened, in a short
 * line of our own. The model's text (instructions, tool syntax) is never shown as if meant for them.
 */
export function syntheticNotice(kind: NonNullable<UserMessageEvent["synthetic"]>, text: string): string {
  switch (kind) {
    case "verify":
      return "reminded the agent to run the tests or checks before finishing";
    case "doom_loop": {
      const tool = /same (\S+) call/.exec(text)?.[1];
      return `the agent repeated the same ${tool ? `${tool} call` : "tool call"}; told it to try another approach`;
    }
    case "process_exit":
      // "process web (p1) exited with code 1 (process read id=p1 shows its last output)": the
      // parenthesis tells the model how to read the output; the user has the process row for that.
      return dropReadHint(text);
    case "stop_hook":
      return `a Stop hook sent the agent back to work: ${text.replace(/^A Stop hook[^:]*:\s*/, "").split("\n")[0]}`;
    case "shell":
      // A `!` command has a row of its own (the transcript makes it); a notice only for a log without its record.
      return "a command the user ran";
    case "structured_output":
      return "reminded the agent to give its answer in the --json-schema format";
    case "agent":
      // "Background agent <id> (<type>) finished: …": its first line is the notice.
      return text.split("\n")[0] ?? "a background agent finished";
  }
}

const NAMED_FILES = 6;

/** Logs older than the `removed` field cannot tell a removed file from a restored one: "put back". */
export function undoNotice(e: Pick<UndoEvent, "restored" | "removed" | "skipped">): string {
  const parts: string[] = [];
  if (e.removed) {
    const removed = new Set(e.removed);
    const restored = e.restored.filter((p) => !removed.has(p));
    if (e.removed.length) parts.push(`removed ${names(e.removed)}`);
    if (restored.length) parts.push(`restored ${names(restored)}`);
  } else if (e.restored.length) parts.push(`put back ${names(e.restored)}`);
  if (e.skipped.length) parts.push(`left ${e.skipped.map((s) => `${s.path} (${s.reason})`).join(", ")}`);
  return `Undid the last turn: ${parts.length ? parts.join("; ") : "no file needed changing"}`;
}

/** A rewind as the transcript tells it; the conflicts (files the user changed after the agent) by name. */
export function rewindNotice(e: Pick<RewindEvent, "keep" | "conversation" | "code">): string {
  const what = e.conversation && e.code ? "the conversation and the code" : e.conversation ? "the conversation (the files stay as they are)" : "the code (the conversation goes on)";
  const where = e.keep === "through" ? "Continued from an earlier message" : "Rewound to before an earlier message";
  const parts: string[] = [];
  if (e.code) {
    const removed = new Set(e.code.removed);
    const restored = e.code.restored.filter((p) => !removed.has(p));
    if (e.code.removed.length) parts.push(`removed ${names(e.code.removed)}`);
    if (restored.length) parts.push(`restored ${names(restored)}`);
    if (e.code.skipped.length) parts.push(`left ${e.code.skipped.map((s) => `${s.path} (${s.reason})`).join(", ")}`);
    if (parts.length === 0) parts.push("no file needed changing");
  }
  return `${where}: ${what}${parts.length ? `. Files: ${parts.join("; ")}` : ""}. The abandoned messages stay in the session's log.`;
}

function names(paths: string[]): string {
  const shown = paths.slice(0, NAMED_FILES).join(", ");
  return paths.length > NAMED_FILES ? `${shown} and ${paths.length - NAMED_FILES} more` : shown;
}

/** Exact counts: rounded to thousands, a real reduction could read "4k → 4k". */
export function compactionNotice(e: Pick<CompactionEvent, "trigger" | "tokensBefore" | "tokensAfter">): string {
  const n = (x: number) => x.toLocaleString("en-US");
  const sizes = `${n(e.tokensBefore)} → ${n(e.tokensAfter)} tokens`;
  return e.tokensAfter < e.tokensBefore ? `Conversation compacted (${e.trigger}): ${sizes}` : `Conversation compacted (${e.trigger}), but it did not get smaller: ${sizes}`;
}

/** The text without a trailing "(process read id=… shows its last output)"; a scan, not a backtracking regex. */
function dropReadHint(text: string): string {
  const at = text.lastIndexOf("(process read id=");
  if (at === -1 || !/^\(process read id=\S+ shows its last output\)\s*$/.test(text.slice(at))) return text;
  return text.slice(0, at).trimEnd();
}
