// The walks of commands that print file contents as differences: `diff -r a b` and `git diff
// --no-index a b` compare two trees, and git's history views (`git log -p`, `git diff`, `git show`)
// print what tracked files held. A history view walks the repository (or the pathspecs it names);
// a rule counts for it only where git tracks files (see Walk.tracked), since history only holds
// what was committed. Checked against GNU diff: -x/--exclude match base names of files and
// folders alike, and symbolic links are followed unless --no-dereference.
import { statSync } from "node:fs";
import { isAbsolute, join, normalize, relative, resolve } from "node:path";
import type { NameSkip, PathSkip, Walk, WalkRoot } from "./types.ts";
import { hasWildcard } from "../paths/glob-segments.ts";
import { gitTopLevel, isInside } from "../paths/path-facts.ts";
import { literalWord, type ShellWord } from "../shell/shell-words.ts";
import { gitSync } from "../../workspace/git/run-git.ts";
import { has, isNameGlob, rootsOf, scanArgs, shellQuote, values, walk, type ArgSpec } from "./walk-args.ts";

const DIFF: ArgSpec = {
  short: "xXCUIFLSD",
  long: ["--exclude", "--exclude-from", "--context", "--unified", "--ignore-matching-lines", "--show-function-line", "--label", "--starting-file", "--from-file", "--to-file", "--ifdef", "--line-format", "--old-line-format", "--new-line-format", "--unchanged-line-format", "--old-group-format", "--new-group-format", "--changed-group-format", "--unchanged-group-format", "--horizon-lines", "--width", "--tabsize", "--color", "--palette"],
};

/** `diff a b`: the two trees (or files) it reads; entries of both when they are folders. */
export function diffWalk(args: ShellWord[], cwd: string | null): Walk | null {
  const a = scanArgs(args, DIFF);
  const operands = [...a.positionals, ...a.opts.filter((o) => (o.name === "--from-file" || o.name === "--to-file") && o.value).map((o) => o.value as ShellWord)];
  if (operands.length === 0) return null;
  const recursive = has(a, "-r", "--recursive");
  // without -r two folders are compared by the files directly in them
  const folders = operands.some((w) => isFolder(w, cwd));
  const skipNames: NameSkip[] = values(a, "-x", "--exclude").filter((v) => isNameGlob(v.text)).map((v) => ({ glob: v.text, dirs: true, files: true }));
  return walk("read", rootsOf(operands), {
    depth: !folders ? 0 : recursive ? Infinity : 1,
    followsLinks: recursive && folders && !has(a, "--no-dereference"),
    skipNames,
    leaveOut: (t) => `-x ${shellQuote(t.name)}`,
    unfollow: "add --no-dereference",
  });
}

const GIT_LOG: ArgSpec = { short: "nGSOL", long: ["--max-count", "--skip", "--since", "--after", "--until", "--before", "--author", "--committer", "--grep", "--format", "--pretty", "--encoding", "--date", "--diff-filter", "--relative", "--output"] };
const PATCH = /^(-p|--patch|-u|-U\d*|--unified(=.*)?|--word-diff(=.*)?|--color-words(=.*)?|-G.*|-S.*|--pickaxe-.*|--cc|-c|-m|--full-diff|--patch-with-stat|--patch-with-raw|--binary|--text|-a|--function-context|-W|--ext-diff)$/;
const NAMES = /^(--stat.*|--name-only|--name-status|--numstat|--shortstat|--summary|--raw|--dirstat.*|--compact-summary)$/;
const NO_PATCH = /^(-s|--no-patch|--quiet|--exit-code)$/;

/**
 * `git diff`, `git diff --no-index a b`, `git log -p`, `git show`: what they print of file
 * contents. `git` is the words after git's own options; `dir` its `-C`.
 */
export function gitDiffWalk(sub: string, words: ShellWord[], dir: ShellWord | undefined, cwd: string | null): Walk | null {
  const a = scanArgs(words, GIT_LOG);
  const flags = a.opts.map((o) => o.name);
  const base = cwd === null || dir?.dynamic ? null : resolve(cwd, dir?.text ?? ".");
  const at = (word: ShellWord): WalkRoot => (dir ? { word, dir } : { word });
  if (sub === "diff" && flags.includes("--no-index")) {
    const folders = a.positionals.some((w) => isFolder(w, base));
    return walk("read", a.positionals.map(at), { depth: folders ? Infinity : 0 });
  }
  const patch = flags.some((f) => PATCH.test(f));
  const names = flags.some((f) => NAMES.test(f));
  const quiet = flags.some((f) => NO_PATCH.test(f));
  // diff and show print patches unless told not to; log and whatchanged only when asked
  const prints = sub === "diff" || sub === "show" ? !quiet && !(names && !patch) : patch;
  const lists = !prints && (names || sub === "whatchanged");
  if (!prints && !lists) return null;
  // `git show REV:path` prints one blob, judged as a read of that path (read-only-commands.ts)
  const before = a.positionals.slice(0, a.beforeDashDash);
  if (sub === "show" && before.length > 0 && before.every((w) => !w.dynamic && w.text.includes(":")) && a.beforeDashDash === a.positionals.length) return null;
  // pathspecs: after `--`, or before it a word naming an existing path (git's own rule)
  const pathspecs = [...before.filter((w) => !w.dynamic && !w.text.startsWith(":") && exists(w, base)), ...a.positionals.slice(a.beforeDashDash)];
  const excludes = pathspecs.filter((w) => isExcludeMagic(w.text));
  const narrowing = pathspecs.filter((w) => !isExcludeMagic(w.text));
  const literal = narrowing.every((w) => !w.dynamic && !w.text.startsWith(":") && !hasWildcard(w.pattern));
  const top = base === null ? null : gitTopLevel(base);
  const roots: WalkRoot[] =
    narrowing.length > 0 && literal ? narrowing.map(at) : top === null ? [at({ text: "\0", pattern: "\0", dynamic: true, glob: false })] : [{ word: literalWord(top), implicit: true }];
  const skipPaths: PathSkip[] = excludes
    .map((w) => (w.dynamic ? null : w.text.replace(/^:(!|\^|\(exclude\))/, "")))
    .filter((rel): rel is string => rel !== null && rel !== "" && !rel.startsWith(":") && !isAbsolute(rel) && !hasWildcard(rel))
    .map((rel) => ({ dirsOnly: false, test: (abs, root) => isInside(abs, normalize(join(root.cwd, rel))) }));
  return walk(lists ? "list" : "read", roots, {
    skipPaths,
    leaveOut: (t) => (t.fromCwd === null ? null : `the pathspec ${shellQuote(`:!${t.fromCwd}`)}`),
    history: { tracked: (abs, name) => (top === null ? true : tracked(top, abs, name)) },
  });
}

function isExcludeMagic(text: string): boolean {
  return text.startsWith(":!") || text.startsWith(":^") || text.startsWith(":(exclude)");
}

function isFolder(w: ShellWord, cwd: string | null): boolean {
  if (w.dynamic) return true;
  try {
    return statSync(resolve(cwd ?? "/", w.text)).isDirectory();
  } catch {
    return false;
  }
}

function exists(w: ShellWord, cwd: string | null): boolean {
  try {
    statSync(resolve(cwd ?? "/", w.text));
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether git tracks a file at or below `abs` (or, for a rule on a name, one with that name) in
 * the repository at `top`. When git cannot say, it is taken to track one.
 */
function tracked(top: string, abs: string | null, name: string | null): boolean {
  const spec = abs !== null ? relative(top, abs) || "." : name !== null ? `:(glob)**/${name}` : null;
  if (spec === null) return true;
  // outside the repository: no history holds it
  if (spec.startsWith("../") || spec === ".." || isAbsolute(spec)) return false;
  const listing = gitSync(["ls-files", "-z", "--", spec], { cwd: top, timeoutMs: 2000 });
  if (listing === null) return true;
  return listing.length > 0;
}
