// A shell glob in a command's arguments: the directory it lists, what it expands to right now (up
// to a bound), and its shape as path segments for comparing with rules without expanding it.
import { resolve } from "node:path";
import { climbs, depthSegments, globSegments, pathSegments, type Segment } from "./glob-segments.ts";
import { realPath } from "./path-facts.ts";
import type { ShellWord } from "./shell-words.ts";

/** The literal directory a glob starts from (`src` for `src/*.ts`), resolved against `cwd`. */
export function globDirectory(w: ShellWord, cwd: string): string {
  const segments = w.pattern.split("/");
  const first = segments.findIndex((s) => /(^|[^\\])[*?[]/.test(s));
  const dir = segments.slice(0, Math.max(first, 0)).join("/").replace(/\\(.)/g, "$1");
  return resolve(cwd, dir === "" && w.pattern.startsWith("/") ? "/" : dir || ".");
}

/** At most this many matches are looked at; past it, a glob is judged by its pattern alone. */
const EXPANSION_LIMIT = 500;

/**
 * What the glob matches now, as bash would expand it a moment later (through links to folders, as
 * bash does), up to a bound. `complete` is false when the bound cut it short.
 */
export function expandGlob(pattern: string, cwd: string): { matches: string[]; complete: boolean } {
  try {
    const matches: string[] = [];
    const glob = new Bun.Glob(pattern);
    const dot = pattern.split("/").some((s) => s.startsWith("."));
    for (const m of glob.scanSync({ cwd, dot, onlyFiles: false, absolute: true, followSymlinks: true })) {
      if (matches.length >= EXPANSION_LIMIT) return { matches, complete: false };
      matches.push(m);
    }
    return { matches, complete: true };
  } catch {
    return { matches: [], complete: false };
  }
}

/**
 * Every path the glob can expand to, as segments: its literal directory where it really is (links
 * followed), then the pattern's own segments. A `..` after a wildcard could climb anywhere, so such
 * a glob is taken to reach everything.
 */
export function globReach(w: ShellWord, cwd: string, fold: boolean): Segment[] {
  const segments = w.pattern.split("/");
  const first = segments.findIndex((s) => /(^|[^\\])[*?[]/.test(s));
  const rest = globSegments(segments.slice(Math.max(first, 0)).join("/"), { fold });
  if (climbs(rest)) return depthSegments(Infinity);
  return [...pathSegments(realPath(globDirectory(w, cwd)), fold), ...rest];
}
