// Shared by grep and glob: where to search, and whether the model asked for hidden files.
import { statSync } from "node:fs";
import type { LocalWorkspace } from "../workspace/types.ts";
import { displayPath } from "./results.ts";
import { didYouMean } from "./suggest-paths.ts";

export const SEARCH_TIMEOUT_MS = 30_000;

export type Scope = { abs: string; isDir: boolean } | { error: string };

export function searchScope(ws: LocalWorkspace, path: string | undefined): Scope {
  const abs = path ? ws.resolve(path) : ws.cwd;
  try {
    return { abs, isDir: statSync(abs).isDirectory() };
  } catch {
    return { error: `Path not found: ${displayPath(ws, abs)}.${didYouMean(ws, abs)}` };
  }
}

/** Hidden files are skipped unless a path or glob names one (".github/**", ".env*"). */
export const namesHidden = (...parts: Array<string | undefined>): boolean =>
  parts.some((p) => !!p && p.split(/[\\/]/).some((seg) => seg.startsWith(".") && seg !== "." && seg !== ".."));

/** Arguments every search shares: honour .gitignore even outside a git repo, never search .git. */
export function baseArgs(hidden: boolean): string[] {
  return ["--no-config", "--no-require-git", ...(hidden ? ["--hidden", "--glob", "!.git"] : [])];
}

/** Newest first by modification time; files that vanished meanwhile sort last. */
export function byMtimeDesc(paths: string[]): string[] {
  const t = new Map<string, number>();
  for (const p of paths) {
    try {
      t.set(p, statSync(p).mtimeMs);
    } catch {
      t.set(p, 0);
    }
  }
  return [...paths].sort((a, b) => t.get(b)! - t.get(a)! || a.localeCompare(b));
}
