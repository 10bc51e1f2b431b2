// A failed file-system call, said in one sentence a user can act on: what went wrong, with which
// path, and what to do about it. Never a stack trace: these are the user's disk, not our bug.
import { statSync } from "node:fs";
import { dirname } from "node:path";

type Errno = NodeJS.ErrnoException;

export const errnoOf = (e: unknown): string | undefined => (e as Errno | null)?.code;

/** ENOSPC and EDQUOT: nothing more fits. */
export const isDiskFull = (e: unknown): boolean => errnoOf(e) === "ENOSPC" || errnoOf(e) === "EDQUOT";

/** The errors a user's file system gives for a place KHAELOR cannot write; anything else is ours. */
const USER_FS_CODES = new Set(["ENOSPC", "EDQUOT", "EROFS", "EACCES", "EPERM", "ENOTDIR", "EEXIST", "EISDIR", "EIO", "ENAMETOOLONG", "ELOOP", "EMLINK", "EFBIG"]);
export const isUserFsError = (e: unknown): boolean => USER_FS_CODES.has(errnoOf(e) ?? "");

/** The first ancestor of `path` that exists but is not a directory (KHAELOR_HOME set to a file). */
function fileInTheWay(path: string): string | null {
  for (let p = path; ; p = dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) return p;
      return null;
    } catch {
      // Not there: look one level up.
    }
    if (dirname(p) === p) return null;
  }
}

/** Why, in a few words: "the disk is full", "the file system is read-only", … */
export function fsReason(e: unknown): string {
  switch (errnoOf(e)) {
    case "ENOSPC":
      return "the disk is full";
    case "EDQUOT":
      return "the disk quota is exceeded";
    case "EROFS":
      return "the file system is read-only";
    case "EACCES":
      return "permission denied";
    case "EPERM":
      return "the operation is not permitted (an append-only or immutable file?)";
    case "EIO":
      return "an I/O error";
    default:
      return (e as Error)?.message ?? String(e);
  }
}

/**
 * One sentence about a place KHAELOR could not write: `path` is what it tried to create or open,
 * `what` names it for the user ("the session directory"), `todo` is the way out.
 */
export function explainFsError(e: unknown, path: string, what: string, todo?: string): string {
  const code = errnoOf(e);
  const actual = (e as Errno | null)?.path ?? path;
  if (code === "ENOTDIR" || code === "EEXIST") {
    const file = fileInTheWay(actual) ?? fileInTheWay(path);
    if (file) return `cannot create ${what} ${path}: ${file} is a file, not a directory. Move it away, or point KHAELOR_HOME at a directory.`;
  }
  const fallback =
    code === "ENOSPC" || code === "EDQUOT"
      ? "Free some space and try again."
      : code === "EROFS" || code === "EACCES" || code === "EPERM"
        ? `Make it writable, or set KHAELOR_HOME to a directory you can write.`
        : "Check the disk and try again.";
  const at = actual !== path ? ` (at ${actual})` : "";
  return `cannot write ${what} ${path}: ${fsReason(e)}${at}. ${todo ?? fallback}`;
}
