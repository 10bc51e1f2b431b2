// Read deny rules that are globs with no fixed place (`**/.env`, `*.pem`): bubblewrap and Seatbelt
// hide paths, not patterns, so the files such a rule matches in the project are found at each
// command's start and hidden like any named path. A bounded walk: .git and node_modules are not
// entered (they hold no secrets of the user's own), and a project too large to look through in
// MAX_ENTRIES leaves the rule said as not (fully) enforced.
import { readdirSync } from "node:fs";
import { join } from "node:path";

export const MAX_ENTRIES = 20_000;
const SKIP = new Set([".git", "node_modules"]);

export type GlobMatches = { paths: string[]; /** Rules whose walk stopped at MAX_ENTRIES. */ partial: string[] };

/**
 * The project's paths each pattern matches, relative patterns as gitignore reads them: one without
 * a slash matches a name at any depth (`*.pem`), one with a slash from the project root.
 */
export function matchReadGlobs(root: string, specs: string[], maxEntries = MAX_ENTRIES): GlobMatches {
  if (specs.length === 0) return { paths: [], partial: [] };
  const globs = specs.map((spec) => {
    const rel = spec.replace(/^\.\//, "").replace(/^\/(?!\/)/, "");
    return new Bun.Glob(rel.includes("/") ? rel : `**/${rel}`);
  });
  const paths: string[] = [];
  let seen = 0;
  let stopped = false;
  const walk = (dir: string, rel: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (++seen > maxEntries) {
        stopped = true;
        return;
      }
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (globs.some((g) => g.match(r))) {
        paths.push(join(dir, e.name));
        continue;
      }
      if (e.isDirectory() && !SKIP.has(e.name)) walk(join(dir, e.name), r);
      if (stopped) return;
    }
  };
  walk(root, "");
  return { paths, partial: stopped ? specs : [] };
}
