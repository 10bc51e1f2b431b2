// Which secret-bearing files a contents walk that starts at the project root (or above it, or
// outside the project) would really read, looked up rather than assumed: the start folder is
// listed once, and only what sits directly in it counts (see walk-coverage.ts secretsReached).
//
// Known limit: a secret file deeper down (`config/.env`, `deploy/keys/prod.pem`) is not looked
// for, so a bash walk does not ask about it; listing whole trees on every decision would make
// deciding slow, which decide() cannot be. The grep tool checks every file it searches and leaves
// such files out by itself (search-filter.ts), which is what the reasons point the model to.
import { opendirSync } from "node:fs";
import { join } from "node:path";
import type { Walk } from "./types.ts";
import { gitTopLevel, secretNameReason } from "../paths/path-facts.ts";
import { gitSync } from "../../workspace/git/run-git.ts";

/** A secret-bearing entry: `given` when it is a start the command names (read whatever ignore files say). */
export type SecretEntry = { name: string; abs: string; dir: boolean; given?: boolean };

/** At most this many entries of a start folder are looked at; past it, what is there is not known. */
export const SECRET_SCAN_LIMIT = 5_000;

/** The entries directly in `dir` whose name sensitiveReason flags; [] when it is no folder, null when it cannot be told. */
export function secretEntries(dir: string): SecretEntry[] | null {
  let handle: ReturnType<typeof opendirSync>;
  try {
    handle = opendirSync(dir);
  } catch (e) {
    // nothing there, or a file (whose own name the caller checks); a folder we cannot read is unknown
    const code = (e as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? [] : null;
  }
  const found: SecretEntry[] = [];
  try {
    for (let seen = 0; ; seen++) {
      const entry = handle.readSync();
      // in name order, so a reason reads the same on every disk
      if (entry === null) return found.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      if (seen >= SECRET_SCAN_LIMIT) return null;
      if (secretNameReason(entry.name)) found.push({ name: entry.name, abs: join(dir, entry.name), dir: entry.isDirectory() });
    }
  } catch {
    return null;
  } finally {
    handle.closeSync();
  }
}

/**
 * Those of `entries` (all directly in the folder `dir`) that the walk leaves out by git's view:
 * ignored by git for a walker that honours .gitignore, untracked for git grep. One git call; an
 * error (no work tree, no git) leaves nothing out. The user's global excludes file and case
 * folding are switched off, as the walkers may not share them; a file git tracks is never
 * ignored, as git says (rg would skip it: asking then is the safe side).
 */
export function gitLeftOut(walk: Walk, dir: string, entries: SecretEntry[]): Set<string> {
  const out = new Set<string>();
  const skips = walk.gitSkips;
  const listed = entries.filter((e) => !e.given);
  if (!skips || listed.length === 0) return out;
  // ag reads only the .gitignore of the folders it walks: the start must be the top of the work tree
  if (skips.simple && gitTopLevel(dir) !== dir) return out;
  const config = ["-c", "core.excludesFile=/dev/null", "-c", "core.ignoreCase=false"];
  const names = listed.map((e) => e.name);
  if (skips.what === "untracked") {
    const listing = gitSync([...config, "ls-files", "-z", "--", ...names.map((n) => `:(literal)${n}`)], { cwd: dir, timeoutMs: 2000 });
    if (listing === null) return out;
    const tracked = listing.split("\0").filter((p) => p !== "");
    for (const e of listed) if (!tracked.some((p) => p === e.name || p.startsWith(`${e.name}/`))) out.add(e.abs);
    return out;
  }
  // 0: some are ignored, 1: none is (null, as for a failure: nothing is left out)
  const ignored = gitSync([...config, "check-ignore", "--verbose", "-z", "--stdin"], { cwd: dir, stdin: names.map((n) => `${n}\0`).join(""), timeoutMs: 2000 });
  if (ignored === null) return out;
  const fields = ignored.split("\0");
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [source, , pattern, path] = fields.slice(i, i + 4) as [string, string, string, string];
    // a match of a `!` pattern keeps the path in
    if (pattern.startsWith("!")) continue;
    if (skips.simple && !(source === ".gitignore" && /^[^/\\[\]!]+$/.test(pattern) && !pattern.includes("**"))) continue;
    const entry = listed.find((e) => e.name === path);
    if (entry) out.add(entry.abs);
  }
  return out;
}
