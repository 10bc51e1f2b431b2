// A shell glob in a command's arguments: the directory it lists, what it expands to right now (up
// to a bound), and its shape as path segments for comparing with rules without expanding it.
import { lstatSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { climbs, depthSegments, globSegments, pathSegments, type Segment } from "../paths/glob-segments.ts";
import { realPath } from "../paths/path-facts.ts";
import { compileGlob } from "../rules/wildcard.ts";
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
/** At most this many directory entries are read to expand one glob: decide() is synchronous. */
export const GLOB_VISIT_LIMIT = 10_000;

/** Directory entries read by expandGlob (since the process started) and how often it stopped at the limit; for tests. */
export const globScans = { visited: 0, capped: 0 };

export type GlobExpansion = {
  matches: string[];
  /** False when the matches are not all there is: too many, cut off, or a `**` that may recurse. */
  complete: boolean;
  /** Stopped after GLOB_VISIT_LIMIT entries: what it would match is not known. */
  capped: boolean;
};

/**
 * What the glob matches now, as bash would expand it a moment later, up to a bound. As in bash
 * without globstar (the default, and how the tools run commands), `**` is `*`: one level, so a
 * link to / cannot make it walk the whole disk. A shell with globstar (or zsh) recurses there,
 * which the concrete matches cannot show, so such a glob is also judged by its pattern, in which
 * `**` spans any depth (complete: false); its `**\/` matching no folder at all is expanded too.
 * Links to folders are followed one level at a time, as bash does, and every entry read counts
 * towards GLOB_VISIT_LIMIT.
 */
export function expandGlob(pattern: string, cwd: string): GlobExpansion {
  const variants = pattern.includes("**") ? starVariants(pattern) : [pattern];
  const out: GlobExpansion = { matches: [], complete: !pattern.includes("**"), capped: false };
  const budget = { left: GLOB_VISIT_LIMIT };
  for (const variant of variants) {
    const r = expandOne(variant, cwd, budget);
    for (const m of r.matches) if (!out.matches.includes(m)) out.matches.push(m);
    if (r.capped) {
      globScans.capped++;
      return { matches: out.matches, complete: false, capped: true };
    }
    if (!r.complete || out.matches.length > EXPANSION_LIMIT) return { matches: out.matches.slice(0, EXPANSION_LIMIT), complete: false, capped: false };
  }
  return out;
}

/** `a/**\/b` as bash without globstar reads it (`a/*\/b`) and with its `**\/` matching nothing (`a/b`). */
function starVariants(pattern: string): string[] {
  const one = pattern.replace(/(^|[^\\])\*\*+/g, "$1*");
  const none = pattern.replace(/(^|\/)\*\*+\//g, "$1").replace(/(^|[^\\])\*\*+/g, "$1*");
  return one === none ? [one] : [one, none];
}

function expandOne(pattern: string, cwd: string, budget: { left: number }): { matches: string[]; complete: boolean; capped: boolean } {
  const absolute = pattern.startsWith("/");
  const segments = pattern.split("/").filter((seg, i, all) => seg !== "" || i === all.length - 1);
  // a trailing slash (`s*/`) matches folders only
  const dirsOnly = segments[segments.length - 1] === "";
  if (dirsOnly) segments.pop();
  let current = [absolute ? "/" : resolve(cwd)];
  const WILD = /(^|[^\\])[*?[]/;
  for (const [i, seg] of segments.entries()) {
    const last = i === segments.length - 1;
    const next: string[] = [];
    if (!WILD.test(seg)) {
      const name = seg.replace(/\\(.)/g, "$1");
      for (const dir of current) {
        const p = join(dir, name);
        if ((last && !dirsOnly) ? exists(p) : isFolder(p)) next.push(p);
      }
    } else {
      const re = { test: compileGlob(seg) };
      const dots = seg.startsWith(".") || seg.startsWith("\\.");
      for (const dir of current) {
        let names: string[];
        try {
          names = readdirSync(dir);
        } catch {
          continue;
        }
        for (const name of names) {
          globScans.visited++;
          if (--budget.left < 0) return { matches: [], complete: false, capped: true };
          if ((name.startsWith(".") && !dots) || name === "." || name === ".." || !re.test(name)) continue;
          const p = join(dir, name);
          if (last && !dirsOnly ? true : isFolder(p)) next.push(p);
          if (last && next.length > EXPANSION_LIMIT) return { matches: next, complete: false, capped: false };
        }
      }
    }
    current = next;
    if (current.length === 0) break;
  }
  return { matches: current.sort(), complete: true, capped: false };
}

function isFolder(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
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
