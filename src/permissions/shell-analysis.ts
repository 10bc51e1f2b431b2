// A bash command line → the simple commands it runs and the files its redirections touch, using the
// tree-sitter bash grammar. Compound commands (&& || ; | & newlines, if/for/while, subshells,
// functions) are flattened; $(...), backticks and <(...) are inspected; `bash -c '...'` and `eval`
// with literal text are parsed in turn. `cd` with a literal target is followed so later relative
// paths resolve where they will run.
import type { Node, Parser } from "web-tree-sitter";
import { resolve } from "node:path";
import { unwrapCommand } from "./command-wrappers.ts";
import { evaluateWord, literalWord, type ShellVars, type ShellWord } from "./shell-words.ts";

export type CommandPart = {
  kind: "command";
  words: ShellWord[];
  /** Leading NAME=value assignments of this command only. */
  assignments: string[];
  /** Directory it runs in; null when a `cd` went somewhere unknowable. */
  cwd: string | null;
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

type Ctx = { cwd: string | null; vars: ShellVars };

const SHELLS = new Set(["bash", "sh", "zsh", "dash", "ksh", "ash"]);
const WRITE_OPS = new Set([">", ">>", ">|", "&>", "&>>", ">&"]);
const FORK_BOMB_TEXT = /(\S+)\s*\(\s*\)\s*\{[^}]*\1\s*\|\s*\1\s*&/;

export function analyzeShell(parser: Parser, command: string, env: { cwd: string; home: string }): ShellAnalysis {
  const out: ShellAnalysis = { parts: [], parseError: null, forkBomb: false };
  const vars: ShellVars = new Map([
    ["HOME", literalWord(env.home)],
    ["PWD", literalWord(env.cwd)],
  ]);
  new Walker(parser, env.home, out).script(command, { cwd: env.cwd, vars }, 0);
  if (FORK_BOMB_TEXT.test(command.replace(/\\\n/g, ""))) out.forkBomb = true;
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
      case "pipeline":
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
          else this.node(child, ctx, depth);
        }
        return;
      case "unset_command":
        for (const child of node.namedChildren) if (child) ctx.vars.set(child.text, null);
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

  private assignment(node: Node, ctx: Ctx, depth: number): void {
    const name = node.childForFieldName("name");
    const value = node.childForFieldName("value");
    if (value) this.node(value, ctx, depth);
    if (!name) return;
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
    const op = node.children.find((c) => c && !c.isNamed)?.text ?? ">";
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
        this.node(child, ctx, depth);
        continue;
      }
      // substitutions inside the words run too
      this.node(child, ctx, depth);
      words.push(...this.words(child.type === "command_name" ? (child.firstNamedChild ?? child) : child, ctx));
    }
    if (words.length === 0) return;
    const inner = unwrapCommand(words, { throughSudo: true });
    const argv = inner.argv;
    const name = argv[0]?.dynamic ? null : argv[0]?.text;
    // `bash -c '...'`, `eval '...'`: what runs is the text; read it as a script of its own
    if (name && SHELLS.has(name)) {
      const flagAt = argv.findIndex((w, i) => i > 0 && /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w.text));
      const script = flagAt > 0 ? argv[flagAt + 1] : undefined;
      if (script && !script.dynamic) {
        this.script(script.text, cloneCtx(ctx), depth + 1);
        return;
      }
    }
    if (name === "eval" && argv.length > 1 && argv.slice(1).every((w) => !w.dynamic)) {
      this.script(argv.slice(1).map((w) => w.text).join(" "), ctx, depth + 1);
      return;
    }
    this.out.parts.push({ kind: "command", words, assignments, cwd: inner.cwdUnknown ? null : ctx.cwd, text: node.text });
    if (name === "cd" || name === "pushd") {
      const target = argv.slice(1).find((w) => !w.text.startsWith("-") || w.text === "-");
      if (!target) ctx.cwd = this.home;
      else if (target.dynamic || target.text === "-" || ctx.cwd === null) ctx.cwd = null;
      else ctx.cwd = resolve(ctx.cwd, target.text);
    } else if (name === "popd") ctx.cwd = null;
  }
}

function cloneCtx(ctx: Ctx): Ctx {
  return { cwd: ctx.cwd, vars: new Map(ctx.vars) };
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
