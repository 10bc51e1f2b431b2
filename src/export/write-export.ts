// An export written to a file: whole or not at all (a temporary file renamed over the target), so a
// full disk or a directory that cannot be written leaves what was there as it was, and the error
// says where and why in words.
import { errnoOf, fsReason } from "../workspace/fs-errors.ts";
import { writeFileAtomic } from "../workspace/atomic-write.ts";
import { statSync } from "node:fs";

export type WriteResult = { ok: true; path: string } | { ok: false; error: string };

export function writeExport(path: string, text: string): WriteResult {
  try {
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory()) return { ok: false, error: `cannot write the export to ${path}: it is a directory. Name a file in it.` };
    writeFileAtomic(path, new TextEncoder().encode(text));
    return { ok: true, path };
  } catch (e) {
    const code = errnoOf(e);
    const why = code === "ENOTDIR" || code === "EEXIST" ? "part of its directory path is a file, not a directory" : code === "ENOENT" ? "its directory does not exist and cannot be made" : fsReason(e);
    return { ok: false, error: `cannot write the export to ${path}: ${why}. Nothing was written there and the session is unchanged; choose another path.` };
  }
}
