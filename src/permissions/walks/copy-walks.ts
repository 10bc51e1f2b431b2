// The walks of commands that carry files somewhere else: cp, mv, tar, zip, rsync. A copy or an
// archive of a folder holding a denied path takes the path's contents out of the rule's reach, and
// a move takes the files themselves. Only rsync's `--exclude=name` is trusted to leave a folder
// out, and only when no include or filter rule could bring it back (rsync's first match wins).
import type { NameSkip, Walk, WalkRoot } from "./types.ts";
import { join, isAbsolute } from "node:path";
import type { ShellWord } from "../shell/shell-words.ts";
import { has, isNameGlob, rootsOf, scanArgs, shellQuote, values, walk, type ArgSpec } from "./walk-args.ts";

const UNKNOWN: ShellWord = { text: "\0", pattern: "\0", dynamic: true, glob: false };

const CP: ArgSpec = { short: "tS", long: ["--target-directory", "--suffix"] };
const ZIP: ArgSpec = { short: "bnOPZ", long: ["--temp-path", "--suffixes", "--out", "--password", "--compression-method"] };
const RSYNC: ArgSpec = {
  short: "efTBM",
  long: [
    "--rsh", "--rsync-path", "--filter", "--exclude", "--include", "--exclude-from", "--include-from", "--files-from", "--temp-dir", "--partial-dir",
    "--backup-dir", "--compare-dest", "--copy-dest", "--link-dest", "--log-file", "--log-file-format", "--password-file", "--suffix", "--chmod",
    "--max-size", "--min-size", "--timeout", "--contimeout", "--port", "--bwlimit", "--out-format", "--chown", "--usermap", "--groupmap", "--info",
    "--debug", "--iconv", "--sockopts", "--protocol", "--checksum-choice", "--compress-choice", "--compress-level", "--skip-compress", "--max-delete",
    "--modify-window", "--block-size", "--outbuf", "--remote-option", "--write-batch", "--read-batch", "--only-write-batch", "--stop-after", "--stop-at",
  ],
};

export function copyWalk(name: string, args: ShellWord[]): Walk | null {
  switch (name) {
    case "cp":
    case "mv": {
      const a = scanArgs(args, CP);
      const sources = has(a, "-t", "--target-directory") ? a.positionals : a.positionals.slice(0, -1);
      const recursive = name === "mv" || has(a, "-r", "-R", "-a", "--recursive", "--archive");
      return walk(name === "mv" ? "move" : "copy", rootsOf(sources), {
        depth: recursive ? Infinity : 0,
        followsLinks: name === "cp" && has(a, "-L", "--dereference"),
        unfollow: "drop -L",
      });
    }
    case "tar":
      return tarWalk(args);
    case "zip": {
      const a = scanArgs(args, ZIP);
      const patterns = has(a, "-R", "--recurse-patterns");
      const recursive = patterns || has(a, "-r", "--recurse-paths");
      const sources = has(a, "-@", "--names-stdin") ? [{ word: UNKNOWN }] : patterns ? [{ word: { text: ".", pattern: ".", dynamic: false, glob: false } }] : rootsOf(a.positionals.slice(1));
      // zip stores what a link points to unless told to store the link
      return walk("archive", sources, { depth: recursive ? Infinity : 0, followsLinks: recursive && !has(a, "-y", "--symlinks"), unfollow: "add -y so links are stored as links" });
    }
    case "rsync":
      return rsyncWalk(args);
    default:
      return null;
  }
}

const TAR_MODES = new Set(["c", "r", "u", "A", "d"]);
const TAR_MODE_LONG = new Set(["--create", "--append", "--update", "--catenate", "--concatenate", "--diff", "--compare"]);
const TAR_VALUE_LETTERS = "fCTXbHKNLVgFI";
const TAR_VALUE_LONG = new Set([
  "--file", "--directory", "--files-from", "--exclude-from", "--exclude", "--blocking-factor", "--format", "--starting-file", "--newer", "--after-date",
  "--tape-length", "--label", "--listed-incremental", "--info-script", "--new-volume-script", "--use-compress-program", "--to-command", "--transform",
  "--xform", "--owner", "--group", "--mode", "--mtime", "--suffix", "--index-file", "--checkpoint-action", "--record-size", "--volno-file",
  "--rsh-command", "--rmt-command", "--newer-mtime", "--strip-components",
]);

/** tar creating, appending to or comparing an archive reads its members; `-C dir` moves where later ones are found. */
function tarWalk(words: ShellWord[]): Walk | null {
  let writes = false;
  let follows = false;
  let recursion = true;
  let dir: ShellWord | undefined;
  const roots: WalkRoot[] = [];
  const pending: string[] = [];
  const takeValue = (option: string, value: ShellWord | undefined) => {
    if (option === "C" || option === "--directory") dir = value ? within(dir, value) : UNKNOWN;
    if (option === "T" || option === "--files-from") roots.push({ word: UNKNOWN });
  };
  const letter = (l: string) => {
    if (TAR_MODES.has(l)) writes = true;
    if (l === "h") follows = true;
  };
  let optionsDone = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as ShellWord;
    if (pending.length > 0) {
      takeValue(pending.shift() as string, w);
      continue;
    }
    if (i === 0 && !w.dynamic && !w.text.startsWith("-")) {
      // old style: `tar czf out.tgz dir`, the letters' values follow in order
      for (const l of w.text) {
        letter(l);
        if (TAR_VALUE_LETTERS.includes(l)) pending.push(l);
      }
      continue;
    }
    if (optionsDone || w.dynamic || !w.text.startsWith("-") || w.text === "-") {
      roots.push(dir ? { word: w, dir } : { word: w });
      continue;
    }
    if (w.text === "--") {
      optionsDone = true;
      continue;
    }
    if (w.text.startsWith("--")) {
      const eq = w.text.indexOf("=");
      const name = eq === -1 ? w.text : w.text.slice(0, eq);
      if (TAR_MODE_LONG.has(name)) writes = true;
      if (name === "--dereference") follows = true;
      if (name === "--no-recursion") recursion = false;
      if (name === "--recursion") recursion = true;
      if (TAR_VALUE_LONG.has(name)) takeValue(name, eq !== -1 ? { ...w, text: w.text.slice(eq + 1), pattern: w.pattern.slice(eq + 1) } : words[++i]);
      continue;
    }
    for (let k = 1; k < w.text.length; k++) {
      const l = w.text[k] as string;
      letter(l);
      if (!TAR_VALUE_LETTERS.includes(l)) continue;
      const rest = w.text.slice(k + 1);
      takeValue(l, rest !== "" ? { ...w, text: rest, pattern: rest } : words[++i]);
      break;
    }
  }
  while (pending.length > 0) takeValue(pending.shift() as string, undefined);
  if (!writes) return null;
  return walk("archive", roots, { depth: recursion ? Infinity : 0, followsLinks: follows, unfollow: "drop -h/--dereference" });
}

function within(dir: ShellWord | undefined, next: ShellWord): ShellWord {
  if (!dir || isAbsolute(next.text)) return next;
  return { ...next, text: join(dir.text, next.text), dynamic: dir.dynamic || next.dynamic };
}

function rsyncWalk(words: ShellWord[]): Walk {
  const a = scanArgs(words, RSYNC);
  const local = a.positionals.filter((w) => w.dynamic || !(/^[^/]*:/.test(w.text) || w.text.startsWith("rsync://")));
  const listing = a.positionals.length === 1;
  const sources = listing ? local : local.filter((w) => w !== a.positionals[a.positionals.length - 1]);
  const recursive = has(a, "-r", "-a", "--recursive", "--archive");
  // first matching rule wins: an include or filter rule could bring an excluded folder back
  const ruled = has(a, "--include", "--include-from", "--filter", "-f", "-F");
  const skipNames: NameSkip[] = ruled
    ? []
    : values(a, "--exclude")
        .filter((v) => isNameGlob(v.text.replace(/\/$/, "")))
        .map((v) => ({ glob: v.text.replace(/\/$/, ""), dirs: true, files: !v.text.endsWith("/") }));
  const roots = has(a, "--files-from") ? [{ word: UNKNOWN }] : rootsOf(sources);
  return walk(listing ? "list" : "copy", roots, {
    depth: recursive ? Infinity : has(a, "-d", "--dirs") ? 1 : 0,
    followsLinks: has(a, "-L", "--copy-links", "-k", "--copy-dirlinks", "--copy-unsafe-links"),
    skipNames,
    leaveOut: (t) => `--exclude=${shellQuote(t.name)}`,
    unfollow: "drop -L/-k/--copy-links",
  });
}
