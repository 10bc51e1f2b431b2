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
import { shellCommandsIn } from "./code-floor.ts";
import { inlineProgram, programSource, scriptSource, type StdinSource } from "./inline-code.ts";
import { DECODER_NAMES } from "./decoders.ts";
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
  /** The program text on stdin when it is known (readings as in Ctx.stdinText), for an interpreter reading its program there. */
  stdinText: string[] | null;
  /** The leading assignments as the shell sees them (`GIT_PAGER=cat`), for rules that spell them out. */
  assignmentWords: string[];
  /** The command came out of text a decoder produced (`base64 -d`): what decoded it. */
  decoded?: string;
  /** A shell command found in an interpreter's program (`os.system("...")`): only the hardline floor judges it. */
  floorOnly?: true;
  text: string;
};

export type RedirectPart = {
  kind: "redirect";
  access: "read" | "write";
  target: ShellWord;
  cwd: string | null;
  /** As CommandPart.decoded and floorOnly. */
  decoded?: string;
  floorOnly?: true;
  text: string;
};

export type ShellPart = CommandPart | RedirectPart;

export type ShellAnalysis = {
  parts: ShellPart[];
  /** Why the text could not be understood; such commands always ask (or deny in plan mode). */
  parseError: string | null;
  forkBomb: boolean;
  /** Why text a decoder produced for a shell could not be checked (too large, nested too deeply): the floor refuses it. */
  undecodable: string | null;
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
  /** The decoder stdinText came through (`base64 -d`), if any. */
  stdinDecoder: string | null;
  /** The script being read is text a decoder produced: what decoded it. */
  decoded: string | null;
  /** Variables holding text a decoder produced, with the decoder. */
  varDecoders: Map<string, string>;
  /** Reading shell commands found in an interpreter's program: parts are for the floor only, and a parse error is no one's concern. */
  floorOnly: boolean;
  /** For a pipeline inside a heredoc (`cat <<EOF | sh`): what the statement fed by the heredoc prints. */
  feed?: string[] | null;
};

type Stdin = Pick<Ctx, "stdin" | "stdinText" | "stdinDecoder">;
const NO_STDIN: Stdin = { stdin: "none", stdinText: null, stdinDecoder: null };
/** How deep scripts inside scripts are read (`bash -c "eval '...'"`, decoded text run by a shell). */
const MAX_DEPTH = 4;

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
  const out: ShellAnalysis = { parts: [], parseError: null, forkBomb: false, undecodable: null };
  const vars: ShellVars = new Map([
    ["HOME", literalWord(env.home)],
    ["PWD", literalWord(env.cwd)],
  ]);
  new Walker(parser, env.home, out).script(command, { cwd: env.cwd, vars, set: [], ...NO_STDIN, decoded: null, varDecoders: new Map(), floorOnly: false }, 0);
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
    if (depth > MAX_DEPTH) {
      this.out.parseError ??= "commands nested too deeply to check";
      if (ctx.decoded) this.out.undecodable ??= `text decoded by \`${ctx.decoded}\` runs scripts nested more than ${MAX_DEPTH} deep`;
      return;
    }
    if (depth > 0 && forkBombText(text.replace(/\\\n/g, ""))) this.out.forkBomb = true;
    const tree = this.parser.parse(text);
    if (!tree) {
      if (!ctx.floorOnly) this.out.parseError ??= "the command could not be parsed";
      return;
    }
    const parseError = this.out.parseError;
    try {
      if (tree.rootNode.hasError) this.out.parseError ??= `bash syntax KHAELOR could not parse: ${firstError(tree.rootNode)}`;
      this.node(tree.rootNode, ctx, depth);
    } finally {
      tree.delete();
      if (ctx.floorOnly) this.out.parseError = parseError;
    }
  }

  /** The words a node gives; command substitutions whose output is known are filled in, and `seen` notes a decoder among them. */
  private words(node: Node, ctx: Ctx, seen?: { decoder: string | null }, split = true): ShellWord[] {
    return evaluateWord(node, ctx.vars, this.home, {
      split,
      substitute: (sub) => {
        const out = this.substitution(sub, ctx);
        if (out?.decoder && seen) seen.decoder ??= out.decoder;
        return out?.text ?? null;
      },
      variable: (name) => {
        const decoder = ctx.varDecoders.get(name);
        if (decoder && seen) seen.decoder ??= decoder;
      },
    });
  }

  /** What `$(...)` or backticks print, without trailing newlines, when every reading agrees. */
  private substitution(node: Node, ctx: Ctx): { text: string; decoder: string | null } | null {
    if (node.type !== "command_substitution" || node.namedChildren.length !== 1) return null;
    const statement = node.namedChildren[0] as Node;
    const printed = this.printed(statement, { ...cloneCtx(ctx), ...NO_STDIN });
    if (!printed || new Set(printed.texts).size !== 1) return null;
    return { text: (printed.texts[0] as string).replace(/\n+$/, ""), decoder: printed.decoder };
  }

  private node(node: Node, ctx: Ctx, depth: number): void {
    switch (node.type) {
      case "command":
        return this.command(node, ctx, depth);
      case "pipeline": {
        // each runs in its own subshell, all but the first reading the previous one's output;
        // a pipeline inside a heredoc (`cat <<EOF | python3`) is fed from its first line
        const fed = node.parent?.type === "heredoc_redirect";
        let printed: Printed | null = fed && ctx.feed ? { texts: ctx.feed, decoder: null } : null;
        node.namedChildren.forEach((child, i) => {
          if (!child) return;
          const piped = i > 0 || fed;
          const inner: Ctx = piped ? { ...cloneCtx(ctx), stdin: "pipe", stdinText: printed?.texts ?? null, stdinDecoder: printed?.decoder ?? null, feed: null } : { ...cloneCtx(ctx), feed: null };
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
    const stdin = this.stdinOf(redirects, ctx);
    const outer: Stdin = { stdin: ctx.stdin, stdinText: ctx.stdinText, stdinDecoder: ctx.stdinDecoder };
    if (body) {
      Object.assign(ctx, stdin);
      this.node(body, ctx, depth);
      Object.assign(ctx, outer);
    }
    // `cat <<'EOF' | sh`: the pipeline sits in the heredoc and reads what the body prints
    const feed = body ? (this.printed(body, { ...ctx, ...stdin })?.texts ?? null) : null;
    for (const r of redirects) this.node(r, r.type === "heredoc_redirect" ? { ...ctx, feed } : ctx, depth);
  }

  /**
   * What a statement that only prints (echo, printf, cat of a literal heredoc, a decoder such as
   * `base64 -d`, or a pipeline of them) writes to stdout, and the decoder it came through; null when unknown.
   */
  private printed(node: Node, ctx: Ctx): Printed | null {
    if (node.type === "redirected_statement") {
      const body = node.childForFieldName("body");
      const redirects = node.childrenForFieldName("redirect").filter((r) => r !== null);
      // output sent elsewhere (`echo x > f | sh`) reaches nobody down the pipe
      if (!body || redirects.some((r) => r.type === "file_redirect" && redirectOp(r) !== "<")) return null;
      return this.printed(body, { ...ctx, ...this.stdinOf(redirects, ctx) });
    }
    if (node.type === "pipeline") {
      let last: Printed | null = null;
      for (const [i, child] of node.namedChildren.entries()) {
        if (!child) return null;
        last = this.printed(child, i === 0 ? ctx : { ...ctx, stdin: "pipe", stdinText: last?.texts ?? null, stdinDecoder: last?.decoder ?? null });
      }
      return last;
    }
    if (node.type !== "command") return null;
    const words: ShellWord[] = [];
    let stdin: Stdin = ctx;
    const seen = { decoder: null as string | null };
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child || !child.isNamed) continue;
      if (child.type === "variable_assignment" && node.fieldNameForChild(i) !== "argument") continue;
      if (child.type === "herestring_redirect" || child.type === "heredoc_redirect") stdin = this.redirectStdin(child, ctx);
      else if (child.type === "file_redirect") return null;
      else words.push(...this.words(child.type === "command_name" ? (child.firstNamedChild ?? child) : child, ctx, seen));
    }
    const argv = unwrapCommand(words, { throughSudo: true }).argv;
    if (argv.length === 0 || argv.some((w) => w.dynamic)) return null;
    const texts = printedText(argv.map((w) => w.text), stdin.stdinText);
    if (texts === "too large") {
      this.out.undecodable ??= `\`${node.text.slice(0, 60)}\` decodes to more than KHAELOR reads to check it`;
      return null;
    }
    if (!texts) return null;
    const name = basename(argv[0]?.text ?? "");
    const decoder = DECODER_NAMES.has(name) ? argv.map((w) => w.text).join(" ").slice(0, 60) : (seen.decoder ?? (name === "cat" ? stdin.stdinDecoder : null));
    return { texts, decoder };
  }

  /** The stdin the last input redirection gives (heredoc, herestring, `< file`), else the context's. */
  private stdinOf(redirects: Node[], ctx: Ctx): Stdin {
    let stdin: Stdin = { stdin: ctx.stdin, stdinText: ctx.stdinText, stdinDecoder: ctx.stdinDecoder };
    for (const r of redirects) {
      if (r.type === "heredoc_redirect" || r.type === "herestring_redirect") stdin = this.redirectStdin(r, ctx);
      else if (r.type === "file_redirect" && redirectOp(r) === "<") stdin = { stdin: "file", stdinText: null, stdinDecoder: null };
    }
    return stdin;
  }

  /** The text a heredoc or herestring feeds, with known expansions filled in; null text when one is unknown. */
  private redirectStdin(node: Node, ctx: Ctx): Stdin {
    const seen = { decoder: null as string | null };
    const text = (t: string | null): Stdin => ({ stdin: "text", stdinText: t === null ? null : [t], stdinDecoder: seen.decoder });
    if (node.type === "heredoc_redirect") {
      const body = node.namedChildren.find((c) => c?.type === "heredoc_body");
      if (!body) return text("");
      // `<<'EOF'` is literal; an unquoted heredoc expands $X, $(...) and backslash escapes
      const quoted = /^['"\\]/.test(node.namedChildren.find((c) => c?.type === "heredoc_start")?.text ?? "");
      if (quoted) return text(body.text);
      let out = "";
      let at = body.startIndex;
      const unescape = (t: string) => t.replace(/\\\n/g, "").replace(/\\([$`\\])/g, "$1");
      for (const child of body.namedChildren) {
        if (!child || child.type === "heredoc_content") continue;
        out += unescape(body.text.slice(at - body.startIndex, child.startIndex - body.startIndex));
        const words = this.words(child, ctx, seen, false);
        if (words.length !== 1 || (words[0] as ShellWord).dynamic) return text(null);
        out += (words[0] as ShellWord).text;
        at = child.endIndex;
      }
      return text(out + unescape(body.text.slice(at - body.startIndex)));
    }
    const word = node.namedChildren.find((c) => c && c.type !== "file_descriptor");
    if (!word) return text(null);
    // a herestring is one word, not split, and ends with a newline
    const words = this.words(word, ctx, seen, false);
    return text(words.length === 1 && !(words[0] as ShellWord).dynamic ? `${(words[0] as ShellWord).text}\n` : null);
  }

  private assignment(node: Node, ctx: Ctx, depth: number): void {
    const name = node.childForFieldName("name");
    const value = node.childForFieldName("value");
    if (value) this.node(value, ctx, depth);
    if (!name) return;
    ctx.set.push(name.text);
    const seen = { decoder: null as string | null };
    const words = value ? this.words(value, ctx, seen, false) : [literalWord("")];
    ctx.vars.set(name.text, words.length === 1 ? (words[0] as ShellWord) : null);
    if (seen.decoder) ctx.varDecoders.set(name.text, seen.decoder);
    else ctx.varDecoders.delete(name.text);
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
      const decoded = { ...(ctx.decoded ? { decoded: ctx.decoded } : {}), ...(ctx.floorOnly ? { floorOnly: true as const } : {}) };
      this.out.parts.push({ kind: "redirect", access, target, cwd: ctx.cwd, ...decoded, text: node.text });
      if (op === "<>") this.out.parts.push({ kind: "redirect", access: "write", target, cwd: ctx.cwd, ...decoded, text: node.text });
    }
  }

  private command(node: Node, ctx: Ctx, depth: number): void {
    const words: ShellWord[] = [];
    const assignments: string[] = [];
    const assignmentWords: string[] = [];
    /** Words naming a process substitution, with what its command prints when known. */
    const substituted = new Map<ShellWord, string[] | null>();
    let stdin: Stdin = { stdin: ctx.stdin, stdinText: ctx.stdinText, stdinDecoder: ctx.stdinDecoder };
    const seen = { decoder: null as string | null };
    for (let i = 0; i < node.childCount; i++) {
      const child = node.child(i);
      if (!child || !child.isNamed) continue;
      const field = node.fieldNameForChild(i);
      if (child.type === "variable_assignment" && field !== "argument") {
        const name = child.childForFieldName("name")?.text;
        const value = child.childForFieldName("value");
        if (name) {
          assignments.push(name);
          assignmentWords.push(`${name}=${value ? this.words(value, ctx).map((w) => w.text.replace(/\0/g, "$?")).join(" ") : ""}`);
        }
        if (value) this.node(value, ctx, depth);
        continue;
      }
      if (child.type === "file_redirect" || child.type === "herestring_redirect" || child.type === "heredoc_redirect") {
        if (child.type !== "file_redirect") stdin = this.redirectStdin(child, ctx);
        else if (redirectOp(child) === "<") stdin = { stdin: "file", stdinText: null, stdinDecoder: null };
        this.node(child, ctx, depth);
        continue;
      }
      // substitutions inside the words run too
      this.node(child, ctx, depth);
      const evaluated = this.words(child.type === "command_name" ? (child.firstNamedChild ?? child) : child, ctx, seen);
      // `sh <(echo 'rm -rf /')`: the file a process substitution names holds what its command prints
      if (child.type === "process_substitution") {
        const statement = child.namedChildren.length === 1 ? child.namedChildren[0] : null;
        const printed = statement ? (this.printed(statement, { ...cloneCtx(ctx), ...NO_STDIN })?.texts ?? null) : null;
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
    // text a decoder produced, in this command's words (`eval "$(... | base64 -d)"`) or already around it
    const decoded = ctx.decoded ?? seen.decoder;
    if (program) {
      const run = (texts: string[], inner: Stdin, decoder: string | null) => {
        // `source` runs in this shell, so its `cd` carries on; a shell is a process of its own
        const at = name === "source" || name === "." ? ctx : cloneCtx(ctx);
        const outer: Stdin & Pick<Ctx, "decoded"> = { stdin: at.stdin, stdinText: at.stdinText, stdinDecoder: at.stdinDecoder, decoded: at.decoded };
        Object.assign(at, inner, { decoded: decoder });
        for (const text of texts) this.script(text, at, depth + 1);
        Object.assign(at, outer);
      };
      const read = (w: ShellWord | undefined) => (w ? substituted.get(w) : undefined);
      if (program.kind === "code" && program.code) return run([program.code.text], stdin, decoded);
      // the rest of a script read from stdin is that script's commands' stdin: unknown text
      if (program.kind === "stdin" && (stdin.stdin === "text" || stdin.stdin === "pipe") && stdin.stdinText) {
        return run(stdin.stdinText, { stdin: "text", stdinText: null, stdinDecoder: null }, ctx.decoded ?? stdin.stdinDecoder);
      }
      const substitutedText = program.kind === "script" || program.kind === "hidden" ? read(argv[program.at]) : undefined;
      if (substitutedText) return run(substitutedText, stdin, decoded);
    }
    if (name === "eval" && argv.length > 1 && argv.slice(1).every((w) => !w.dynamic)) {
      const outer = ctx.decoded;
      ctx.decoded = decoded;
      this.script(argv.slice(1).map((w) => w.text).join(" "), ctx, depth + 1);
      ctx.decoded = outer;
      return;
    }
    // `python -c 'os.system("rm -rf ~")'`: the shell commands a program runs meet the floor too
    const inlineCode = inlineProgram(argv, stdin.stdinText);
    for (const code of inlineCode?.texts ?? []) {
      for (const text of shellCommandsIn(inlineCode!.interpreter, code, this.home)) this.script(text, { ...cloneCtx(ctx), ...NO_STDIN, floorOnly: true }, depth + 1);
    }
    this.out.parts.push({
      kind: "command",
      words,
      assignments,
      assignmentWords,
      setBefore: [...new Set(ctx.set)],
      cwd: inner.cwdUnknown ? null : ctx.cwd,
      stdin: stdin.stdin,
      stdinText: stdin.stdinText,
      ...(decoded ? { decoded } : {}),
      ...(ctx.floorOnly ? { floorOnly: true as const } : {}),
      text: node.text,
    });
    if (name === "cd" || name === "pushd") {
      const target = argv.slice(1).find((w) => !w.text.startsWith("-") || w.text === "-");
      if (!target) ctx.cwd = this.home;
      else if (target.dynamic || target.text === "-" || ctx.cwd === null) ctx.cwd = null;
      else ctx.cwd = resolve(ctx.cwd, target.text);
    } else if (name === "popd") ctx.cwd = null;
  }
}

/** What a statement prints, in every reading, and the decoder (`base64 -d`) it came through. */
type Printed = { texts: string[]; decoder: string | null };

function cloneCtx(ctx: Ctx): Ctx {
  return { ...ctx, vars: new Map(ctx.vars), set: [...ctx.set], varDecoders: new Map(ctx.varDecoders) };
}

function redirectOp(node: Node): string {
  return node.children.find((c) => c && !c.isNamed)?.text ?? ">";
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
