// The built-in read-only set: commands that change nothing and run without asking in default and
// plan mode, provided the files they read are inside the project and not secret. For each command
// we know which words are files it reads, and which options would make it write or run code.
import type { ShellWord } from "./shell-words.ts";

export type ReadOnlyVerdict =
  | {
      readOnly: true;
      reads: ShellWord[];
      readsCwd: boolean;
      /** Paths relative to the top of the git work tree that git's directory (`gitDir`, else the cwd) is in: `git show HEAD:secrets/key.txt`. */
      repoReads?: ShellWord[];
      gitDir?: ShellWord;
    }
  | { readOnly: false };

type PathRole = "all" | "none" | "afterPattern" | "find" | "jq";

type Entry = {
  paths: PathRole;
  /** With no file arguments it reads the current directory (ls, find, rg). */
  readsCwd?: boolean;
  /** Options that consume the next word. */
  valueOpts?: string[];
  /** An option or word that makes the command write or execute. */
  forbid?: (word: string) => boolean;
  maxPositionals?: number;
  /** Every positional must satisfy this (date's +FORMAT). */
  positional?: (word: string) => boolean;
};

const shortHas = (letters: string) => (w: string) => /^-[a-zA-Z]+$/.test(w) && [...letters].some((l) => w.slice(1).includes(l));
const oneOf = (...words: string[]) => (w: string) => words.some((x) => w === x || w.startsWith(x + "="));

const FILES: Entry = { paths: "all" };
const TABLE: Record<string, Entry> = {
  ls: { paths: "all", readsCwd: true, valueOpts: ["-I", "-w", "-T", "--hide", "--ignore", "--format", "--sort", "--time-style"] },
  cat: FILES, tac: FILES, nl: { paths: "all", valueOpts: ["-w", "-s", "-v", "-i", "-b", "-n"] },
  head: { paths: "all", valueOpts: ["-n", "-c"] },
  tail: { paths: "all", valueOpts: ["-n", "-c", "-s", "--pid"] },
  wc: FILES, stat: { paths: "all", valueOpts: ["-c", "--format", "--printf"] }, file: FILES,
  od: { paths: "all", valueOpts: ["-A", "-j", "-N", "-t", "-w"] }, hexdump: { paths: "all", valueOpts: ["-n", "-s", "-e", "-f"] },
  xxd: { paths: "all", valueOpts: ["-l", "-c", "-s", "-g", "-o"], maxPositionals: 1, forbid: oneOf("-r", "-revert") },
  strings: FILES, md5sum: FILES, sha1sum: FILES, sha256sum: FILES, sha512sum: FILES, b2sum: FILES, cksum: FILES,
  cut: { paths: "all", valueOpts: ["-d", "-f", "-b", "-c"] }, column: { paths: "all", valueOpts: ["-s", "-t", "-c", "-o"] },
  cmp: { paths: "all", valueOpts: ["-i", "-n"] }, comm: FILES, readlink: FILES, realpath: FILES,
  diff: { paths: "all", valueOpts: ["-U", "-C", "-L", "-I", "-x", "-X", "--label"] },
  du: { paths: "all", readsCwd: true, valueOpts: ["-d", "-B", "-t", "--max-depth", "--exclude"] }, df: FILES,
  tree: { paths: "all", readsCwd: true, valueOpts: ["-L", "-I", "-P", "--filelimit"], forbid: oneOf("-o", "-R") },
  sort: { paths: "all", valueOpts: ["-k", "-t", "-S", "-T", "--parallel"], forbid: (w) => shortHas("o")(w) || oneOf("--output", "--compress-program")(w) },
  uniq: { paths: "all", valueOpts: ["-f", "-s", "-w"], maxPositionals: 1 },
  grep: { paths: "afterPattern", valueOpts: ["-A", "-B", "-C", "-m", "-e", "-f", "-d", "-D", "--include", "--exclude", "--exclude-dir", "--regexp", "--file", "--max-count", "--label"] },
  rg: { paths: "afterPattern", readsCwd: true, valueOpts: ["-A", "-B", "-C", "-m", "-e", "-f", "-g", "-t", "-T", "-j", "-M", "-E", "--type", "--type-not", "--glob", "--iglob", "--max-depth", "--regexp", "--file", "--max-count", "--encoding", "--sort", "--sortr", "--max-filesize"], forbid: oneOf("--pre", "--pre-glob") },
  find: { paths: "find", readsCwd: true, forbid: oneOf("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls") },
  jq: { paths: "jq", valueOpts: ["--indent", "--tab"] },
  echo: { paths: "none" }, printf: { paths: "none" }, pwd: { paths: "none" }, true: { paths: "none" }, false: { paths: "none" },
  seq: { paths: "none" }, whoami: { paths: "none" }, id: { paths: "none" }, uname: { paths: "none" }, nproc: { paths: "none" },
  uptime: { paths: "none" }, free: { paths: "none" }, ps: { paths: "none" }, which: { paths: "none" }, whereis: { paths: "none" },
  type: { paths: "none" }, basename: { paths: "none" }, dirname: { paths: "none" }, test: { paths: "none" }, "[": { paths: "none" },
  exit: { paths: "none" }, return: { paths: "none" }, ":": { paths: "none" },
  sleep: { paths: "none" }, tr: { paths: "none" }, cd: { paths: "none" }, pushd: { paths: "none" }, popd: { paths: "none" },
  hostname: { paths: "none", maxPositionals: 0, forbid: oneOf("-F", "--file", "-b", "--boot") },
  date: { paths: "none", forbid: oneOf("-s", "--set", "-f", "--file"), positional: (w) => w.startsWith("+") },
  command: { paths: "none", positional: () => true, forbid: () => false },
};
// Aliases that behave like their base command.
TABLE.egrep = TABLE.grep as Entry;
TABLE.fgrep = TABLE.grep as Entry;

export function classifyReadOnly(argv: ShellWord[]): ReadOnlyVerdict {
  const name = argv[0];
  if (!name || name.dynamic) return { readOnly: false };
  if (name.text === "git") return classifyGit(argv.slice(1));
  if (name.text === "command" && !/^-[vV]$/.test(argv[1]?.text ?? "")) return { readOnly: false };
  const entry = Object.hasOwn(TABLE, name.text) ? TABLE[name.text] : undefined;
  if (!entry) return { readOnly: false };
  const { options, positionals, values } = splitArgs(argv.slice(1), new Set(entry.valueOpts ?? []));
  if (entry.forbid && [...options, ...positionals].some((w) => !w.dynamic && entry.forbid!(w.text))) return { readOnly: false };
  if (entry.maxPositionals !== undefined && positionals.length > entry.maxPositionals) return { readOnly: false };
  if (entry.positional && positionals.some((w) => w.dynamic || !entry.positional!(w.text))) return { readOnly: false };
  const recursiveGrep = name.text !== "rg" && options.some((w) => /^-[a-zA-Z]*[rR]/.test(w.text) || w.text === "--recursive");
  switch (entry.paths) {
    case "none":
      return { readOnly: true, reads: [], readsCwd: false };
    case "all":
      return { readOnly: true, reads: positionals, readsCwd: positionals.length === 0 && !!entry.readsCwd };
    case "afterPattern": {
      // the pattern comes first unless given with -e/-f; -f names a file that is read
      const explicitPattern = options.some((w) => /^(-e|-f|--regexp|--file)(=|$)/.test(w.text) || (/^-[a-zA-Z]*[ef]/.test(w.text) && !w.text.startsWith("--")));
      const listing = options.some((w) => w.text === "--files" || w.text === "--type-list");
      const files = explicitPattern || listing ? positionals : positionals.slice(1);
      const fileValues = values.filter((v) => v.option === "-f" || v.option === "--file").map((v) => v.word);
      return { readOnly: true, reads: [...files, ...fileValues], readsCwd: files.length === 0 && (!!entry.readsCwd || recursiveGrep) };
    }
    case "find": {
      const starts: ShellWord[] = [];
      for (const w of argv.slice(1)) {
        if (w.text.startsWith("-") && !/^-[HLP]$/.test(w.text)) break;
        if (w.text === "(" || w.text === "!" || w.text === ",") break;
        if (!/^-[HLP]$/.test(w.text)) starts.push(w);
      }
      return { readOnly: true, reads: starts, readsCwd: starts.length === 0 };
    }
    case "jq": {
      const fromFile = options.some((w) => w.text === "-f" || w.text === "--from-file");
      return { readOnly: true, reads: fromFile ? positionals : positionals.slice(1), readsCwd: false };
    }
  }
}

type Split = { options: ShellWord[]; positionals: ShellWord[]; values: Array<{ option: string; word: ShellWord }> };

function splitArgs(args: ShellWord[], valueOpts: Set<string>): Split {
  const out: Split = { options: [], positionals: [], values: [] };
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as ShellWord;
    if (!optionsDone && w.text === "--") {
      optionsDone = true;
      continue;
    }
    if (!optionsDone && !w.dynamic && w.text.startsWith("-") && w.text.length > 1) {
      out.options.push(w);
      if (valueOpts.has(w.text) && i + 1 < args.length) {
        out.values.push({ option: w.text, word: args[++i] as ShellWord });
      }
      continue;
    }
    if (w.text !== "-") out.positionals.push(w);
  }
  return out;
}

const GIT_READ_ONLY = new Set([
  "status", "log", "diff", "show", "rev-parse", "ls-files", "ls-tree", "cat-file", "blame", "describe",
  "shortlog", "rev-list", "name-rev", "merge-base", "show-ref", "for-each-ref", "count-objects", "grep",
  "whatchanged", "version", "check-ignore", "check-attr", "annotate", "show-branch", "cherry", "diff-tree",
  "diff-files", "diff-index", "var", "verify-commit", "verify-tag",
]);
const GIT_FORBID = oneOf("--output", "--ext-diff", "-O", "--open-files-in-pager", "--exec");

function classifyGit(args: ShellWord[]): ReadOnlyVerdict {
  const reads: ShellWord[] = [];
  let gitDir: ShellWord | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i] as ShellWord;
    if (w.dynamic) return { readOnly: false };
    const t = w.text;
    if (!t.startsWith("-")) break;
    if (t === "-C") {
      const dir = args[++i];
      if (!dir) return { readOnly: false };
      gitDir = gitDir && !dir.text.startsWith("/") ? { ...dir, text: `${gitDir.text}/${dir.text}`, dynamic: gitDir.dynamic || dir.dynamic } : dir;
      reads.push(gitDir);
    } else if (t.startsWith("--git-dir=") || t.startsWith("--work-tree=")) {
      reads.push({ ...w, text: t.slice(t.indexOf("=") + 1), pattern: t.slice(t.indexOf("=") + 1) });
    } else if (!["--no-pager", "--no-optional-locks", "--literal-pathspecs", "--no-replace-objects", "-P", "--bare"].includes(t)) {
      // -c key=value and friends can make git run arbitrary programs
      return { readOnly: false };
    }
  }
  const sub = args[i]?.text;
  const rest = args.slice(i + 1);
  if (!sub || rest.some((w) => w.dynamic && w.text.startsWith("-"))) return { readOnly: false };
  if (rest.some((w) => GIT_FORBID(w.text))) return { readOnly: false };
  const texts = rest.map((w) => w.text);
  const has = (...opts: string[]) => texts.some((t) => opts.includes(t));
  const positionals = rest.filter((w) => !w.text.startsWith("-"));
  // paths git reads relative to where it runs (`-C dir`)
  const here = (w: ShellWord): ShellWord => (!gitDir || w.text.startsWith("/") ? w : { ...w, text: `${gitDir.text}/${w.text}`, pattern: `${gitDir.pattern}/${w.pattern}`, dynamic: gitDir.dynamic || w.dynamic });
  const repoReads: ShellWord[] = [];
  let ok = false;
  if (GIT_READ_ONLY.has(sub)) {
    ok = true;
    if (sub === "diff" && has("--no-index")) reads.push(...positionals.map(here));
    if (sub === "blame" || sub === "annotate") reads.push(...positionals.map(here));
    // `git show HEAD:secrets/key.txt`, `git cat-file -p :0:.env`: the blob is that path's contents
    if (sub === "show" || sub === "cat-file") {
      for (const w of positionals) {
        const path = blobPath(w);
        if (path === null) continue;
        if (w.dynamic) reads.push(w);
        else if (/^\.\.?(\/|$)/.test(path)) reads.push(here({ ...w, text: path, pattern: path }));
        else repoReads.push({ ...w, text: path, pattern: path });
      }
      // object names read from stdin: which blobs is unknowable
      if (sub === "cat-file" && texts.some((t) => /^--batch(-command)?(=|$)/.test(t))) reads.push({ text: "\0", pattern: "\0", dynamic: true, glob: false });
    }
  } else if (sub === "branch") {
    const changes = texts.some((t) => /^-[dDmMcCfu]$/.test(t) || /^--(delete|move|copy|force|set-upstream|set-upstream-to|unset-upstream|edit-description|track|no-track)/.test(t));
    ok = !changes && (positionals.length === 0 || has("-l", "--list", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at"));
  } else if (sub === "tag") {
    const changes = texts.some((t) => /^-[dasfmFu]$/.test(t) || /^--(delete|annotate|sign|force|message|file)/.test(t));
    ok = !changes && (positionals.length === 0 || has("-l", "--list"));
  } else if (sub === "remote") {
    ok = positionals.length === 0 || ["show", "get-url"].includes(positionals[0]?.text ?? "");
  } else if (sub === "config") {
    ok = has("--get", "--get-all", "--get-regexp", "--list", "-l", "--get-urlmatch") && !has("--add", "--unset", "--unset-all", "--replace-all", "--rename-section", "--remove-section", "-e", "--edit");
  } else if (sub === "stash" || sub === "worktree") {
    ok = positionals[0]?.text === "list" || (sub === "stash" && positionals[0]?.text === "show");
  } else if (sub === "reflog") {
    ok = positionals.length === 0 || positionals[0]?.text === "show";
  } else if (sub === "submodule") {
    ok = positionals[0]?.text === "status";
  }
  if (!ok) return { readOnly: false };
  return { readOnly: true, reads, readsCwd: true, ...(repoReads.length > 0 ? { repoReads, ...(gitDir ? { gitDir } : {}) } : {}) };
}

/** The path in an object name `REV:path` or `:N:path` (null for a commit, a tree root, or `:/message`). */
function blobPath(w: ShellWord): string | null {
  const t = w.text;
  if (t.startsWith(":/")) return null;
  const m = t.startsWith(":") ? /^:(?:[0-3]:)?(.*)$/.exec(t) : /^[^:]*:(.*)$/.exec(t);
  return m && m[1] ? m[1] : null;
}
