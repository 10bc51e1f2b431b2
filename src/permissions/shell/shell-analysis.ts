// A bash command line → the simple commands it runs and the files its redirections touch, using the
// tree-sitter bash grammar. Compound commands (&& || ; | & newlines, if/for/while, subshells,
// functions) are flattened; $(...), backticks and <(...) are inspected. What a shell will run is
// parsed in turn when its text is literal: `bash -c '...'`, a shell fed a heredoc or herestring
// (also as `bash /dev/stdin`), text piped into it by echo, printf or cat (`printf 'x\n' | sh`), a
// script given as `<(echo ...)`, `source /dev/stdin <<<`, and `eval` with literal text. How a
// shell gets its program is read by programSource() in ./inline-code.ts, the one reader of shell
// options. `cd` with a literal target is followed so later relative paths resolve where they will
// run. Each command notes where its stdin comes from, since an interpreter may read its program there.
import type { Node, Parser } from "web-tree-sitter";
import { basename, resolve } from "node:path";
import { unwrapCommand } from "./command-wrappers.ts";
import { programSource, scriptSource, type StdinSource } from "./inline-code.ts";
import { printedText } from "./printed-text.ts";
import { evaluateWord, literalWord, type ShellVars, type ShellWord } from "./shell-words.ts";

export type CommandPart = {
  kind: "command";
  words: ShellWord[];
  /** Leading NAME=value assignments of this command only. */
  assignments: string[];
  /**
   * Variables this script set (or exported) before the command: `PATH=/tmp/x; ls` and
   * `export LD_PRELOAD=x.so; cat f` change what the command loads, as a leading assignment does.
   */
  setBefore: string[];
  /** Directory it runs in; null when a `cd` went somewhere unknowable. */
  cwd: string | null;
  stdin: StdinSource;
  text: string;
};

export type RedirectPart = {
  kind: "redirect";
  access: "read" | "write";
  target: ShellWord;
  cwd: string | null;
  text: string;
};

export type ShellPart = CommandPart | RedirectPart;

export type ShellAnalysis = {
  parts: ShellPart[];
  /** Why the text could not be understood; such commands always ask (or deny in plan mode). */
  parseError: string | null;
  forkBomb: boolean;
};

type Ctx = {
  cwd: string | null;
  vars: ShellVars;
  /** Names assigned or exported so far (see CommandPart.setBefore). */
  set: string[];
  stdin: StdinSource;
  /**
   * The text on stdin when it is known: a literal heredoc or herestring, or what a literal echo,
   * printf or cat before it in a pipeline prints. Several readings when the printer's exact
   * output depends on the shell; null when unknown.
   */
  stdinText: string[] | null;
  /** For a pipeline inside a heredoc (`cat <<EOF | sh`): what the statement fed by the heredoc prints. */
  feed?: string[] | null;
};

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash"]);
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", ">&"]);

/** Characters that end a shell word (or a function's name) in the fork-bomb scan. */
const WORD_END = new Set([..." \t\n\r\v\f;&|(){}<>'\"`"]);

/**
 * The text form of a fork bomb, for text the parser does not see as a function (inside quotes, after
 * a parse error): `NAME(){ ... NAME | NAME & ... }`. One pass, linear in the text: the regex it
 * replaces, /(\S+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/, took 6 s on one 100 KB word.
 */
export function forkBombText(text: string): boolean {
  const isSpace = (c: string | undefined) => c === " " || c === "\t" || c === "\n" || c === "\r" || c === "\v" || c === "\f";
  /** The name ending just before `end` (spaces skipped back first); its start is `from`. */
  const nameBefore = (end: number): { name: string; from: number } => {
    let e = end;
    while (e > 0 && isSpace(text[e - 1])) e--;
    let b = e;
    while (b > 0 && !WORD_END.has(text[b - 1] as string)) b--;
    return { name: text.slice(b, e), from: b };
  };
  /** Where the innermost open function body of each name began, and where it closes. */
  const openBody = new Map<string, number>();
  let lastClose = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "}") lastClose = i;
    else if (c === "(") {
      // NAME ( ) {
      let j = i + 1;
      while (isSpace(text[j])) j++;
      if (text[j] !== ")") continue;
      j++;
      while (isSpace(text[j])) j++;
      if (text[j] !== "{") continue;
      const { name } = nameBefore(i);
      if (name !== "") openBody.set(name, j);
      i = j;
    } else if (c === "|" && text[i + 1] !== "|" && text[i - 1] !== "|") {
      // NAME | NAME &, inside that name's body with no `}` before the left NAME
      const left = nameBefore(i);
      if (left.name === "") continue;
      const body = openBody.get(left.name);
      if (body === undefined || lastClose > body) continue;
      let j = i + 1;
      while (isSpace(text[j])) j++;
      if (!text.startsWith(left.name, j)) continue;
      j += left.name.length;
      while (isSpace(text[j])) j++;
      if (text[j] === "&" && text[j + 1] !== "&") return true;
    }
  }
  return false;
}

export function analyzeShell(parser: Parser, command: string, env: { cwd: string; home: string }): ShellAnalysis {
  const out: ShellAnalysis = { parts: [], parseError: null, forkBomb: false };
  const vars: ShellVars = new Map([
    ["HOME", literalWord(env.home)],
    ["PWD", literalWord(env.cwd)],
  ]);
  new Walker(parser, env.home, out).script(command, { cwd: env.cwd, vars, set: [], stdin: "none", stdinText: null }, 0);
  if (forkBombText(command.replace(/\\\n/g, ""))) out.forkBomb = true;
  return out;
}

class Walker {
  constructor(
    private parser: Parser,
    private home: string,
    private out: ShellAnalysis,
  ) {}

  script(text: string, ctx: Ctx, depth: number): void {
    if (depth > 4) {
      this.out.parseError ??= "commands nested too deeply to check";
      return;
    }
    const tree = this.parser.parse(text);
    if (!tree) {
      this.out.parseError ??= "the command could not be parsed";
      return;
    }
    try {
      if (tree.rootNode.hasError) this.out.parseError ??= `bash syntax KHAELOR could not parse: ${firstError(tree.rootNode)}`;
      this.node(tree.rootNode, ctx, depth);
    } finally {
      tree.delete();
    }
  }

  private words(node: Node, ctx: Ctx): ShellWord[] {
    return evaluateWord(node, ctx.vars, this.home);
  }

  private node(node: Node, ctx: Ctx, depth: number): void {
    switch (node.type) {
      case "command":
        return this.command(node, ctx, depth);
      case "pipeline": {
        // each runs in its own subshell, all but the first reading the previous one's output;
        // a pipeline inside a heredoc (`cat <<EOF | python3`) is fed from its first line
        const fed = node.parent?.type === "heredoc_redirect";
        let printed: string[] | null = fed ? (ctx.feed ?? null) : null;
        node.namedChildren.forEach((child, i) => {
          if (!child) return;
          const piped = i > 0 || fed;
          const inner: Ctx = piped ? { ...cloneCtx(ctx), stdin: "pipe", stdinText: printed, feed: null } : { ...cloneCtx(ctx), feed: null };
          this.node(child, inner, depth);
          printed = this.printed(child, inner);
        });
        return;
      }
      case "redirected_statement":
        return this.redirectedStatement(node, ctx, depth);
      case "subshell":
      case "command_substitution":
      case "process_substitution": {
        // each runs in its own subshell: a `cd` inside does not leak out
        for (const child of node.namedChildren) if (child) this.node(child, cloneCtx(ctx), depth);
        return;
      }
      case "variable_assignment":
        return this.assignment(node, ctx, depth);
      case "declaration_command":
        for (const child of node.namedChildren) {
          if (!child) continue;
          if (child.type === "variable_assignment") this.assignment(child, ctx, depth);
          else if (child.type === "variable_name") ctx.set.push(child.text); // `export X`
          else this.node(child, ctx, depth);
        }
        return;
      case "unset_command":
        for (const child of node.namedChildren) {
          if (!child) continue;
          ctx.vars.set(child.text, null);
          ctx.set = ctx.set.filter((n) => n !== child.text);
        }
        return;
      case "for_statement": {
        const variable = node.childForFieldName("variable");
        if (variable) ctx.vars.set(variable.text, null);
        for (const child of node.namedChildren) if (child && child !== variable) this.node(child, ctx, depth);
        return;
      }
      case "function_definition":
        this.functionDefinition(node);
        for (const child of node.namedChildren) if (child) this.node(child, cloneCtx(ctx), depth);
        return;
      case "file_redirect":
        return this.redirect(node, ctx, depth);
      case "ERROR":
        this.out.parseError ??= `bash syntax KHAELOR could not parse near "${node.text.slice(0, 40)}"`;
        for (const child of node.namedChildren) if (child) this.node(child, ctx, depth);
        return;
      default:
        for (const child of node.namedChildren) if (child) this.node(child, ctx, depth);
    }
  }

  /** `body < file`, `body <<EOF`: the body's stdin is the last such redirection. */
  private redirectedStatement(node: Node, ctx: Ctx, depth: number): void {
    const body = node.childForFieldName("body");
    const redirects = node.childrenForFieldName("redirect").filter((r) => r !== null);
    const stdin = stdinOf(redirects, ctx);
    const outer = { stdin: ctx.stdin, stdinText: ctx.stdinText };
    if (body) {
      Object.assign(ctx, stdin);
      this.node(body, ctx, depth);
      Object.assign(ctx, outer);
    }
    // `cat <<'EOF' | sh`: the pipeline sits in the heredoc and reads what the body prints
    const feed = body ? this.printed(body, { ...ctx, ...stdin }) : null;
    for (const r of redirects) this.node(r, r.type === "heredoc_redirect" ? { ...ctx, feed } : ctx, depth);
  }

  /** What a statement that only prints (echo, printf, cat of a literal heredoc) writes to stdout; null when unknown. */
  private printed(node: Node, ctx: Ctx): string[] | null {
    if (node.type === "redirected_statement") {
      const body = node.childForFieldName("body");
      const redirects = node.childrenForFieldName("redirect").filter((r) => r !== null);
      // output sent elsewhere (`echo x > f | sh`) reaches nobody down the pipe
      if (!body || redirects.some((r) => r.type === "file_redirect" && redirectOp(r) !== "<")) return null;
      return this.printed(body, { ...ctx, ...stdinOf(redirects, ctx) });
    }
    if (node.type !== "command") return null;
    const words: ShellWord[] = [];
    let stdinText = ctx.stdinText;
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child || !child.isNamed) continue;
      if (child.type === "variable_assignment" && node.fieldNameForChild(i) !== "argument") continue;
      if (child.type === "herestring_redirect" || child.type === "heredoc_redirect") stdinText = literalStdin(child);
      else if (child.type === "file_redirect") return null;
      else words.push(...this.words(child.type === "command_name" ? (child.firstNamedChild ?? child) : child, ctx));
    }
    const argv = unwrapCommand(words, { throughSudo: true }).argv;
    if (argv.length === 0 || argv.some((w) => w.dynamic)) return null;
    return printedText(argv.map((w) => w.text), stdinText);
  }

  private assignment(node: Node, ctx: Ctx, depth: number): void {
    const name = node.childForFieldName("name");
    const value = node.childForFieldName("value");
    if (value) this.node(value, ctx, depth);
    if (!name) return;
    ctx.set.push(name.text);
    const words = value ? this.words(value, ctx) : [literalWord("")];
    ctx.vars.set(name.text, words.length === 1 ? (words[0] as ShellWord) : null);
  }

  private functionDefinition(node: Node): void {
    const name = node.childForFieldName("name")?.text;
    const body = node.childForFieldName("body");
    if (!name || !body) return;
    // A function that calls itself in a pipeline or in the background multiplies without end.
    let recursive = false;
    let spawns = false;
    const visit = (n: Node) => {
      if (n.type === "command" && n.childForFieldName("name")?.text === name) recursive = true;
      if (n.type === "pipeline" || (!n.isNamed && n.type === "&")) spawns = true;
      for (const c of n.children) if (c) visit(c);
    };
    visit(body);
    if (recursive && spawns) this.out.forkBomb = true;
  }

  private redirect(node: Node, ctx: Ctx, depth: number): void {
    const dest = node.childForFieldName("destination");
    const op = redirectOp(node);
    if (dest) this.node(dest, ctx, depth);
    if (!dest || dest.type === "number" || dest.text === "-") return; // 2>&1, >&2, >&-
    const access = WRITE_OPS.has(op) ? "write" : op === "<" || op === "<>" ? "read" : null;
    if (!access) return;
    for (const target of this.words(dest, ctx)) {
      this.out.parts.push({ kind: "redirect", access, target, cwd: ctx.cwd, text: node.text });
      if (op === "<>") this.out.parts.push({ kind: "redirect", access: "write", target, cwd: ctx.cwd, text: node.text });
    }
  }

  private command(node: Node, ctx: Ctx, depth: number): void {
    const words: ShellWord[] = [];
    const assignments: string[] = [];
    /** Words naming a process substitution, with what its command prints when known. */
    const substituted = new Map<ShellWord, string[] | null>();
    let stdin = { stdin: ctx.stdin, stdinText: ctx.stdinText };
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child || !child.isNamed) continue;
      const field = node.fieldNameForChild(i);
      if (child.type === "variable_assignment" && field !== "argument") {
        const name = child.childForFieldName("name")?.text;
        if (name) assignments.push(name);
        const value = child.childForFieldName("value");
        if (value) this.node(value, ctx, depth);
        continue;
      }
      if (child.type === "file_redirect" || child.type === "herestring_redirect" || child.type === "heredoc_redirect") {
        if (child.type !== "file_redirect") stdin = { stdin: "text", stdinText: literalStdin(child) };
        else if (redirectOp(child) === "<") stdin = { stdin: "file", stdinText: null };
        this.node(child, ctx, depth);
        continue;
      }
      // substitutions inside the words run too
      this.node(child, ctx, depth);
      const evaluated = this.words(child.type === "command_name" ? (child.firstNamedChild ?? child) : child, ctx);
      // `sh <(echo 'rm -rf /')`: the file a process substitution names holds what its command prints
      if (child.type === "process_substitution") {
        const statement = child.namedChildren.length === 1 ? child.namedChildren[0] : null;
        const printed = statement ? this.printed(statement, { ...cloneCtx(ctx), stdin: "none", stdinText: null }) : null;
        for (const w of evaluated) substituted.set(w, printed);
      }
      words.push(...evaluated);
    }
    if (words.length === 0) return;
    const inner = unwrapCommand(words, { throughSudo: true });
    const argv = inner.argv;
    const name = argv[0]?.dynamic ? null : argv[0]?.text;
    // `bash -c '...'`, `bash <<'EOF'`, `echo ... | sh`, `source /dev/stdin`: what runs is the text; read it as a script of its own
    const program = name && SHELLS.has(basename(name)) ? programSource(argv, 0) : (name === "source" || name === ".") && argv[1] ? scriptSource(argv[1], 1) : null;
    if (program) {
      const shellStdin = { stdin: stdin.stdin, stdinText: stdin.stdinText };
      const run = (texts: string[], inner: Pick<Ctx, "stdin" | "stdinText">) => {
        // `source` runs in this shell, so its `cd` carries on; a shell is a process of its own
        const at = name === "source" || name === "." ? ctx : cloneCtx(ctx);
        const outer = { stdin: at.stdin, stdinText: at.stdinText };
        Object.assign(at, inner);
        for (const text of texts) this.script(text, at, depth + 1);
        Object.assign(at, outer);
      };
      const read = (w: ShellWord | undefined) => (w ? substituted.get(w) : undefined);
      if (program.kind === "code" && program.code) return run([program.code.text], shellStdin);
      // the rest of a script read from stdin is that script's commands' stdin: unknown text
      if (program.kind === "stdin" && (stdin.stdin === "text" || stdin.stdin === "pipe") && stdin.stdinText) return run(stdin.stdinText, { stdin: "text", stdinText: null });
      const substitutedText = program.kind === "script" || program.kind === "hidden" ? read(argv[program.at]) : undefined;
      if (substitutedText) return run(substitutedText, shellStdin);
    }
    if (name === "eval" && argv.length > 1 && argv.slice(1).every((w) => !w.dynamic)) {
      this.script(argv.slice(1).map((w) => w.text).join(" "), ctx, depth + 1);
      return;
    }
    this.out.parts.push({ kind: "command", words, assignments, setBefore: [...new Set(ctx.set)], cwd: inner.cwdUnknown ? null : ctx.cwd, stdin: stdin.stdin, text: node.text });
    if (name === "cd" || name === "pushd") {
      const target = argv.slice(1).find((w) => !w.text.startsWith("-") || w.text === "-");
      if (!target) ctx.cwd = this.home;
      else if (target.dynamic || target.text === "-" || ctx.cwd === null) ctx.cwd = null;
      else ctx.cwd = resolve(ctx.cwd, target.text);
    } else if (name === "popd") ctx.cwd = null;
  }
}

function cloneCtx(ctx: Ctx): Ctx {
  return { ...ctx, vars: new Map(ctx.vars), set: [...ctx.set] };
}

function redirectOp(node: Node): string {
  return node.children.find((c) => c && !c.isNamed)?.text ?? ">";
}

/** The text a heredoc or herestring feeds, or null when it has expansions. */
function literalStdin(node: Node): string[] | null {
  if (node.type === "heredoc_redirect") {
    const body = node.namedChildren.find((c) => c?.type === "heredoc_body");
    if (!body) return [""];
    // `<<'EOF'` is literal; an unquoted heredoc is literal too while it has no expansions in it
    const quoted = /^['"\\]/.test(node.namedChildren.find((c) => c?.type === "heredoc_start")?.text ?? "");
    return quoted || body.namedChildren.length === 0 ? [body.text] : null;
  }
  const word = node.namedChildren.find((c) => c && c.type !== "file_descriptor");
  if (!word) return null;
  // a herestring ends with a newline
  if (word.type === "raw_string") return [`${word.text.slice(1, -1)}\n`];
  if (word.type === "word") return [`${word.text}\n`];
  if (word.type === "string" && word.namedChildren.every((c) => c?.type === "string_content")) return [`${word.text.slice(1, -1)}\n`];
  return null;
}

/** The stdin the last input redirection gives (heredoc, herestring, `< file`), else the context's. */
function stdinOf(redirects: Node[], ctx: Ctx): Pick<Ctx, "stdin" | "stdinText"> {
  let stdin: Pick<Ctx, "stdin" | "stdinText"> = { stdin: ctx.stdin, stdinText: ctx.stdinText };
  for (const r of redirects) {
    if (r.type === "heredoc_redirect" || r.type === "herestring_redirect") stdin = { stdin: "text", stdinText: literalStdin(r) };
    else if (r.type === "file_redirect" && redirectOp(r) === "<") stdin = { stdin: "file", stdinText: null };
  }
  return stdin;
}

function firstError(node: Node): string {
  const stack: Node[] = [node];
  while (stack.length > 0) {
    const n = stack.shift() as Node;
    if (n.type === "ERROR" || n.isMissing) return `near "${n.text.slice(0, 40) || n.type}"`;
    for (const c of n.children) if (c) stack.push(c);
  }
  return "unbalanced quotes or brackets";
}
