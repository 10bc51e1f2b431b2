// The checks and bookkeeping shared by write and edit: refuse to overwrite what the model has not
// seen, write atomically, remember the new state as read, and journal the change for undo.
import { statSync } from "node:fs";
import { FileReadError } from "../workspace/safe-read.ts";
import { describeWrite, writeFileAtomic } from "../workspace/atomic-write.ts";
import { hashBytes, type Freshness } from "../workspace/read-records.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import { currentBytes } from "./text-file.ts";
import { displayPath, fail } from "./results.ts";
import type { ToolPlan, ToolResult } from "./types.ts";

/**
 * Whether the file still holds what the model read. With the workspace's files (an editor's
 * buffers) that is the buffer, not the disk: an unsaved edit in the editor is a change, while a
 * disk that lags the buffer is not.
 */
async function freshness(ws: LocalWorkspace, abs: string): Promise<Freshness> {
  const f = ws.reads.check(abs);
  if (!ws.files || f === "unread" || f === "missing") return f;
  try {
    return hashBytes(await currentBytes(ws, abs)) === ws.reads.get(abs)?.hash ? "fresh" : "changed";
  } catch {
    return "changed";
  }
}

/** null when the file may be changed; otherwise the reason it may not, with what to do. */
export async function staleReason(ws: LocalWorkspace, abs: string): Promise<string | null> {
  const f = await freshness(ws, abs);
  const shown = displayPath(ws, abs);
  if (f === "unread") return `${shown} has not been read in this session: read it first, then retry, so you do not overwrite content you have not seen.`;
  if (f === "changed" && ws.files) return `${shown} changed in the editor since you read it (the user edited it): read it again, then redo the change.`;
  if (f === "changed") return `${shown} changed on disk since you read it (another program or the user edited it): read it again, then redo the change.`;
  if (f === "missing") return `${shown} was deleted since you read it. Check whether that was intended before recreating it.`;
  return null;
}

/**
 * null when the file still holds `planned`, the bytes a change was planned on; otherwise why the
 * plan no longer applies (the user or another program changed the file while the call was asked about).
 */
export async function changedSincePlanned(ws: LocalWorkspace, abs: string, planned: Uint8Array): Promise<string | null> {
  const stale = await staleReason(ws, abs);
  if (stale) return stale;
  let now: Buffer;
  try {
    now = await currentBytes(ws, abs);
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
  let how = "";
  if (ws.files) {
    // The editor puts it in its buffer (and saves it when it does): the disk may not change yet.
    await ws.files.writeText(abs, Buffer.from(after).toString("utf8"));
    let mtime = 0;
    try {
      mtime = statSync(abs).mtimeMs;
    } catch {}
    ws.reads.record(abs, after, mtime);
  } else {
    how = describeWrite(writeFileAtomic(abs, after), (p) => displayPath(ws, p));
    ws.reads.record(abs, after);
  }
  ws.edits.record({ path: abs, tool, toolUseId, before, after });
  // The change is made: losing /undo for one file must not turn it into a failure.
  await ws.onFileChanged?.(abs, before).catch(() => {});
  return how;
}
