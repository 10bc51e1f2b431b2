// Interpreters running program text written into the command line itself (`python -c "..."`,
// `node -e`, `perl -ne`, `deno eval`) or fed on stdin (`python3 - <<'EOF'`, `echo ... | node`).
// That text can do anything and KHAELOR cannot check it, so it is opaque: a rule for the
// interpreter (`Bash(python:*)`, written with `python script.py` in mind) does not cover it; only
// a rule that spells out the code option (`Bash(python -c:*)`) or the whole Bash tool does.
// Shells are the exception where the text is bash: `bash -c '...'` with literal text is read as a
// script by shell-analysis and judged command by command, and only reaches here when the text is
// unknowable (`bash -c "$X"`).
import { basename } from "node:path";
import { literalPrefix } from "./command-pattern.ts";
import type { CompiledRule } from "./rule-set.ts";
import type { ShellWord } from "./shell-words.ts";

/** Where a command's stdin comes from: text in the command line (heredoc, herestring), another command, a file, or nothing (the tools' stdin is empty). */
export type StdinSource = "none" | "text" | "pipe" | "file";

export type InlineCode = {
  /** The interpreter as named, without its directory (`python3`). */
  interpreter: string;
  /** How the code is given: the option (`-c`, `--eval`), the subcommand (`eval`), or `stdin`. */
  via: string;
  /**
   * How many leading words an allow rule must spell out before any wildcard to cover this code:
   * through the code option. Null when the code comes from stdin, which no rule can name.
   */
  ruleWords: number | null;
};

type Grammar = {
  /** Short options whose value is program text (`c` for `-c`), attached or the next word. */
  code: string;
  /** Long options whose value is program text. */
  codeLong?: string[];
  /** Subcommands whose argument is program text (`deno eval`). */
  codeSubcommands?: string[];
  /** Short options taking a value: attached, else the next word. */
  value?: string;
  /** Short options whose value, if any, is the rest of the word (never the next word). */
  attached?: string;
  /** Short options followed by optional digits, then more options (`perl -l0ne`). */
  digits?: string;
  /** Long options taking the next word as a value (unless written `--opt=value`). */
  valueLong?: string[];
  /** Short options that run a named module or script instead (`python -m pytest`). */
  runsNamed?: string;
  /** With no script named, the program is read from stdin. */
  readsStdin: boolean;
};

const SHELL: Grammar = { code: "c", value: "oO", valueLong: ["--init-file", "--rcfile"], readsStdin: true };
const PYTHON: Grammar = { code: "c", value: "WX", runsNamed: "m", readsStdin: true };
const NODE: Grammar = {
  code: "ep",
  codeLong: ["--eval", "--print"],
  value: "rC",
  valueLong: ["--require", "--import", "--loader", "--experimental-loader", "--conditions", "--input-type", "--env-file", "--title"],
  readsStdin: true,
};
const PERL: Grammar = { code: "eE", value: "I", attached: "MmdDxiCFV", digits: "l0", readsStdin: true };
const RUBY: Grammar = { code: "e", value: "IrCE", attached: "FKTWx", digits: "0", readsStdin: true };

const GRAMMARS: Record<string, Grammar> = {
  sh: SHELL, bash: SHELL, zsh: SHELL, dash: SHELL, ksh: SHELL, ash: SHELL, fish: { ...SHELL, codeLong: ["--command"] },
  python: PYTHON, pypy: PYTHON,
  node: NODE, nodejs: NODE,
  bun: { code: "ep", codeLong: ["--eval", "--print"], readsStdin: false },
  deno: { code: "", codeSubcommands: ["eval"], readsStdin: false },
  perl: PERL,
  ruby: RUBY,
  php: { code: "rBRE", value: "cdfzt", readsStdin: true },
  lua: { code: "e", value: "l", readsStdin: true }, luajit: { code: "e", value: "lj", readsStdin: true },
  Rscript: { code: "e", readsStdin: false },
  julia: { code: "eE", codeLong: ["--eval", "--print"], value: "JCtp", readsStdin: true },
  osascript: { code: "e", value: "lsi", readsStdin: true },
  pwsh: { code: "c", codeLong: ["-command", "-encodedcommand", "-ec"], readsStdin: false },
  powershell: { code: "c", codeLong: ["-command", "-encodedcommand", "-ec"], readsStdin: false },
};

/** `python3.12` → `python`, `/usr/bin/perl5.36` → `perl`: the grammar to read its options with. */
function grammarOf(word: ShellWord | undefined): Grammar | undefined {
  if (!word || word.dynamic) return undefined;
  const name = basename(word.text).replace(/\d+(\.\d+)*$/, "").replace(/\.exe$/i, "");
  return Object.hasOwn(GRAMMARS, name) ? GRAMMARS[name] : Object.hasOwn(GRAMMARS, name.toLowerCase()) ? GRAMMARS[name.toLowerCase()] : undefined;
}

/** Commands that run the command after them in an environment: `uv run python -c ...`. */
const RUNNERS = [
  "uv run", "poetry run", "pipenv run", "pdm run", "hatch run", "rye run", "pixi run", "conda run", "mamba run",
  "micromamba run", "bundle exec", "npx", "bunx", "pnpx", "pnpm exec", "npm exec", "yarn exec", "uvx",
];

/** The inline code this command runs, or null. `argv` has wrappers (timeout, env, sudo) removed. */
export function findInlineCode(argv: ShellWord[], stdin: StdinSource): InlineCode | null {
  const at = interpreterIndex(argv);
  if (at === -1) return null;
  const head = argv[at] as ShellWord;
  const grammar = grammarOf(head) as Grammar;
  const interpreter = basename(head.text);
  // a rule must spell out the words through the option that gives the code
  const found = (via: string, i: number): InlineCode => ({ interpreter, via, ruleWords: i + 1 });
  const fromStdin = stdin === "text" || stdin === "pipe";
  const readsStdin = (): InlineCode | null => (grammar.readsStdin && fromStdin ? { interpreter, via: "stdin", ruleWords: null } : null);
  for (let i = at + 1; i < argv.length; i++) {
    const w = argv[i] as ShellWord;
    const t = w.text;
    // an option we cannot read (`-$FLAGS`) could be the code option
    if (w.dynamic && t.startsWith("-")) return found(t.replace(/\0/g, "$…"), i);
    // `--` ends the options: a script follows, or the program comes from stdin
    if (t === "--") return argv[i + 1] ? null : readsStdin();
    if (t === "-") return fromStdin ? { interpreter, via: "stdin", ruleWords: null } : null;
    const name = t.includes("=") ? t.slice(0, t.indexOf("=")) : t;
    if ((grammar.codeLong ?? []).includes(name.toLowerCase())) return found(name, i);
    if (t.startsWith("--")) {
      if ((grammar.valueLong ?? []).includes(name) && !t.includes("=")) i++;
      continue;
    }
    if (t.startsWith("-") && t.length > 1) {
      const read = readShortOptions(t, grammar);
      if (read.startsWith("-")) return found(read, i);
      if (read === "runsNamed") return null;
      if (read === "takesNext") i++;
      continue;
    }
    if (grammar.codeSubcommands?.includes(t)) return found(t, i);
    // the script (or a subcommand): every word after it is its own
    return null;
  }
  return readsStdin();
}

/**
 * Whether an allow rule that matched the command covers its inline code: the whole tool (`Bash`),
 * or a rule whose text before any wildcard reaches through the code option (`python -c:*`).
 */
export function coversInlineCode(rule: CompiledRule, words: string[], inline: InlineCode): boolean {
  if (rule.parsed.specifier === undefined) return true;
  if (inline.ruleWords === null) return false;
  return literalPrefix(rule.parsed.specifier).startsWith(words.slice(0, inline.ruleWords).join(" "));
}

/** Which argv word is an interpreter: the first, or the first after a runner and its options. */
function interpreterIndex(argv: ShellWord[]): number {
  if (grammarOf(argv[0])) return 0;
  const words = argv.map((w) => (w.dynamic ? "\0" : w.text));
  const runner = RUNNERS.find((r) => r.split(" ").every((part, k) => words[k] === part));
  if (!runner) return -1;
  let afterOption = false;
  for (let i = runner.split(" ").length; i < words.length; i++) {
    const t = words[i] as string;
    if (t === "--") continue;
    if (t.startsWith("-")) {
      afterOption = !t.includes("=");
      continue;
    }
    if (grammarOf(argv[i])) return i;
    // a word after an option may be its value (`conda run -n env python`); any other word is what runs
    if (!afterOption) return -1;
    afterOption = false;
  }
  return -1;
}

/** How a cluster of short options (`-Bc`, `-lne`, `-Wignore`) reads: the code option (`-e`) if it has one. */
function readShortOptions(word: string, g: Grammar): `-${string}` | "runsNamed" | "takesNext" | "flags" {
  for (let k = 1; k < word.length; k++) {
    const c = word[k] as string;
    if (g.code.includes(c)) return `-${c}`;
    if (g.runsNamed?.includes(c)) return "runsNamed";
    if (g.value?.includes(c)) return k === word.length - 1 ? "takesNext" : "flags";
    if (g.attached?.includes(c)) return "flags";
    // `-l0`, `-0777`, `-0x1F`: the digits belong to the option, then more options may follow
    if (g.digits?.includes(c)) k += (/^(?:x[0-9a-fA-F]+|[0-7]*)/.exec(word.slice(k + 1)) as RegExpExecArray)[0].length;
  }
  return "flags";
}
