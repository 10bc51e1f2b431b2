// Everything under KHAELOR's data directory is the user's alone: directories 0700, files 0600.
// Logs, spill files and history hold what commands printed and what the user typed; on a shared
// machine the default umask (022) would let every local user read them.
import { chmodSync, mkdirSync, statSync } from "node:fs";
import { dirname, relative, sep } from "node:path";

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates `dir` (and its parents) 0700, and tightens the levels from `root` (the data root) down that are looser. */
export function ensurePrivateDir(dir: string, root?: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const rel = root === undefined ? ".." : relative(root, dir);
  if (rel.startsWith("..") || rel.startsWith(sep)) {
    tighten(dir);
    return;
  }
  for (let d = dir; ; d = dirname(d)) {
    tighten(d);
    if (d === root || dirname(d) === d) break;
  }
}

function tighten(path: string): void {
  try {
    const st = statSync(path);
    if ((st.mode & 0o077) !== 0 && st.uid === process.getuid?.()) chmodSync(path, st.mode & 0o700);
  } catch {
    // Not ours or gone: nothing to tighten.
  }
}
