// The checks and bookkeeping shared by write and edit: refuse to overwrite what the model has not
// seen, write atomically, remember the new state as read, and journal the change for undo.
import { writeFileAtomic } from "../workspace/atomic-write.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import { displayPath } from "./results.ts";

/** null when the file may be changed; otherwise the reason it may not, with what to do. */
export function staleReason(ws: LocalWorkspace, abs: string): string | null {
  const f = ws.reads.check(abs);
  const shown = displayPath(ws, abs);
  if (f === "unread") return `${shown} has not been read in this session: read it first, then retry, so you do not overwrite content you have not seen.`;
  if (f === "changed") return `${shown} changed on disk since you read it (another program or the user edited it): read it again, then redo the change.`;
  if (f === "missing") return `${shown} was deleted since you read it. Check whether that was intended before recreating it.`;
  return null;
}

export async function commitChange(ws: LocalWorkspace, abs: string, before: Uint8Array | null, after: Uint8Array, tool: string, toolUseId: string): Promise<void> {
  writeFileAtomic(abs, after);
  ws.reads.record(abs, after);
  ws.edits.record({ path: abs, tool, toolUseId, before, after });
  // The change is made: losing /undo for one file must not turn it into a failure.
  await ws.onFileChanged?.(abs, before).catch(() => {});
}
