// The walks of content searches: grep -r, rg, ag, ack, git grep (and git ls-files, which lists the
// same tree); diff and git's diff and history views are in ./diff-walks.ts. Exclusions are trusted only in the forms whose meaning was checked against the tools:
// grep's --exclude-dir/--exclude match base names (GNU and BSD grep alike, and only without a
// slash); rg's `-g '!name'` matches a base name at any depth, while a glob with a slash is matched
// against the path relative to rg's working directory, so it counts only when rg starts there.
import { existsSync } from "node:fs";
import { isAbsolute, join, normalize, resolve } from "node:path";
import type { NameSkip, PathSkip, Walk } from "./types.ts";
import { diffWalk, gitDiffWalk } from "./diff-walks.ts";
import { gitTopLevel, isInside, realPath } from "../paths/path-facts.ts";
import { LIMITS, readRegularText } from "../../workspace/safe-read.ts";
import { trimEndChars } from "../../text/trim-chars.ts";
import { hasWildcard, namesMayMatch } from "../paths/glob-segments.ts";
import { literalWord, type ShellWord } from "../shell/shell-words.ts";
import { cwdRoot, has, isNameGlob, lastNumber, rootsOf, scanArgs, shellQuote, values, walk, type ArgSpec } from "./walk-args.ts";

const GREP: ArgSpec = {
  short: "ABCDdefm",
  long: ["--regexp", "--file", "--max-count", "--label", "--include", "--exclude", "--exclude-dir", "--exclude-from", "--context", "--after-context", "--before-context", "--directories", "--devices", "--binary-files", "--group-separator"],
};
const RG: ArgSpec = {
  short: "efEmjgdtTABCMr",
  long: [
    "--regexp", "--file", "--encoding", "--max-count", "--threads", "--glob", "--iglob", "--max-depth", "--type", "--type-not", "--type-add", "--type-clear",
    "--after-context", "--before-context", "--context", "--max-columns", "--replace", "--pre", "--pre-glob", "--dfa-size-limit", "--engine", "--regex-size-limit",
    "--ignore-file", "--max-filesize", "--color", "--colors", "--context-separator", "--field-context-separator", "--field-match-separator", "--hostname-bin",
    "--hyperlink-format", "--path-separator", "--sort", "--sortr", "--generate",
  ],
};
const AG: ArgSpec = { short: "ABCmGgpW", long: ["--after", "--before", "--context", "--max-count", "--file-search-regex", "--ignore", "--ignore-dir", "--depth", "--path-to-ignore", "--pager", "--workers", "--width"] };
const ACK: ArgSpec = { short: "ABCm", long: ["--after-context", "--before-context", "--context", "--max-count", "--ignore-dir", "--noignore-dir", "--ignore-file", "--type-add", "--type-set", "--type-del", "--match", "--output", "--pager", "--ackrc", "--files-from"] };

export function searchWalk(name: string, args: ShellWord[], cwd: string | null): Walk | null {
  switch (name) {
    case "diff":
      return diffWalk(args, cwd);
    case "grep":
    case "egrep":
    case "fgrep":
      return grepWalk(args);
    case "rg":
      return rgWalk(args);
    case "ag":
    case "ack":
      return agAckWalk(name, args);
    case "git":
      return gitWalk(args, cwd);
    default:
      return null;
  }
}

function grepWalk(words: ShellWord[]): Walk {
  const a = scanArgs(words, GREP);
  const follows = has(a, "-R", "--dereference-recursive");
  const recursive = follows || has(a, "-r", "--recursive") || values(a, "-d", "--directories").some((v) => v.text === "recurse");
  const files = has(a, "-e", "-f", "--regexp", "--file") ? a.positionals : a.positionals.slice(1);
  // without -r and without files grep reads stdin
  const roots = files.length > 0 ? rootsOf(files) : recursive ? [cwdRoot()] : [];
  // for files the last matching --include/--exclude wins, so an --exclude counts after every --include
  const lastInclude = Math.max(-1, ...values(a, "--include").map((v) => v.at));
  const skipNames: NameSkip[] = [
    ...values(a, "--exclude-dir").filter((v) => isNameGlob(v.text)).map((v) => ({ glob: v.text, dirs: true, files: false })),
    ...values(a, "--exclude").filter((v) => isNameGlob(v.text) && v.at > lastInclude).map((v) => ({ glob: v.text, dirs: false, files: true })),
  ];
  // a file no --include or --exclude matches is read unless the first of them is an --include
  const filters = a.opts.filter((o) => o.name === "--include" || o.name === "--exclude");
  const includes = filters.filter((o) => o.name === "--include");
  const whitelist = filters[0]?.name === "--include" && includes.every((o) => o.value && !o.value.dynamic && isNameGlob(o.value.text));
  return walk("read", roots, {
    depth: recursive ? Infinity : 0,
    followsLinks: follows,
    skipNames,
    ...(whitelist ? { onlyNames: includes.map((o) => ({ glob: (o.value as ShellWord).text, dirs: false, files: true })) } : {}),
    leaveOut: (t) => {
      const n = shellQuote(t.name);
      return t.kind === "dir" ? `--exclude-dir=${n}` : t.kind === "file" ? `--exclude=${n}` : `--exclude=${n} --exclude-dir=${n}`;
    },
    unfollow: "use -r instead of -R, which does not follow them",
    tool: "grep",
  });
}

/**
 * The arguments a ripgrep config adds before the command's own: none with --no-config or no
 * RIPGREP_CONFIG_PATH in this process's environment (a command that sets it is not read-only),
 * null when the file cannot be read.
 */
function rgConfig(words: ShellWord[]): ShellWord[] | null {
  const path = process.env.RIPGREP_CONFIG_PATH;
  if (!path || scanArgs(words, RG).opts.some((o) => o.name === "--no-config")) return [];
  try {
    // one argument per line; blank lines and `#` comments are skipped
    const lines = readRegularText(path, LIMITS.smallConfig).split(/\r?\n/).map((l) => l.trim());
    return lines.filter((l) => l !== "" && !l.startsWith("#")).map(literalWord);
  } catch {
    return null;
  }
}

function rgWalk(command: ShellWord[]): Walk {
  const config = rgConfig(command);
  const words = [...(config ?? []), ...command];
  const a = scanArgs(words, RG);
  const patternFirst = !has(a, "-e", "-f", "--regexp", "--file", "--files", "--type-list");
  const paths = patternFirst ? a.positionals.slice(1) : a.positionals;
  const unrestricted = a.opts.filter((o) => o.name === "-u" || o.name === "--unrestricted").length;
  const last = (names: string[], negations: string[]) => a.opts.filter((o) => names.includes(o.name) || negations.includes(o.name)).pop();
  // --glob-case-insensitive makes every -g an --iglob
  const globCase = last(["--glob-case-insensitive"], ["--no-glob-case-insensitive"])?.name === "--glob-case-insensitive";
  const globs = a.opts
    .filter((o) => ["-g", "--glob", "--iglob"].includes(o.name) && o.value && !o.value.dynamic)
    .map((o) => ({ text: (o.value as ShellWord).text, at: o.at, ignoreCase: o.name === "--iglob" || globCase }));
  // the last glob that matches a path decides, so an inclusion after an exclusion can undo it
  const includes = globs.filter((g) => !g.text.startsWith("!"));
  const skipNames: NameSkip[] = [];
  const skipPaths: PathSkip[] = [];
  for (const g of globs) {
    if (!g.text.startsWith("!")) continue;
    const later = includes.filter((i) => i.at > g.at);
    const exclusion = rgExclusion(g.text.slice(1), g.ignoreCase);
    if (!exclusion) continue;
    // a folder left out whole is never entered, so only an inclusion that can match its own name undoes that
    const lastName = (glob: string) => trimEndChars(glob, "/").split("/").pop() ?? "";
    const undone = exclusion.whole && exclusion.kind === "name" ? later.some((i) => namesMayMatch(lastName(i.text), exclusion.skip.glob)) : later.length > 0;
    if (undone) continue;
    if (exclusion.kind === "name") skipNames.push(exclusion.skip);
    else skipPaths.push(exclusion.skip);
  }
  // with a positive glob, a file that no glob matches is not searched; the last glob matching it decides
  const unknownGlob = a.opts.some((o) => ["-g", "--glob", "--iglob"].includes(o.name) && (!o.value || o.value.dynamic));
  const fileName = (glob: string) => (trimEndChars(glob, "/").split("/").pop() ?? "").replace(/\*\*/g, "*");
  // rg's `{a,b}` alternation is not read here: such a whitelist may match any name
  const onlyNames =
    includes.length > 0 && !unknownGlob && !includes.some((i) => hasAlternation(i.text))
      ? includes.map((i) => ({ glob: fileName(i.text) || "*", dirs: false, files: true, ignoreCase: i.ignoreCase }))
      : undefined;
  // what git ignores is skipped unless ignore files are off (-u, --no-ignore, --no-ignore-vcs, ...)
  // or a positive glob, which overrides them, is given; a type is not trusted to keep them either
  const ignoresOff = unrestricted > 0 || config === null || a.opts.some((o) => o.name.startsWith("--no-ignore") && o.name !== "--no-ignore-messages");
  const honoursIgnores = !ignoresOff && includes.length === 0 && !unknownGlob && !has(a, "-t", "--type");
  // the last of --hidden/--no-hidden wins; -uu searches hidden files; a positive glob or a type
  // selects hidden files (and folders) it matches, whatever their dot; an unreadable config may say anything
  const hiddenFlag = last(["--hidden", "-."], ["--no-hidden"]);
  const hidden = (!!hiddenFlag && hiddenFlag.name !== "--no-hidden") || unrestricted >= 2 || includes.length > 0 || unknownGlob || has(a, "-t", "--type") || config === null;
  const followFlag = last(["-L", "--follow"], ["--no-follow"]);
  return walk(has(a, "--files") ? "list" : "read", paths.length > 0 ? rootsOf(paths) : [cwdRoot()], {
    depth: lastNumber(a, "-d", "--max-depth") ?? Infinity,
    followsLinks: (!!followFlag && followFlag.name !== "--no-follow") || config === null,
    skipsHidden: !hidden,
    skipNames,
    skipPaths,
    ...(onlyNames ? { onlyNames } : {}),
    ...(honoursIgnores ? { gitSkips: { what: "ignored" as const } } : {}),
    leaveOut: (t) => `-g ${shellQuote(`!${t.name}${t.kind === "dir" ? "/" : ""}`)}`,
    unfollow: config === null ? `add --no-config (the ripgrep config ${process.env.RIPGREP_CONFIG_PATH} could not be read)` : "drop -L/--follow",
    tool: "grep",
  });
}

/** An rg glob with `{a,b}`, which rg reads as alternatives and a name glob here as text. */
function hasAlternation(glob: string): boolean {
  return /(^|[^\\])\{/.test(glob);
}

/** `whole`: the entry itself is left out (so a folder is never entered), not only what is inside it. */
type RgExclusion = ({ kind: "name"; skip: NameSkip } | { kind: "path"; skip: PathSkip }) & { whole: boolean };

/** What `rg -g '!glob'` verifiably leaves out. */
function rgExclusion(glob: string, ignoreCase: boolean): RgExclusion | null {
  if (hasAlternation(glob)) return null;
  // a leading `**/` matches at any depth; otherwise a slash before the end anchors the glob to rg's working directory
  const anyDepth = glob.startsWith("**/");
  let g = glob.replace(/^(\*\*\/)+/, "");
  const anchored = !anyDepth && (g.startsWith("/") || g.replace(/\/$/, "").includes("/"));
  const contentsOnly = g.endsWith("/**");
  if (contentsOnly) g = g.slice(0, -3);
  const dirsOnly = !contentsOnly && g.endsWith("/");
  g = g.replace(/\/$/, "");
  if (!anchored) {
    if (!isNameGlob(g)) return null;
    // `!name/**` leaves out what is in a folder named so, which is all a deny below it can cover
    return { kind: "name", whole: !contentsOnly, skip: { glob: g, dirs: true, files: !dirsOnly && !contentsOnly, ignoreCase } };
  }
  const rel = g.replace(/^\//, "");
  if (hasWildcard(rel) || rel.split("/").some((s) => s === "" || s === "." || s === "..")) return null;
  // rg matches a slashed glob against the path with its start's `./` stripped: exact only when it starts in its working directory
  return {
    kind: "path",
    whole: !contentsOnly,
    skip: {
      dirsOnly,
      test: (abs, root) => {
        if (!(root.implicit || root.text === "." || root.text === "./")) return false;
        const target = join(root.real, rel);
        return contentsOnly ? isInside(abs, target) && abs !== target : isInside(abs, target);
      },
    },
  };
}

function agAckWalk(name: string, words: ShellWord[]): Walk {
  const ag = name === "ag";
  const a = scanArgs(words, ag ? AG : ACK);
  const listing = ag ? has(a, "-g", "--file-search-regex") : has(a, "-f");
  const paths = listing ? a.positionals : a.positionals.slice(1);
  const roots = has(a, "--files-from") ? [{ word: { text: "\0", pattern: "\0", dynamic: true, glob: false } }] : paths.length > 0 ? rootsOf(paths) : [cwdRoot()];
  // ag skips what .gitignore names unless -u, -U (--skip-vcs-ignores) or -a (--all-types); its own
  // reading of .gitignore is partial, so only plain patterns count (gitSkips.simple)
  const agIgnores = ag && !has(a, "-u", "--unrestricted", "-U", "--skip-vcs-ignores", "-a", "--all-types");
  return walk(listing ? "list" : "read", roots, {
    ...(agIgnores ? { gitSkips: { what: "ignored" as const, simple: true } } : {}),
    depth: lastNumber(a, "--depth") ?? Infinity,
    followsLinks: ag ? has(a, "-f", "--follow") : has(a, "--follow"),
    unfollow: ag ? "drop -f/--follow" : "drop --follow",
    tool: listing ? "glob" : "grep",
  });
}

const GIT_GREP: ArgSpec = { short: "efABCm", long: ["--max-depth", "--threads", "--context", "--after-context", "--before-context", "--max-count", "--open-files-in-pager"] };
const GIT_LS_FILES: ArgSpec = { short: "xX", long: ["--exclude", "--exclude-from", "--exclude-per-directory", "--format", "--with-tree"] };

/** git grep and git ls-files walk the worktree below git's directory, narrowed by pathspecs. */
function gitWalk(words: ShellWord[], cwd: string | null): Walk | null {
  let i = 0;
  let dir: ShellWord | undefined;
  // literal pathspecs have no `:!` magic; glob pathspecs have a `*` that stops at slashes
  let pathspecs = process.env.GIT_LITERAL_PATHSPECS === "1" ? "literal" : process.env.GIT_GLOB_PATHSPECS === "1" || process.env.GIT_NOGLOB_PATHSPECS === "1" ? "glob" : "plain";
  for (; i < words.length; i++) {
    const w = words[i] as ShellWord;
    if (w.dynamic || !w.text.startsWith("-")) break;
    if (w.text === "--literal-pathspecs") pathspecs = "literal";
    else if ((w.text === "--glob-pathspecs" || w.text === "--noglob-pathspecs") && pathspecs !== "literal") pathspecs = "glob";
    else if (w.text === "-C") {
      const next = words[++i];
      if (!next) return null;
      dir = dir && !isAbsolute(next.text) ? { ...next, text: join(dir.text, next.text), dynamic: dir.dynamic || next.dynamic } : next;
    } else if (w.text.startsWith("--work-tree=") || w.text.startsWith("--git-dir=")) {
      // another worktree: its place relative to the shell is not worth guessing; treat as unknowable
      dir = { text: "\0", pattern: "\0", dynamic: true, glob: false };
    } else if (w.text === "-c" || w.text === "--namespace") i++;
  }
  const sub = words[i]?.text;
  if (sub === "diff" || sub === "log" || sub === "show" || sub === "whatchanged") return gitDiffWalk(sub, words.slice(i + 1), dir, cwd);
  if (sub !== "grep" && sub !== "ls-files") return null;
  const grep = sub === "grep";
  const a = scanArgs(words.slice(i + 1), grep ? GIT_GREP : GIT_LS_FILES);
  const candidates = grep && !has(a, "-e", "-f") ? a.positionals.slice(1) : a.positionals;
  // before `--`, git grep's words may be revisions; only words after it are surely pathspecs
  const sure = grep ? a.positionals.slice(a.beforeDashDash) : candidates;
  const excludes = pathspecs === "literal" ? [] : candidates.map((w) => gitExclude(w)).filter((p): p is string => p !== null);
  // `:!*.pem`: a plain pathspec's `*` crosses slashes, so it leaves out every file whose name ends so
  const skipNames: NameSkip[] = pathspecs !== "plain" ? [] : candidates.map((w) => gitNameExclude(w)).filter((g): g is string => g !== null).map((glob) => ({ glob, dirs: false, files: true }));
  const narrowing = sure.filter((w) => !isExcludeMagic(w.text));
  const literal = narrowing.every((w) => !w.dynamic && !w.text.startsWith(":") && !hasWildcard(w.pattern));
  const base = cwd === null || dir?.dynamic ? null : resolve(cwd, dir?.text ?? ".");
  // a pathspec with top magic (`:/`, `:(top)x`) or one we cannot read may name anything from the
  // top of the work tree down, whatever folder git runs in
  const top = base === null ? null : gitTopLevel(realPath(base));
  const wide = candidates.some((w) => w.dynamic || widensToTop(w.text));
  const roots = wide
    ? [top === null ? { word: { text: "\0", pattern: "\0", dynamic: true, glob: false } } : { word: literalWord(top), implicit: true }]
    : narrowing.length > 0 && literal
      ? narrowing.map((word) => ({ word, ...(dir ? { dir } : {}) }))
      : [{ ...cwdRoot(), ...(dir ? { dir } : {}) }];
  const skipPaths: PathSkip[] = excludes.map((rel) => ({ dirsOnly: false, test: (abs, root) => isInside(abs, normalize(join(root.cwd, rel))) }));
  // git grep reads the tracked files of the work tree, with --untracked also the others git does not
  // ignore (unless --no-exclude-standard); --no-index reads anything, and so may a revision's tree:
  // a word before `--` that is not an existing path may be a revision
  const maybeRevisions = candidates.slice(0, Math.max(0, a.beforeDashDash - (candidates === a.positionals ? 0 : 1)));
  const worktree = grep && !has(a, "--no-index") && maybeRevisions.every((w) => !w.dynamic && base !== null && existsSync(resolve(base, w.text)));
  const gitSkips = !worktree ? null : !has(a, "--untracked") ? "untracked" : !has(a, "--no-exclude-standard") ? "ignored" : null;
  return walk(grep ? "read" : "list", roots, {
    ...(gitSkips ? { gitSkips: { what: gitSkips } } : {}),
    depth: grep ? (lastNumber(a, "--max-depth") ?? Infinity) : Infinity,
    skipPaths,
    skipNames,
    leaveOut: (t) => {
      if (t.fromCwd !== null) return `the pathspec ${shellQuote(`:!${t.fromCwd}`)}`;
      return t.kind === "file" && isNameGlob(t.name) && !hasWildcard(t.name.replace(/^\*/, "").replace(/\*$/, "")) ? `the pathspec ${shellQuote(`:!*${t.name.replace(/^\*/, "")}`)}` : null;
    },
    tool: grep ? "grep" : "glob",
  });
}

/** The name glob (`*.pem`, `*.env*`) an exclude pathspec `:!*.pem` leaves out, or null. */
function gitNameExclude(w: ShellWord): string | null {
  if (w.dynamic || !isExcludeMagic(w.text)) return null;
  const rel = w.text.startsWith(":(exclude)") ? w.text.slice(10) : w.text.slice(2);
  return /^\*[^/*?[\]\\]+\*?$/.test(rel) ? rel : null;
}

/** `:/x`, `:(top)x`, `:(top,icase)x`: a pathspec that selects from the top of the work tree (an exclusion like `:!/x` selects nothing). */
function widensToTop(text: string): boolean {
  if (text.startsWith(":(")) {
    const close = text.indexOf(")");
    if (close === -1) return true;
    const magic = text.slice(2, close).split(",");
    return magic.includes("top") && !magic.includes("exclude");
  }
  const short = /^:([/!^]+)/.exec(text)?.[1] ?? "";
  return short.includes("/") && !/[!^]/.test(short);
}

function isExcludeMagic(text: string): boolean {
  return text.startsWith(":!") || text.startsWith(":^") || text.startsWith(":(exclude)");
}

/** The literal path an exclude pathspec (`:!secrets`, `:(exclude)secrets`) leaves out, relative to git's directory. */
function gitExclude(w: ShellWord): string | null {
  if (w.dynamic || !isExcludeMagic(w.text)) return null;
  const rel = w.text.startsWith(":(exclude)") ? w.text.slice(10) : w.text.slice(2);
  if (rel === "" || rel.startsWith(":") || isAbsolute(rel) || hasWildcard(rel)) return null;
  return rel;
}
