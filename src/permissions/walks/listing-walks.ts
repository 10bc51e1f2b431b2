// The walks of commands that list a tree: find, ls, tree, du. They show names, not contents, unless
// find runs something on what it finds. find's `-prune` is trusted only as the first operand of a
// top-level `-o` (`find . -path ./secrets -prune -o -print`), where it stops the walk before
// anything else looks at the folder; -depth turns pruning off, so it cancels every such clause.
import type { NameSkip, PathSkip, Walk } from "./types.ts";
import type { ShellWord } from "../shell/shell-words.ts";
import { compilePieces, fnmatchPieces } from "../rules/wildcard.ts";
import { cwdRoot, has, lastNumber, rootsOf, scanArgs, shellQuote, spellBelow, walk, type ArgSpec } from "./walk-args.ts";

const LS: ArgSpec = { short: "ITw", long: ["--hide", "--ignore", "--format", "--sort", "--time-style", "--block-size", "--quoting-style", "--indicator-style", "--tabsize", "--width"] };
const TREE: ArgSpec = { short: "LIPHTo", long: ["--filelimit", "--charset", "--sort", "--timefmt", "--fromfile", "--infofile"] };
const DU: ArgSpec = { short: "dBtX", long: ["--max-depth", "--block-size", "--threshold", "--exclude", "--exclude-from", "--time-style", "--files0-from"] };

export function listingWalk(name: string, args: ShellWord[]): Walk | null {
  switch (name) {
    case "find":
      return findWalk(args);
    case "ls": {
      const a = scanArgs(args, LS);
      const depth = has(a, "-d", "--directory") ? 0 : has(a, "-R", "--recursive") ? Infinity : 1;
      return walk("list", a.positionals.length > 0 ? rootsOf(a.positionals) : [cwdRoot()], {
        depth,
        followsLinks: has(a, "-L", "--dereference"),
        skipsHidden: !has(a, "-a", "-A", "--all", "--almost-all"),
        unfollow: "drop -L",
        tool: "glob",
      });
    }
    case "tree": {
      const a = scanArgs(args, TREE);
      const skipNames: NameSkip[] = a.opts
        .filter((o) => o.name === "-I" && o.value && !o.value.dynamic)
        .flatMap((o) => (o.value as ShellWord).text.split("|"))
        .filter((g) => g !== "" && !g.includes("/"))
        .map((glob) => ({ glob, dirs: true, files: true }));
      return walk("list", a.positionals.length > 0 ? rootsOf(a.positionals) : [cwdRoot()], {
        depth: lastNumber(a, "-L") ?? Infinity,
        followsLinks: has(a, "-l"),
        skipsHidden: !has(a, "-a"),
        skipNames,
        leaveOut: (t) => `-I ${shellQuote(t.name)}`,
        unfollow: "drop -l",
        tool: "glob",
      });
    }
    case "du": {
      const a = scanArgs(args, DU);
      const listFrom = has(a, "--files0-from") ? [{ word: { text: "\0", pattern: "\0", dynamic: true, glob: false } }] : [];
      return walk("list", listFrom.length > 0 ? listFrom : a.positionals.length > 0 ? rootsOf(a.positionals) : [cwdRoot()], {
        depth: has(a, "-s", "--summarize") ? 0 : (lastNumber(a, "-d", "--max-depth") ?? Infinity),
        followsLinks: has(a, "-L", "--dereference"),
        unfollow: "drop -L",
        tool: "glob",
      });
    }
    default:
      return null;
  }
}

const RUNS = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const GLOBAL_FLAGS = new Set(["-xdev", "-mount", "-noleaf", "-ignore_readdir_race", "-noignore_readdir_race", "-daystart", "-follow", "-warn", "-nowarn"]);
const GLOBAL_VALUES = new Set(["-maxdepth", "-mindepth", "-regextype"]);
const NAME_TESTS = new Set(["-name", "-iname"]);
const PATH_TESTS = new Set(["-path", "-ipath", "-wholename", "-iwholename"]);

function findWalk(words: ShellWord[]): Walk {
  const starts: ShellWord[] = [];
  let follows = false;
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i] as ShellWord;
    if (!w.dynamic && /^-[HLP]+$/.test(w.text)) {
      follows ||= w.text.includes("L");
      continue;
    }
    if (!w.dynamic && (w.text.startsWith("-") || w.text === "(" || w.text === "!" || w.text === ",")) break;
    starts.push(w);
  }
  const expr = words.slice(i);
  const texts = expr.map((w) => (w.dynamic ? "\0" : w.text));
  const runs = texts.some((t) => RUNS.has(t));
  const maxAt = texts.lastIndexOf("-maxdepth");
  const max = maxAt === -1 ? undefined : /^\d+$/.test(texts[maxAt + 1] ?? "") ? Number(texts[maxAt + 1]) : Infinity;
  const pruned = texts.includes("-depth") || texts.includes("-d") ? { names: [], paths: [] } : pruneClauses(texts);
  return walk(runs ? "read" : "list", starts.length > 0 ? rootsOf(starts) : [cwdRoot()], {
    depth: max ?? Infinity,
    followsLinks: follows || texts.includes("-follow"),
    skipNames: pruned.names,
    skipPaths: pruned.paths,
    leaveOut: (t) => `${t.spelled !== null ? `-path ${shellQuote(t.spelled)}` : `-name ${shellQuote(t.name)}`} -prune -o before its tests`,
    unfollow: "drop -L/-follow",
    ...(runs ? {} : { tool: "glob" as const }),
  });
}

/** The `[-type d] -name|-path X -prune -o` clauses (or a parenthesised `-o` list of tests) the expression starts with. */
function pruneClauses(t: string[]): { names: NameSkip[]; paths: PathSkip[] } {
  const names: NameSkip[] = [];
  const paths: PathSkip[] = [];
  let k = 0;
  while (k < t.length && (GLOBAL_FLAGS.has(t[k] as string) || GLOBAL_VALUES.has(t[k] as string))) k += GLOBAL_VALUES.has(t[k] as string) ? 2 : 1;
  for (;;) {
    let j = k;
    let dirsOnly = false;
    if (t[j] === "-type" && t[j + 1] === "d") {
      dirsOnly = true;
      j += 2;
      if (t[j] === "-a" || t[j] === "-and") j++;
    }
    const paren = t[j] === "(";
    if (paren) j++;
    const tests: Array<{ test: string; value: string }> = [];
    for (;;) {
      const test = t[j] as string;
      const value = t[j + 1];
      if (!(NAME_TESTS.has(test) || PATH_TESTS.has(test)) || value === undefined || value.includes("\0")) break;
      tests.push({ test, value });
      j += 2;
      if (!paren || !(t[j] === "-o" || t[j] === "-or")) break;
      j++;
    }
    if (tests.length === 0 || (paren && t[j++] !== ")")) break;
    if (t[j] === "-a" || t[j] === "-and") j++;
    if (t[j] !== "-prune" || !(t[j + 1] === "-o" || t[j + 1] === "-or")) break;
    for (const { test, value } of tests) {
      const ignoreCase = test.startsWith("-i");
      if (NAME_TESTS.has(test)) names.push({ glob: value, dirs: true, files: !dirsOnly, ignoreCase });
      else paths.push(findPathSkip(value, ignoreCase, dirsOnly));
    }
    k = j + 2;
  }
  return { names, paths };
}

/** find's -path matches the path as find prints it, with `*` crossing slashes. */
function findPathSkip(pattern: string, ignoreCase: boolean, dirsOnly: boolean): PathSkip {
  const matches = compilePieces(fnmatchPieces(pattern, ignoreCase), { ignoreCase });
  return { dirsOnly, test: (abs, root) => matches(spellBelow(root, abs)) };
}

