// Interpreters running program text written into the command line itself (`python -c "..."`,
// `node -e`, `perl -ne`, `deno eval`, `perl -M'x;system(...)'`, `node --import data:...`) or fed on
// stdin (`python3 - <<'EOF'`, `echo ... | node`, `python /dev/stdin <<'EOF'`), or from a script
// KHAELOR cannot see (`python3 <(curl ...)`, `node "$SCRIPT"`, `perl /dev/fd/3`). That text can do
// anything and KHAELOR cannot check it, so it is opaque: a rule for the interpreter
// (`Bash(python:*)`, written with `python script.py` in mind) does not cover it; only a rule that
// spells out the code option (`Bash(python -c:*)`) or the whole Bash tool does.
// Shells are the exception where the text is bash: `bash -c '...'` with literal text, or a literal
// script on stdin, is read as a script by shell-analysis (which asks programSource() here how the
// shell gets its program, so the two never disagree) and judged command by command; it only
// reaches here when the text is unknowable (`bash -c "$X"`, `curl x | sh`).
import { basename, normalize } from "node:path";
import { literalPrefix } from "../rules/command-pattern.ts";
import type { CompiledRule } from "../rules/rule-set.ts";
import type { ShellWord } from "./shell-words.ts";

/** Where a command's stdin comes from: text in the command line (heredoc, herestring), another command, a file, or nothing (the tools' stdin is empty). */
export type StdinSource = "none" | "text" | "pipe" | "file";

export type InlineCode = {
  /** The interpreter as named, without its directory (`python3`). */
  interpreter: string;
  /** How the code is given: the option (`-c`, `--eval`), the subcommand (`eval`), `stdin`, or the script word it is read from. */
  via: string;
  /**
   * How many leading words an allow rule must spell out before any wildcard to cover this code:
   * through the code option. Null when the code comes from stdin or a script no rule can name.
   */
  ruleWords: number | null;
};

/** How an interpreter gets its program, from its options as its own parser reads them. */
export type ProgramSource =
  /** Text given with an option or subcommand; `code` is that word when it is one (null: unknowable or missing). */
  | { kind: "code"; via: string; optionAt: number; code: ShellWord | null }
  /** stdin: no script named (`implicit`), or `-`, `-s`, `/dev/stdin`, `/dev/fd/0`. */
  | { kind: "stdin"; implicit: boolean }
  /** A script word whose text KHAELOR cannot read: `<(...)`, `$X`, `/dev/fd/3`. */
  | { kind: "hidden"; via: string; at: number }
  /** A script file (or, for a shell, the first operand) at `at`. */
  | { kind: "script"; at: number }
  /** A named module runs (`python -m pytest`). */
  | { kind: "module" };

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
  /**
   * A POSIX shell: the code option's text is the first operand after all the options
   * (`bash -c -e 'cmd'` runs `cmd`), options may also start with `+` (`+o posix`), and `-s` reads
   * the program from stdin whatever operands follow.
   */
  shell?: boolean;
  /** An option value that is program text itself: `perl -M'x;system(q{id})'`, `node --import data:...`. */
  valueIsCode?: (option: string, value: string) => boolean;
};

/** `-MList::Util=sum` loads a module (perl quotes what follows `=`); anything else is Perl code after `use`. */
const PERL_MODULE = /^-?[A-Za-z_][\w:]*(=[^\0]*)?$/;
const NODE_LOADERS = new Set(["-r", "--require", "--import", "--loader", "--experimental-loader"]);

const SHELL: Grammar = { code: "c", value: "oO", valueLong: ["--init-file", "--rcfile"], readsStdin: true, shell: true };
const PYTHON: Grammar = { code: "c", value: "WX", runsNamed: "m", readsStdin: true };
const NODE: Grammar = {
  code: "ep",
  codeLong: ["--eval", "--print"],
  value: "rC",
  valueLong: ["--require", "--import", "--loader", "--experimental-loader", "--conditions", "--input-type", "--env-file", "--title"],
  readsStdin: true,
  // a `data:` URL is a module written out in the command line
  valueIsCode: (option, value) => NODE_LOADERS.has(option) && (/^data:/i.test(value) || value.includes("\0")),
};
const PERL: Grammar = {
  code: "eE",
  value: "I",
  attached: "MmdDxiCFV",
  digits: "l0",
  readsStdin: true,
  // `-M'x;system(q{id})'` becomes `use x;system(q{id});`, and `-d:Mod` becomes `use Devel::Mod;`
  valueIsCode: (option, value) => ((option === "-M" || option === "-m") && !PERL_MODULE.test(value)) || (option === "-d" && !/^(:[A-Za-z_][\w:]*)?$/.test(value)),
};
const RUBY: Grammar = { code: "e", value: "IrCE", attached: "FKTWx", digits: "0", readsStdin: true };

const GRAMMARS: Record<string, Grammar> = {
  sh: SHELL, bash: SHELL, zsh: SHELL, dash: SHELL, ksh: SHELL, ash: SHELL, fish: { code: "c", codeLong: ["--command"], readsStdin: true },
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

/** `name3.12` → `name`: /\d+(\.\d+)*$/ read from the end, as the regex is quadratic on a long run of digits. */
function withoutVersion(name: string): string {
  const digit = (i: number) => i >= 0 && name.charCodeAt(i) >= 48 && name.charCodeAt(i) <= 57;
  let i = name.length;
  while (digit(i - 1)) i--;
  if (i === name.length) return name;
  while (name[i - 1] === "." && digit(i - 2)) {
    i--;
    while (digit(i - 1)) i--;
  }
  return name.slice(0, i);
}

/** `python3.12` → `python`, `/usr/bin/perl5.36` → `perl`: the grammar to read its options with. */
function grammarOf(word: ShellWord | undefined): Grammar | undefined {
  if (!word || word.dynamic) return undefined;
  const name = withoutVersion(basename(word.text)).replace(/\.exe$/i, "");
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
  const interpreter = basename((argv[at] as ShellWord).text);
  const src = programSource(argv, at);
  switch (src.kind) {
    case "code":
      // a rule must spell out the words through the option that gives the code
      return { interpreter, via: src.via, ruleWords: src.optionAt + 1 };
    case "stdin": {
      const fed = stdin === "text" || stdin === "pipe";
      return fed && (!src.implicit || (grammarOf(argv[at]) as Grammar).readsStdin) ? { interpreter, via: "stdin", ruleWords: null } : null;
    }
    case "hidden":
      return { interpreter, via: src.via, ruleWords: null };
    default:
      return null;
  }
}

/**
 * The program text an interpreter (not a shell: shell-analysis reads those as scripts) runs when
 * it is written in the command line or fed as known text on stdin, for the hardline floor to scan.
 */
export function inlineProgram(argv: ShellWord[], stdinText: string[] | null): { interpreter: string; texts: string[] } | null {
  const at = interpreterIndex(argv);
  if (at === -1 || grammarOf(argv[at])?.shell) return null;
  const interpreter = withoutVersion(basename((argv[at] as ShellWord).text)).replace(/\.exe$/i, "");
  const src = programSource(argv, at);
  if (src.kind === "code") return src.code ? { interpreter, texts: [src.code.text] } : null;
  if (src.kind === "stdin" && stdinText) return { interpreter, texts: stdinText };
  return null;
}

/**
 * How the interpreter at `argv[at]` gets its program, read with that interpreter's option grammar.
 * The one reader of interpreter (and shell) options: the inline-code check and shell-analysis
 * (which reads a shell's literal program as a script) both ask here.
 */
export function programSource(argv: ShellWord[], at = 0): ProgramSource {
  const g = grammarOf(argv[at]);
  if (!g) return { kind: "script", at: at + 1 };
  const code = (via: string, optionAt: number, word: ShellWord | null | undefined): ProgramSource => ({
    kind: "code",
    via: via.replace(/\0/g, "$…"),
    optionAt,
    code: word && !word.dynamic ? word : null,
  });
  // a shell's `-c` takes the first operand after every option as its code
  let shellCode: { via: string; at: number } | null = null;
  let stdinFlag = false;
  const operand = (i: number): ProgramSource => {
    const w = argv[i] as ShellWord;
    if (shellCode) return code(shellCode.via, shellCode.at, w);
    if (stdinFlag) return { kind: "stdin", implicit: false };
    return scriptSource(w, i);
  };
  for (let i = at + 1; i < argv.length; i++) {
    const w = argv[i] as ShellWord;
    const t = w.text;
    const optionLike = t.startsWith("-") || (!!g.shell && t.startsWith("+"));
    // an option we cannot read (`-$FLAGS`) could be the code option
    if (w.dynamic && optionLike) return code(t, i, null);
    // `--` ends the options: a script (or a shell's code) follows, or the program comes from stdin
    if (t === "--") {
      if (i + 1 < argv.length) return operand(i + 1);
      break;
    }
    if (t === "-") return shellCode ? code(shellCode.via, shellCode.at, w) : { kind: "stdin", implicit: false };
    const name = t.includes("=") ? t.slice(0, t.indexOf("=")) : t;
    if ((g.codeLong ?? []).includes(name.toLowerCase())) return code(name, i, t.includes("=") ? { ...w, text: t.slice(name.length + 1) } : argv[i + 1]);
    if (t.startsWith("--")) {
      if (!(g.valueLong ?? []).includes(name)) continue;
      const value = t.includes("=") ? { ...w, text: t.slice(name.length + 1) } : argv[++i];
      if (value && g.valueIsCode?.(name, value.dynamic ? `${value.text}\0` : value.text)) return code(name, i, value);
      continue;
    }
    if (optionLike && t.length > 1) {
      const read = readShortOptions(argv, i, g);
      if (read.code) return code(read.code.option, i, read.code.word);
      if (read.module) return { kind: "module" };
      if (read.shellCode) shellCode ??= { via: "-c", at: i };
      stdinFlag ||= read.stdin;
      i = read.last;
      continue;
    }
    if (g.codeSubcommands?.includes(t)) return code(t, i, argv[i + 1]);
    // the script (or a subcommand): every word after it is its own
    return operand(i);
  }
  if (shellCode) return code(shellCode.via, shellCode.at, null);
  return { kind: "stdin", implicit: !stdinFlag };
}

/** A script word at `argv[at]`: stdin by another name (`/dev/stdin`), text KHAELOR cannot see (`<(...)`, `$X`, `/dev/fd/3`), or a file. */
export function scriptSource(w: ShellWord, at: number): ProgramSource {
  if (w.dynamic) return { kind: "hidden", via: `a script only known when it runs${w.text === "\0" ? "" : ` (${w.text.replace(/\0/g, "$…")})`}`, at };
  const p = normalize(w.text);
  const fd = /(?:^|\/)dev\/fd\/(\d+)$/.exec(p) ?? /(?:^|\/)proc\/[^/]+\/fd\/(\d+)$/.exec(p);
  if (/(?:^|\/)dev\/stdin$/.test(p) || fd?.[1] === "0") return { kind: "stdin", implicit: false };
  if (fd) return { kind: "hidden", via: `the file descriptor ${w.text}`, at };
  return { kind: "script", at };
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

type ShortRead = {
  /** The code option and its text (attached, or the next word). */
  code: { option: string; word: ShellWord | null | undefined } | null;
  /** A shell's `-c`: the first operand is the code. */
  shellCode: boolean;
  module: boolean;
  /** A shell's `-s`. */
  stdin: boolean;
  /** The last word the cluster used: itself, or the next word as a value. */
  last: number;
};

/** How a cluster of short options at `argv[i]` (`-Bc`, `-lne`, `-Wignore`, `+o posix`) reads. */
function readShortOptions(argv: ShellWord[], i: number, g: Grammar): ShortRead {
  const w = argv[i] as ShellWord;
  const word = w.text;
  const out: ShortRead = { code: null, shellCode: false, module: false, stdin: false, last: i };
  for (let k = 1; k < word.length; k++) {
    const c = word[k] as string;
    const rest = word.slice(k + 1);
    if (g.code.includes(c)) {
      // a shell's -c only says the first operand is code; more options may follow
      if (g.shell) out.shellCode = true;
      else {
        out.code = { option: `-${c}`, word: rest !== "" ? { ...w, text: rest } : argv[i + 1] };
        return out;
      }
      continue;
    }
    if (g.runsNamed?.includes(c)) {
      out.module = true;
      return out;
    }
    if (g.shell && c === "s") {
      out.stdin = true;
      continue;
    }
    if (g.value?.includes(c)) {
      const next = argv[i + 1];
      const value = rest !== "" ? rest : next ? (next.dynamic ? `${next.text}\0` : next.text) : undefined;
      if (value !== undefined && g.valueIsCode?.(`-${c}`, value)) out.code = { option: `-${c}`, word: rest !== "" ? { ...w, text: rest } : next };
      else if (rest === "" && next) out.last = i + 1;
      return out;
    }
    if (g.attached?.includes(c)) {
      if (g.valueIsCode?.(`-${c}`, rest)) out.code = { option: `-${c}`, word: { ...w, text: rest } };
      return out;
    }
    // `-l0`, `-0777`, `-0x1F`: the digits belong to the option, then more options may follow
    if (g.digits?.includes(c)) k += (/^(?:x[0-9a-fA-F]+|[0-7]*)/.exec(rest) as RegExpExecArray)[0].length;
  }
  return out;
}
