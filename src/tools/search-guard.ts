// Keeps what the permission rules hide out of a grep or glob over a directory. Where a rule names
// paths below it, the files the search would cover are listed first and each one is checked, so
// the number left out does not depend on the pattern (a count of denied files that *matched*
// would answer yes/no questions about their contents). grep then tells ripgrep not to open them
// (while they fit on its command line: past MAX_EXCLUSIONS ripgrep opens them, and only the check
// of every result keeps their lines out), and still checks every result, which also catches a
// file created between the listing and the search.
// Where no rule names paths, nothing is listed: grep's only asks are then the built-in
// secret-bearing names (.env, *.pem, ...), which ripgrep leaves out by name; those of them that
// hold a match are named afterwards (matchedLeftOut), so the model can ask for one by its path.
import { dirname, relative } from "node:path";
import { runRipgrep } from "../workspace/ripgrep.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import { displayPath } from "./results.ts";
import { SEARCH_TIMEOUT_MS } from "./search-scope.ts";
import type { SearchSkip, ToolContext } from "./types.ts";
import { trimEndChars } from "../text/trim-chars.ts";

/** More exclusions than this would make ripgrep's command line unwieldy; past it ripgrep opens the files, and the result check keeps them out. */
const MAX_EXCLUSIONS = 500;

export type SearchHiding = {
  /** Directory ripgrep runs in: exclusions are anchored there. */
  cwd: string;
  /** `--glob !/path` arguments, to go after any glob of the model's own (the last match wins). */
  excludeArgs: string[];
  /** Every file left out, by absolute path. */
  skipped: Map<string, SearchSkip>;
  /** Files the search covers, none left out. */
  kept: string[];
  /** Whether a result path may be shown; a path left out here joins `skipped`. */
  keep(abs: string): boolean;
  /** Names ripgrep was told to leave out instead of listing (see matchedLeftOut). */
  leftOutNames: string[];
};

/** The permission engine's search filter also says what ripgrep can leave out without a listing. */
type GuardFilter = ReturnType<NonNullable<ToolContext["searchGuard"]>> & { leaveOut?: { names: string[]; paths: string[] } };

/**
 * Lists what a search with `selection` (ripgrep's file-selecting arguments) covers under `dir`,
 * and what the permission rules leave out of it. Null when no guard is set or nothing can be hidden.
 */
export async function hideFromSearch(
  ws: LocalWorkspace,
  ctx: ToolContext,
  tool: "grep" | "glob",
  dir: string,
  selection: string[],
): Promise<SearchHiding | null> {
  const filter = ctx.searchGuard?.(tool, dir) as GuardFilter | undefined;
  if (!filter) return null;
  // Exclusions are anchored at ripgrep's working directory, which must contain `dir`.
  const cwd = dir === ws.cwd || dir.startsWith(ws.cwd.endsWith("/") ? ws.cwd : `${ws.cwd}/`) ? ws.cwd : dir;
  if (!filter.active) {
    const names = filter.leaveOut?.names ?? [];
    const paths = (filter.leaveOut?.paths ?? []).filter((p) => p.startsWith(cwd.endsWith("/") ? cwd : `${cwd}/`));
    if (names.length === 0 && paths.length === 0) return null;
    const skipped = new Map<string, SearchSkip>();
    const keep = (abs: string) => {
      const why = filter.skip(abs);
      if (why) skipped.set(abs, why);
      return !why;
    };
    // a glob without a slash matches a name at any depth, files and folders alike
    const excludeArgs = [...names.map((g) => `!${g}`), ...paths.map((p) => `!/${escapeRipgrepGlob(relative(cwd, p))}`)].flatMap((g) => ["--glob", g]);
    return { cwd, excludeArgs, skipped, kept: [], keep, leftOutNames: names };
  }
  const r = await runRipgrep(ws.ripgrepPath(), [...selection, "--files", dir], { cwd, timeoutMs: SEARCH_TIMEOUT_MS, signal: ctx.signal });
  const listed = r.stdout.split("\n").filter(Boolean);
  const skipped = new Map<string, SearchSkip>();
  const kept: string[] = [];
  for (const file of listed) {
    const why = filter.skip(file);
    if (why) skipped.set(file, why);
    else kept.push(file);
  }
  const known = new Set(listed);
  const keep = (abs: string) => {
    const why = skipped.get(abs) ?? (known.has(abs) ? null : filter.skip(abs));
    if (why) skipped.set(abs, why);
    return !why;
  };
  const excluded = skipped.size > 0 ? exclusions(dir, listed, skipped) : [];
  const excludeArgs = excluded.length <= MAX_EXCLUSIONS ? excluded.flatMap((p) => ["--glob", `!/${escapeRipgrepGlob(relative(cwd, p))}`]) : [];
  return { cwd, excludeArgs, skipped, kept, keep, leftOutNames: [] };
}

/**
 * Which files the left-out names hid hold a match for `matchArgs` (the pattern and its flags):
 * each that reading would ask about joins `hiding.skipped`, so the result names it; a name that
 * matched tells no more than the ask would. Returned are those that may be read after all
 * (`.env.example`, a file an allow rule names), for the caller to search by path. A search by
 * type is not checked, since ripgrep's types combine by "or" with the one used here.
 */
export async function matchedLeftOut(ws: LocalWorkspace, ctx: ToolContext, hiding: SearchHiding, dir: string, selection: string[], matchArgs: string[]): Promise<string[]> {
  if (hiding.leftOutNames.length === 0 || selection.includes("--type")) return [];
  const types = hiding.leftOutNames.flatMap((g) => ["--type-add", `khaelorsecret:${g}`]);
  // a type selects the hidden files it names; the search itself skipped them unless told otherwise
  const hidden = selection.includes("--hidden") ? [] : ["--glob", "!.*"];
  const r = await runRipgrep(ws.ripgrepPath(), [...selection, ...types, "--type", "khaelorsecret", ...hidden, "--files-with-matches", ...matchArgs, "--", dir], {
    cwd: hiding.cwd,
    timeoutMs: SEARCH_TIMEOUT_MS,
    signal: ctx.signal,
  });
  return r.stdout.split("\n").filter((file) => file !== "" && hiding.keep(file));
}

/**
 * The fewest paths that cover every skipped file and nothing else listed: a directory whose listed
 * files are all skipped is excluded whole (`secrets/`), other skipped files one by one.
 */
function exclusions(dir: string, listed: string[], skipped: Map<string, SearchSkip>): string[] {
  const ancestors = (file: string) => {
    const out: string[] = [];
    for (let d = dirname(file); d.length > dir.length && d !== dirname(d); d = dirname(d)) out.push(d);
    return out.reverse(); // outermost first
  };
  const total = new Map<string, number>();
  const hidden = new Map<string, number>();
  for (const file of listed) {
    for (const d of ancestors(file)) {
      total.set(d, (total.get(d) ?? 0) + 1);
      if (skipped.has(file)) hidden.set(d, (hidden.get(d) ?? 0) + 1);
    }
  }
  const out = new Set<string>();
  for (const file of skipped.keys()) {
    const whole = ancestors(file).find((d) => hidden.get(d) === total.get(d));
    out.add(whole ?? file);
  }
  return [...out];
}

/** A literal path as a ripgrep glob: glob characters and trailing spaces escaped. */
function escapeRipgrepGlob(path: string): string {
  const escaped = path.replace(/[\\*?[\]{}]/g, "\\$&");
  const kept = trimEndChars(escaped, " ");
  return kept + "\\ ".repeat(escaped.length - kept.length);
}

/** One line per kind of file left out, for the end of the result. */
export function skippedNotes(ws: LocalWorkspace, dir: string, skipped: Map<string, SearchSkip>, verb: "searched" | "listed"): string[] {
  const denied: SearchSkip[] = [];
  const asks: Array<[string, SearchSkip]> = [];
  for (const [path, why] of skipped) {
    if (why.kind === "denied") denied.push(why);
    else asks.push([path, why]);
  }
  const files = (n: number) => (n === 1 ? "1 file" : `${n} files`);
  const were = (n: number) => (n === 1 ? "was" : "were");
  const notes: string[] = [];
  if (denied.length > 0) {
    // Their names stay hidden too: a deny rule hides the files, not just their contents.
    notes.push(
      `${files(denied.length)} under ${displayPath(ws, dir)} ${were(denied.length)} not ${verb}: denied by ${distinct(denied.map((d) => d.because))}. ` +
        "Do not try to reach them another way; the user can change the rule if they are needed",
    );
  }
  if (asks.length > 0) {
    const names = asks.slice(0, 5).map(([p]) => displayPath(ws, p));
    const more = asks.length > names.length ? ` and ${asks.length - names.length} more` : "";
    notes.push(
      `${files(asks.length)} ${were(asks.length)} not searched because reading ${asks.length === 1 ? "it" : "them"} asks the user first ` +
        `(${distinct(asks.map(([, w]) => w.because))}): ${names.join(", ")}${more}. Grep or read one by its path to ask`,
    );
  }
  return notes;
}

function distinct(reasons: string[]): string {
  const unique = [...new Set(reasons)];
  return unique.length > 3 ? `${unique.slice(0, 3).join("; ")}; and ${unique.length - 3} more` : unique.join("; ");
}
