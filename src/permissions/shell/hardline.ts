// The floor no mode or rule can open: recursive deletion of /, the home directory or the project
// root (or anything containing them) in any spelling, mkfs, writes onto block devices, fork bombs,
// recursive chmod/chown of / or ~. Checked on the words as the shell will see them (quotes, escapes,
// `~`, $HOME and variables set earlier already resolved), through sudo and other wrappers.
import { basename, resolve } from "node:path";
import { unwrapCommand } from "./command-wrappers.ts";
import { isAncestorOrSelf, isBlockDevice, realPath } from "../paths/path-facts.ts";
import type { ShellWord } from "./shell-words.ts";
import { trimTrailingSlashes } from "../../text/trim-chars.ts";

export type FloorAnchors = { root: string; home: string };

const MKFS = /^(mkfs(\.\w+)?|mke2fs|mkswap|wipefs|mkdosfs|mkntfs)$/;

/** Why this command is refused outright, naming the floor entry (`hardline floor (recursive deletion): ...`), or null. */
export function hardlineReason(words: ShellWord[], cwd: string | null, anchors: FloorAnchors): string | null {
  const found = floorEntry(words, cwd, anchors);
  return found ? `hardline floor (${found.entry}): ${found.reason}` : null;
}

function floorEntry(words: ShellWord[], cwd: string | null, anchors: FloorAnchors): { entry: string; reason: string } | null {
  const as = (entry: string, reason: string | null) => (reason === null ? null : { entry, reason });
  const { argv, extraArgsFromStdin } = unwrapCommand(words, { throughSudo: true });
  const head = argv[0];
  if (!head) return null;
  const args = argv.slice(1);
  const deletesEverything = (p: string) => p === "/" || isAncestorOrSelf(p, anchors.root) || isAncestorOrSelf(p, anchors.home);
  const homeOrRoot = (p: string) => p === "/" || isAncestorOrSelf(p, anchors.home);
  const floorNames = new Set([...anchors.root.split("/"), ...anchors.home.split("/")].filter(Boolean));

  for (const w of argv) {
    const value = w.text.includes("=") && !w.text.startsWith("/") ? w.text.slice(w.text.indexOf("=") + 1) : w.text;
    if (value.startsWith("/dev/") && isBlockDevice(value) && !["lsblk", "blkid"].includes(head.text)) {
      return as("block device", `writing to the block device ${value} is never allowed`);
    }
  }
  if (head.dynamic) {
    // `$RM -rf /`: the command is unknowable, so judge its arguments as if it deleted
    if (hasRecursiveFlag(args)) return as("recursive deletion", deletionReason(args, cwd, deletesEverything, "delete", floorNames));
    return null;
  }
  // `/bin/rm` and `./rm` are judged as rm: the floor errs on the side of refusing
  const name = basename(head.text);
  if (MKFS.test(name)) return as("filesystem format", `${name} formats a filesystem; it is never allowed`);
  if (name === "rm") {
    if (args.some((w) => w.text === "--no-preserve-root")) return as("recursive deletion", "rm --no-preserve-root is never allowed");
    if (!hasRecursiveFlag(args)) return null;
    if (extraArgsFromStdin) return as("recursive deletion", "rm -r with paths read from stdin (xargs) could delete anything; list the paths explicitly");
    return as("recursive deletion", deletionReason(positionals(args), cwd, deletesEverything, "delete", floorNames));
  }
  if (name === "find") {
    const deletes = args.some((w) => w.text === "-delete") || args.some((w, i) => /^-(exec|execdir|ok|okdir)$/.test(w.text) && /^(rm|shred|unlink)$/.test(args[i + 1]?.text ?? ""));
    if (!deletes) return null;
    // `find . -name '*.pyc' -delete` picks files by name; without such a filter it takes everything
    const picks = args.some((w, i) => /^-(i?name|i?path|i?regex|i?wholename)$/.test(w.text) && /[A-Za-z0-9]/.test(args[i + 1]?.text ?? ""));
    if (picks) return null;
    const starts: ShellWord[] = [];
    for (const w of args) {
      if (w.text.startsWith("-") || w.text === "(" || w.text === "!") break;
      starts.push(w);
    }
    if (starts.length === 0) starts.push({ text: ".", pattern: ".", dynamic: false, glob: false });
    return as("recursive deletion", deletionReason(starts, cwd, deletesEverything, "delete", floorNames));
  }
  if (name === "chmod" || name === "chown" || name === "chgrp") {
    if (!args.some((w) => /^-[a-zA-Z]*R/.test(w.text) || w.text === "--recursive")) return null;
    return as(`recursive ${name}`, deletionReason(positionals(args).slice(1), cwd, homeOrRoot, `${name} -R`, floorNames));
  }
  if (name === "mv") {
    const ps = positionals(args);
    return as("moving away", deletionReason(ps.slice(0, -1), cwd, deletesEverything, "move away", floorNames));
  }
  if (name === "rsync" && args.some((w) => w.text.startsWith("--delete"))) {
    return as("recursive deletion", deletionReason(positionals(args).slice(-1), cwd, deletesEverything, "rsync --delete onto", floorNames));
  }
  if (name === "shred" && args.some((w) => /^-[a-zA-Z]*u/.test(w.text))) {
    return as("shredding", deletionReason(positionals(args), cwd, deletesEverything, "shred", floorNames));
  }
  return null;
}

function hasRecursiveFlag(args: ShellWord[]): boolean {
  return args.some((w) => !w.dynamic && ((/^-[a-zA-Z]+$/.test(w.text) && /[rR]/.test(w.text)) || w.text === "--recursive"));
}

function positionals(args: ShellWord[]): ShellWord[] {
  const out: ShellWord[] = [];
  let done = false;
  for (const w of args) {
    if (!done && w.text === "--") done = true;
    else if (done || w.dynamic || !w.text.startsWith("-") || w.text === "-") out.push(w);
  }
  return out;
}

/**
 * Whether any target is (or could expand to) a protected place. Unknowable targets are refused
 * when nothing before the unknown part pins them below a harmless directory.
 */
function deletionReason(targets: ShellWord[], cwd: string | null, isFloor: (p: string) => boolean, verb: string, floorNames: Set<string>): string | null {
  for (const w of targets) {
    if (w.dynamic) {
      const literal = w.text.split("\0")[0] as string;
      const unknown = `cannot tell what the ${verb} target "${displayWord(w)}" expands to, and it could be /, ~ or the project; spell the path out`;
      // `$TMPDIR/build`: whatever comes first, it ends in a name no protected directory has
      const tail = /\/([^/\0]+)\/*$/.exec(w.text.slice(w.text.lastIndexOf("\0") + 1))?.[1];
      if (tail && !w.glob && tail !== "." && tail !== ".." && !floorNames.has(tail)) continue;
      if (literal === "") return unknown;
      // `out$X`, `build/x$X`: a name below a known directory; `/$X`, `$HOME/$X`: anything in it
      if (!literal.endsWith("/")) continue;
      if (cwd === null && !literal.startsWith("/")) return unknown;
      if (isFloor(resolve(cwd ?? "/", literal))) return unknown;
      continue;
    }
    const target = globBase(w);
    if (target === null) continue;
    const escapes = target === "." || target.split("/").includes("..");
    if (cwd === null && !target.startsWith("/") && escapes) return `cannot tell which directory "${w.text}" is in after an unknown cd; use an absolute path`;
    if (cwd === null && !target.startsWith("/")) continue; // a name below wherever we are
    const abs = resolve(cwd ?? "/", target);
    if (isFloor(abs) || isFloor(realPath(abs))) {
      return `refusing to ${verb} ${w.text} (${abs}): it is /, your home or the project root, or contains them`;
    }
  }
  return null;
}

/**
 * The directory a glob would wipe out entirely (`/*`, `~/.*`, `*`), or the literal path itself;
 * null for a glob that picks some names only (`*.o`).
 */
function globBase(w: ShellWord): string | null {
  if (!w.glob) return trimTrailingSlashes(w.text);
  const segments = trimTrailingSlashes(w.pattern).split("/");
  const first = segments.findIndex((s) => /(^|[^\\])[*?[]/.test(s));
  const seg = segments[first] as string;
  const everything = !/[A-Za-z0-9_-]/.test(seg.replace(/\\./g, "x").replace(/\[[^\][]*\]/g, ""));
  if (!everything) return null;
  const dir = segments.slice(0, first).join("/").replace(/\\(.)/g, "$1");
  return first === 0 ? "." : dir === "" ? "/" : dir;
}

function displayWord(w: ShellWord): string {
  return w.text.replace(/\0/g, "$…");
}
