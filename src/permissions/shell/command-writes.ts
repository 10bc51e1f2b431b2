// Which words of a file-changing command name the files it writes or removes. Used to refuse writes
// into .git/ and .khaelor/ made through bash, and to let acceptEdits run mkdir/touch/cp/mv inside
// the project.
import type { ShellWord } from "./shell-words.ts";

const ALL_POSITIONALS = new Set(["rm", "rmdir", "unlink", "touch", "truncate", "shred", "mkdir", "tee", "mv"]);
const AFTER_FIRST = new Set(["chmod", "chown", "chgrp"]);
const LAST_POSITIONAL = new Set(["cp", "install", "ln"]);
const VALUE_OPTS: Record<string, string[]> = {
  truncate: ["-s", "--size", "-r", "--reference"],
  mkdir: ["-m", "--mode"],
  install: ["-m", "--mode", "-o", "--owner", "-g", "--group", "-t", "--target-directory"],
  cp: ["-t", "--target-directory"],
  mv: ["-t", "--target-directory"],
  ln: ["-t", "--target-directory"],
  chown: ["--reference"],
  chmod: ["--reference"],
  sed: ["-e", "-f", "--expression", "--file", "-l"],
};

/** Files the command writes, or null when it is not a file-changing command we know. */
export function writtenPaths(argv: ShellWord[]): ShellWord[] | null {
  const name = argv[0];
  if (!name || name.dynamic) return null;
  const cmd = name.text;
  const valueOpts = new Set(VALUE_OPTS[cmd] ?? []);
  const positionals: ShellWord[] = [];
  const targetDirs: ShellWord[] = [];
  let inPlace = false;
  let scriptGiven = false;
  let done = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as ShellWord;
    if (!done && w.text === "--") {
      done = true;
      continue;
    }
    if (!done && !w.dynamic && w.text.startsWith("-") && w.text.length > 1) {
      if (w.text.startsWith("--target-directory=")) targetDirs.push({ ...w, text: w.text.slice(19) });
      if (cmd === "sed" && (/^-[a-zA-Z]*i/.test(w.text) || w.text.startsWith("--in-place"))) inPlace = true;
      if (valueOpts.has(w.text) && i + 1 < argv.length) {
        const value = argv[++i] as ShellWord;
        if (w.text === "-t" || w.text === "--target-directory") targetDirs.push(value);
        if (cmd === "sed" && w.text !== "-l") scriptGiven = true;
      }
      continue;
    }
    positionals.push(w);
  }
  if (cmd === "dd") {
    return argv
      .slice(1)
      .filter((w) => w.text.startsWith("of="))
      .map((w) => ({ ...w, text: w.text.slice(3), pattern: w.pattern.slice(3) }));
  }
  if (ALL_POSITIONALS.has(cmd)) return [...positionals, ...targetDirs];
  if (AFTER_FIRST.has(cmd)) return positionals.slice(1);
  if (LAST_POSITIONAL.has(cmd)) return targetDirs.length > 0 ? targetDirs : positionals.slice(-1);
  if (cmd === "sed") return inPlace ? positionals.slice(scriptGiven ? 0 : 1) : null;
  return null;
}
