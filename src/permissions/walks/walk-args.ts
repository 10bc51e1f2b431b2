// Reading a walking command's arguments the way GNU getopt does: short clusters (`-rn`), values
// attached or in the next word (`-A3`, `-g x`, `--glob=x`), options anywhere before `--`. A word
// we cannot know (`$DIR`) is kept as a positional, so it becomes a start we cannot place and the
// command is asked about, never waved through.
import { relative } from "node:path";
import type { RootSpelling, Walk, WalkRoot, WalkVerb } from "./types.ts";
import { literalWord, type ShellWord } from "../shell/shell-words.ts";
import { trimEndChars } from "../../text/trim-chars.ts";

export type ArgSpec = {
  /** Short option letters that take a value. */
  short?: string;
  /** Long options that take a value. */
  long?: string[];
};

export type Opt = { name: string; value: ShellWord | null; at: number };

export type Args = {
  opts: Opt[];
  positionals: ShellWord[];
  /** How many positionals came before `--` (all of them when there was none). */
  beforeDashDash: number;
};

export function scanArgs(args: ShellWord[], spec: ArgSpec): Args {
  const out: Args = { opts: [], positionals: [], beforeDashDash: -1 };
  const long = new Set(spec.long ?? []);
  const short = spec.short ?? "";
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as ShellWord;
    const t = w.text;
    if (out.beforeDashDash !== -1 || w.dynamic || !t.startsWith("-") || t === "-") {
      out.positionals.push(w);
      continue;
    }
    if (t === "--") {
      out.beforeDashDash = out.positionals.length;
      continue;
    }
    if (t.startsWith("--")) {
      const eq = t.indexOf("=");
      const name = eq === -1 ? t : t.slice(0, eq);
      const value = eq !== -1 ? valueWord(t.slice(eq + 1)) : long.has(name) && i + 1 < args.length ? (args[++i] as ShellWord) : null;
      out.opts.push({ name, value, at: i });
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const letter = t[k] as string;
      if (!short.includes(letter)) {
        out.opts.push({ name: `-${letter}`, value: null, at: i });
        continue;
      }
      const rest = t.slice(k + 1);
      const value = rest !== "" ? valueWord(rest) : i + 1 < args.length ? (args[++i] as ShellWord) : null;
      out.opts.push({ name: `-${letter}`, value, at: i });
      break;
    }
  }
  if (out.beforeDashDash === -1) out.beforeDashDash = out.positionals.length;
  return out;
}

function valueWord(text: string): ShellWord {
  return literalWord(text);
}

export function has(args: Args, ...names: string[]): boolean {
  return args.opts.some((o) => names.includes(o.name));
}

/** Values of the named options that are known text. */
export function values(args: Args, ...names: string[]): Array<{ text: string; at: number }> {
  return args.opts.filter((o) => names.includes(o.name) && o.value && !o.value.dynamic).map((o) => ({ text: (o.value as ShellWord).text, at: o.at }));
}

/** The last numeric value of the named options, or undefined. A value we cannot read counts as no limit. */
export function lastNumber(args: Args, ...names: string[]): number | undefined {
  const found = args.opts.filter((o) => names.includes(o.name));
  const last = found[found.length - 1];
  if (!last) return undefined;
  const n = last.value && !last.value.dynamic && /^\d+$/.test(last.value.text) ? Number(last.value.text) : NaN;
  return Number.isNaN(n) ? Infinity : n;
}

/** The current directory as a command's default start. */
export function cwdRoot(): WalkRoot {
  return { word: literalWord("."), implicit: true };
}

export const rootsOf = (words: ShellWord[]): WalkRoot[] => words.map((word) => ({ word }));

/** A walk with the usual defaults, for the per-command builders. */
export function walk(verb: WalkVerb, roots: WalkRoot[], fields: Partial<Walk> = {}): Walk {
  return { verb, roots, depth: Infinity, followsLinks: false, skipsHidden: false, skipNames: [], skipPaths: [], ...fields };
}

/** A word as it could be typed back into a shell. */
export function shellQuote(text: string): string {
  return /^[\w.@%+=:,/-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/** A name glob a command matches against base names only: no slash, nothing unknowable. */
export function isNameGlob(text: string): boolean {
  return text !== "" && !text.includes("/") && !text.includes("\0");
}

/** A path below a walk's start as the walk prints it (find, grep, rg alike): the start as written, trailing slashes trimmed, then the rest. */
export function spellBelow(root: RootSpelling, abs: string): string {
  const start = root.implicit ? "." : trimEndChars(root.text, "/") || "/";
  const rest = relative(root.real, abs);
  return rest === "" ? start : start === "/" ? `/${rest}` : `${start}/${rest}`;
}
