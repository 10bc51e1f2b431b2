// The checks and bookkeeping shared by write and edit: refuse to overwrite what the model has not
// seen, write atomically, remember the new state as read, and journal the change for undo.
import { FileReadError, LIMITS, readRegularFile } from "../workspace/safe-read.ts";
import { describeWrite, writeFileAtomic } from "../workspace/atomic-write.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import { displayPath, fail } from "./results.ts";
import type { ToolPlan, ToolResult } from "./types.ts";

/** null when the file may be changed; otherwise the reason it may not, with what to do. */
export function staleReason(ws: LocalWorkspace, abs: string): string | null {
  const f = ws.reads.check(abs);
  const shown = displayPath(ws, abs);
  if (f === "unread") return `${shown} has not been read in this session: read it first, then retry, so you do not overwrite content you have not seen.`;
  if (f === "changed") return `${shown} changed on disk since you read it (another program or the user edited it): read it again, then redo the change.`;
  if (f === "missing") return `${shown} was deleted since you read it. Check whether that was intended before recreating it.`;
  return null;
}

/**
 * null when the file still holds `planned`, the bytes a change was planned on; otherwise why the
 * plan no longer applies (the user or another program changed the file while the call was asked about).
 */
export function changedSincePlanned(ws: LocalWorkspace, abs: string, planned: Uint8Array): string | null {
  const stale = staleReason(ws, abs);
  if (stale) return stale;
  let now: Buffer;
  try {
    now = readRegularFile(abs, { maxBytes: LIMITS.workFile }).bytes;
  } catch (e) {
    if (e instanceof FileReadError && e.code !== "ENOENT" && e.code !== "ENOTDIR") return `${displayPath(ws, abs)} cannot be read any more (${e.reason}); read it again before changing it.`;
    return `${displayPath(ws, abs)} was deleted since you read it. Check whether that was intended before recreating it.`;
  }
  return now.equals(planned) ? null : `${displayPath(ws, abs)} changed on disk since you read it (another program or the user edited it): read it again, then redo the change.`;
}

/**
 * A call about a path this session has not read, which will fail: the model may only learn why
 * once the call is allowed (the path may be one the rules hide), while the user, asked first, is
 * shown it now.
 */
export function failsOnceAllowed(path: string, failure: ToolResult): ToolPlan {
  const text = typeof failure.content === "string" ? failure.content : "this call will fail";
  return { preview: { path, detail: { label: "will fail", text } }, run: async () => failure };
}

/** Writes the change; returns what the model should know about how (through a link, in place, read-only), or "". */
export async function commitChange(ws: LocalWorkspace, abs: string, before: Uint8Array | null, after: Uint8Array, tool: string, toolUseId: string): Promise<string> {
  const report = writeFileAtomic(abs, after);
  ws.reads.record(abs, after);
  ws.edits.record({ path: abs, tool, toolUseId, before, after });
  // The change is made: losing /undo for one file must not turn it into a failure.
  await ws.onFileChanged?.(abs, before).catch(() => {});
  return describeWrite(report, (p) => displayPath(ws, p));
}
