// The decision for a shell command line (the bash tool, and `process start`): every simple command
// and every redirection is judged on its own, and the line runs without asking only if all of them
// may. One deny anywhere denies the whole line.
import type { Parser } from "web-tree-sitter";
import { statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { suggestCommandRule } from "./shell/command-arity.ts";
import { compileCommandPattern } from "./rules/command-pattern.ts";
import type { CompiledRule } from "./rules/rule-set.ts";
import { walkOf } from "./walks/command-walks.ts";
import { unwrapCommand, type Unwrapped } from "./shell/command-wrappers.ts";
import { gitOverrides, varKind } from "./shell/command-environment.ts";
import { literalPrefix } from "./rules/command-pattern.ts";
import { writtenPaths } from "./shell/command-writes.ts";
import { decidePath, inWorkspace, type JudgeContext } from "./paths/decide-path.ts";
import { hardlineReason } from "./shell/hardline.ts";
import { codeFloorReason } from "./shell/code-floor.ts";
import { coversInlineCode, findInlineCode, inlineProgram, type InlineCode } from "./shell/inline-code.ts";
import { gitTopLevel, isBlockDevice, isHarmlessDevice, isInside, protectedWriteReason, realPath, sensitiveReason } from "./paths/path-facts.ts";
import { classifyReadOnly, type ReadOnlyVerdict } from "./shell/read-only-commands.ts";
import { ruleSource } from "./rules/rule-set.ts";
import { parseRule } from "./rules/rule-syntax.ts";
import { analyzeShell, type CommandPart, type RedirectPart } from "./shell/shell-analysis.ts";
import { expandGlob, GLOB_VISIT_LIMIT, globDirectory } from "./shell/shell-globs.ts";
import { plainSedFiles } from "./shell/sed-script.ts";
import type { ShellWord } from "./shell/shell-words.ts";
import type { Decision, RuleTool } from "./types.ts";
import type { Walk } from "./walks/types.ts";
import { judgeWalk } from "./walks/walk-coverage.ts";

export type ShellTool = "Bash" | "Process";

/** The file commands Claude Code's acceptEdits runs without asking; here only on files inside the project. */
const FILE_COMMANDS = new Set(["mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed"]);

export function decideShell(ctx: JudgeContext, parser: Parser, tool: ShellTool, command: string, cwd: string): Decision {
  if (command.trim() === "") return { behavior: "allow", reason: "empty command", source: "read-only" };
  const analysis = analyzeShell(parser, command, { cwd, home: ctx.home });
  if (analysis.forkBomb) return { behavior: "deny", reason: "hardline floor (fork bomb): this looks like a fork bomb; it is never allowed", source: "hardline" };
  if (analysis.undecodable) return { behavior: "deny", reason: `hardline floor (undecodable payload): ${analysis.undecodable}, so KHAELOR cannot check what a shell would run; it is never allowed`, source: "hardline" };
  const decisions: Decision[] = [];
  for (const part of analysis.parts) {
    if (part.floorOnly) {
      const floor = floorOf(ctx, part);
      if (floor) decisions.push(floor);
      continue;
    }
    const d = part.kind === "command" ? decideCommand(ctx, tool, part) : decideRedirect(ctx, part);
    decisions.push(part.decoded ? decodedPart(ctx, part, d) : d);
  }
  if (tool === "Process") askOnceForWhatRuns(analysis.parts, decisions, command);
  allowAllBy(ctx, tool, decisions);
  if (analysis.parseError) {
    decisions.push(
      ctx.mode === "bypassPermissions"
        ? { behavior: "allow", reason: "bypassPermissions mode", source: "mode:bypassPermissions" }
        : ctx.mode === "plan"
          ? { behavior: "deny", reason: `plan mode runs only commands it can verify as read-only; ${analysis.parseError}`, source: "parse-error" }
          : { behavior: "ask", reason: analysis.parseError, source: "parse-error" },
    );
  }
  return combine(decisions);
}

const CONFIGURED = /^(user|project|local|session|cli):/;

/**
 * A bare tool rule (`Bash`) allows every call of the tool, as Claude Code documents: what the
 * mode or KHAELOR's own checks would ask about (a redirect into a project file, a secret file, an
 * unknowable command) runs. The floor, protected paths and configured deny and ask rules still hold.
 */
function allowAllBy(ctx: JudgeContext, tool: ShellTool, decisions: Decision[]): void {
  const bare = ctx.rules.matchCommand("allow", [tool], [], (r) => r.parsed.specifier === undefined);
  if (!bare) return;
  decisions.forEach((d, i) => {
    if (d.behavior === "ask" && !CONFIGURED.test(d.source)) decisions[i] = { behavior: "allow", reason: `allowed by ${bare.rule} (${bare.scope} settings), which allows every ${tool} call`, source: ruleSource(bare) };
  });
}

/** The floor alone, for a shell command found inside an interpreter's program. */
function floorOf(ctx: JudgeContext, part: CommandPart | RedirectPart): Decision | null {
  if (part.kind === "redirect") {
    const d = decideRedirect(ctx, part);
    return d.source === "hardline" ? d : null;
  }
  const hard = hardlineReason(part.words, part.cwd, ctx);
  return hard ? { behavior: "deny", reason: `${hard} (a shell command the program runs: \`${part.text}\`)`, source: "hardline" } : null;
}

/**
 * A command that came out of decoded text: the floor's reason says where it came from, and what
 * would run without asking asks (plan mode: is denied), since the user never saw it as typed.
 */
function decodedPart(ctx: JudgeContext, part: CommandPart | RedirectPart, d: Decision): Decision {
  const from = `\`${part.text}\`, decoded from \`${part.decoded}\``;
  if (d.behavior === "deny") return d.source === "hardline" ? { ...d, reason: `${d.reason} (${from})` } : d;
  if (d.behavior === "ask" || ctx.mode === "bypassPermissions" || (d.source.includes(":") && !d.source.startsWith("mode:"))) return d;
  if (ctx.mode === "plan") return { behavior: "deny", reason: `plan mode does not run decoded text: ${from}. Present the plan instead`, source: "mode:plan" };
  return { behavior: "ask", reason: `running ${from}`, source: `mode:${ctx.mode}` };
}

/**
 * A background process asks about what it really runs: the `true`, `echo` and `sleep` of a loop
 * around it are not worth a rule of their own ("always allow Process(sleep *)"). When they are all
 * there is, one ask for the whole command remains, with nothing to allow always.
 */
function askOnceForWhatRuns(parts: ReadonlyArray<CommandPart | RedirectPart>, decisions: Decision[], command: string): void {
  const trivial = parts.map((p, i) => decisions[i]?.behavior === "ask" && p.kind === "command" && doesNothingToFiles(p));
  const real = decisions.some((d, i) => d.behavior === "ask" && !trivial[i]);
  const allow: Decision = { behavior: "allow", reason: "a harmless part of a background command", source: "read-only" };
  let asked = false;
  trivial.forEach((t, i) => {
    if (!t) return;
    if (real || asked) decisions[i] = allow;
    else {
      decisions[i] = { behavior: "ask", reason: `starting \`${command.trim()}\` in the background`, source: decisions[i]!.source };
      asked = true;
    }
  });
}

function doesNothingToFiles(part: CommandPart): boolean {
  const ro = classifyReadOnly(unwrapCommand(part.words, { throughSudo: false }).argv);
  return ro.readOnly && ro.reads.length === 0 && !ro.readsCwd;
}

function combine(decisions: Decision[]): Decision {
  const deny = decisions.find((d) => d.behavior === "deny");
  if (deny) return deny;
  const asks = decisions.filter((d) => d.behavior === "ask");
  if (asks.length === 0) {
    // name what let the line run: a rule, else the mode (bypass runs what is not read-only), else the read-only set
    const byRule = decisions.find((d) => d.source.includes(":") && !d.source.startsWith("mode:"));
    const byMode = decisions.find((d) => d.source.startsWith("mode:"));
    return byRule ?? byMode ?? decisions[0] ?? { behavior: "allow", reason: "nothing to run", source: "read-only" };
  }
  const first = asks[0] as Decision;
  const reasons = [...new Set(asks.map((a) => a.reason))];
  const out: Decision = { behavior: "ask", reason: reasons.join("; "), source: first.source };
  if (asks.every((a) => a.suggestion)) {
    const rules = [...new Set(asks.flatMap((a) => a.suggestion!.rules))];
    const descriptions = [...new Set(asks.map((a) => a.suggestion!.description))];
    out.suggestion = { rule: rules[0] as string, rules, description: descriptions.join("; ") };
  }
  return out;
}

const texts = (words: ShellWord[]) => words.map((w) => w.text.replace(/\0/g, "$?"));
const join = (words: ShellWord[]) => texts(words).join(" ");

/** git's global options (`-C dir`, `-c k=v`, `--no-pager`) do not change which action runs. */
function withoutGitGlobals(words: ShellWord[]): ShellWord[] | null {
  if (words[0]?.text !== "git") return null;
  let i = 1;
  while (i < words.length && (words[i] as ShellWord).text.startsWith("-")) {
    const t = (words[i] as ShellWord).text;
    i += t === "-C" || t === "-c" || t === "--git-dir" || t === "--work-tree" || t === "--namespace" ? 2 : 1;
  }
  return i === 1 ? null : [words[0] as ShellWord, ...words.slice(i)];
}

function decideCommand(ctx: JudgeContext, tool: ShellTool, part: CommandPart): Decision {
  const hard = hardlineReason(part.words, part.cwd, ctx);
  if (hard) return { behavior: "deny", reason: hard, source: "hardline" };
  const runs = unwrapCommand(part.words, { throughSudo: false });
  const elevated = unwrapCommand(part.words, { throughSudo: true });
  const program = inlineProgram(elevated.argv, part.stdinText);
  for (const code of program?.texts ?? []) {
    const reason = codeFloorReason(program!.interpreter, code, part.cwd, ctx);
    if (reason) return { behavior: "deny", reason, source: "hardline" };
  }
  for (const w of writtenPaths(elevated.argv) ?? []) {
    if (w.dynamic || (part.cwd === null && !w.text.startsWith("/"))) continue;
    const abs = realPath(resolve(part.cwd ?? "/", w.text));
    const reason = protectedWriteReason(abs, { root: ctx.root, configDir: ctx.configDir });
    if (reason) return { behavior: "deny", reason, source: "protected-path" };
    // an Edit deny rule holds for the files a command writes or removes, in every mode
    const editDeny = ctx.rules.matchPath("deny", ["Edit"], [abs]);
    if (editDeny) return { behavior: "deny", reason: `\`${part.text}\` writes ${abs}, which is denied by ${editDeny.rule} (${editDeny.scope} settings)`, source: ruleSource(editDeny) };
  }
  const ruleTools: RuleTool[] = tool === "Process" ? ["Process", "Bash"] : ["Bash"];
  const forms = [join(part.words), join(runs.argv), join(elevated.argv)];
  const gitForm = withoutGitGlobals(elevated.argv);
  if (gitForm) forms.push(join(gitForm));
  // `/usr/bin/curl` is curl to a deny or ask rule (never to an allow rule: `./ls` is not ls)
  for (const argv of [runs.argv, elevated.argv]) {
    const head = argv[0];
    if (head && !head.dynamic && head.text.includes("/")) forms.push(join([{ ...head, text: basename(head.text) }, ...argv.slice(1)]));
  }
  const deny = ctx.rules.matchCommand("deny", ruleTools, forms);
  if (deny) return { behavior: "deny", reason: `\`${part.text}\` is denied by ${deny.rule} (${deny.scope} settings)`, source: ruleSource(deny) };
  const name = runs.argv[0];
  // a variable that loads or runs other code (a ripgrep config can add `--pre`) makes no command read-only
  const codeVars = [...part.assignments, ...runs.envNames, ...part.setBefore].filter((n) => varKind(n) === "code");
  const known = !!name && !name.dynamic;
  const inline = known ? findInlineCode(runs.argv, part.stdin) : null;
  const ro = known && tool === "Bash" && !runs.elevated && codeVars.length === 0 ? classifyReadOnly(runs.argv) : { readOnly: false as const };
  const walk = known ? walkOf(runs.argv, part.cwd) : null;
  // bypass still honours Read deny rules for the files a read-only command reads
  if (ctx.mode === "bypassPermissions") {
    return ro.readOnly ? decideReads(ctx, part, [...ro.reads, ...repoReads(part, ro)], ro.readsCwd, walk) : { behavior: "allow", reason: "bypassPermissions mode", source: "mode:bypassPermissions" };
  }
  // plan mode's "nothing that writes" comes before configured asks: there is nothing to ask about
  if (ctx.mode === "plan" && !ro.readOnly) {
    const why = inline ? inlineWhat(part, inline) : known ? `\`${part.text}\` may change things` : `cannot tell what \`${part.text}\` runs`;
    return { behavior: "deny", reason: `plan mode runs read-only commands only; ${why}. Present the plan instead`, source: "mode:plan" };
  }
  const ask = ctx.rules.matchCommand("ask", ruleTools, forms);
  if (ask) return { behavior: "ask", reason: `\`${part.text}\` asks because of ${ask.rule} (${ask.scope} settings)`, source: ruleSource(ask) };
  if (!known) return { behavior: "ask", reason: `cannot tell which command \`${part.text}\` runs`, source: "parse-error" };
  if (ro.readOnly) {
    // xargs appends file names read from stdin: unknowable
    const reads = runs.extraArgsFromStdin && !isEchoLike(runs.argv) ? [...ro.reads, { text: "\0", pattern: "\0", dynamic: true, glob: false }] : ro.reads;
    return decideReads(ctx, part, [...reads, ...repoReads(part, ro)], ro.readsCwd && !runs.extraArgsFromStdin, walk);
  }
  // a copy, archive or move of a tree holding a denied path: no allow rule or mode lets that through
  const carries = walk ? judgeWalk(ctx, walk, part, false) : null;
  if (carries) return carries;
  const allowTools: RuleTool[] = tool === "Process" ? ["Process"] : ["Bash"];
  const spelled = texts(runs.argv);
  const escalation = escalationOf(part, runs, elevated);
  const allowForm = escalation ? escalation.words.join(" ") : join(runs.argv);
  const allow = ctx.rules.matchCommand("allow", allowTools, [allowForm], (r) => (!inline || coversInlineCode(r, spelled, inline)) && (!escalation || spellsOut(r, escalation)));
  if (allow) return { behavior: "allow", reason: `allowed by ${allow.rule}`, source: ruleSource(allow) };
  if (escalation && !inline) return askEscalated(ctx, tool, part, escalation, ctx.rules.matchCommand("allow", allowTools, [join(runs.argv)]));
  if (inline) return askInlineCode(ctx, tool, part, runs.argv, inline, allowTools);
  if (tool === "Bash" && ctx.mode === "acceptEdits" && FILE_COMMANDS.has(name.text) && !runs.elevated && fileCommandStaysInProject(ctx, part, runs.argv)) {
    return { behavior: "allow", reason: "acceptEdits mode allows file commands inside the project", source: "mode:acceptEdits" };
  }
  const words = runs.argv.map((w) => w.text);
  const dynamicPrefix = runs.argv.slice(0, 3).some((w) => w.dynamic);
  const decision: Decision = { behavior: "ask", reason: `running \`${part.text}\``, source: `mode:${ctx.mode}` };
  if (!dynamicPrefix) {
    const rule = suggestCommandRule(tool, words);
    decision.suggestion = { rule, rules: [rule], description: `always allow ${rule.slice(tool.length + 1, -1)}` };
  }
  return decision;
}

/** What in front of a command (or in git's own options) may change the program it runs, and how far a rule must spell the command out to cover it. */
type Escalation = {
  /** The command with its assignments, as a rule that covers it must read. */
  words: string[];
  /** How many of `words` a rule must spell out before any wildcard; null: no rule but the bare tool can (a variable set earlier in the line). */
  reach: number | null;
  what: string[];
};

function escalationOf(part: CommandPart, runs: Unwrapped, elevated: Unwrapped): Escalation | null {
  const k = part.assignmentWords.length;
  const words = [...part.assignmentWords, ...texts(part.words)];
  const what: string[] = [];
  let reach = 0;
  const note = (index: number, text: string) => {
    what.push(text);
    reach = Math.max(reach, index + 1);
  };
  const describe = (name: string) => (varKind(name) === "code" ? `${name}, which can name a program or change what loads` : `${name}, which KHAELOR does not know to be harmless`);
  part.assignments.forEach((name, i) => {
    if (varKind(name) !== "inert") note(i, describe(name));
  });
  for (const name of new Set(runs.envNames)) {
    if (varKind(name) === "inert") continue;
    const at = part.words.findIndex((w) => w.text.startsWith(`${name}=`));
    note(k + Math.max(at, 0), describe(name));
  }
  for (const o of gitOverrides(elevated.argv)) note(k + Math.max(part.words.indexOf(elevated.argv[o.at] as ShellWord), 0), `the git option ${o.text}, which can make git run a program`);
  const earlier = part.setBefore.filter((n) => varKind(n) === "code");
  for (const name of earlier) what.push(`${name}, set earlier in the command line`);
  if (what.length === 0) return null;
  return { words, reach: earlier.length > 0 ? null : reach, what };
}

/** A rule covers an escalated command when it is the bare tool, or spells the command out through the last assignment or override. */
function spellsOut(rule: CompiledRule, escalation: Escalation): boolean {
  if (rule.parsed.specifier === undefined) return true;
  return escalation.reach !== null && literalPrefix(rule.parsed.specifier).startsWith(escalation.words.slice(0, escalation.reach).join(" "));
}

function askEscalated(ctx: JudgeContext, tool: ShellTool, part: CommandPart, escalation: Escalation, broad: CompiledRule | undefined): Decision {
  const covers = broad ? `; ${broad.rule} (${broad.scope} settings) does not cover that${escalation.reach !== null ? `, only a rule spelling out \`${escalation.words.slice(0, escalation.reach).join(" ")}\` does` : ""}` : "";
  const decision: Decision = { behavior: "ask", reason: `\`${part.text}\` runs with ${escalation.what.join(" and ")}${covers}`, source: `mode:${ctx.mode}` };
  const rule = `${tool}(${escalation.words.map((w) => w.replace(/\*/g, "\\*")).join(" ")})`;
  if (escalation.reach !== null && !part.words.some((w) => w.dynamic) && parseRule(rule).ok) {
    decision.suggestion = { rule, rules: [rule], description: `always allow exactly \`${escalation.words.join(" ")}\`` };
  }
  return decision;
}

function inlineWhat(part: CommandPart, inline: InlineCode): string {
  const given = inline.via === "stdin" ? "fed on stdin" : inline.ruleWords === null ? `read from ${inline.via}` : `given with ${inline.via}`;
  return `\`${part.text}\` runs ${inline.interpreter} code ${given}, which KHAELOR cannot check`;
}

/**
 * Inline code asks, whatever rule allows the interpreter: the user sees that the text is code and
 * is offered that exact command only, never a rule that would cover other code.
 */
function askInlineCode(ctx: JudgeContext, tool: ShellTool, part: CommandPart, argv: ShellWord[], inline: InlineCode, allowTools: RuleTool[]): Decision {
  const form = join(argv);
  const broad = ctx.rules.matchCommand("allow", allowTools, [form]);
  const spelled = texts(argv).slice(0, inline.ruleWords ?? 0).join(" ");
  const unnamed = inline.via === "stdin" ? "code fed on stdin" : `code read from ${inline.via}`;
  const notCovered = !broad ? "" : spelled ? `; ${broad.rule} does not cover inline code (only a rule naming \`${spelled}\` itself does)` : `; ${broad.rule} does not cover ${unnamed}`;
  const decision: Decision = {
    behavior: "ask",
    reason: `${inlineWhat(part, inline)}; allow it only after reading the code${notCovered}`,
    source: `mode:${ctx.mode}`,
  };
  const rule = `${tool}(${texts(argv).map((w) => w.replace(/\*/g, "\\*")).join(" ")})`;
  const parsed = parseRule(rule);
  // code an exact rule cannot reproduce (stdin, line breaks, `:*` inside) gets no "allow always"
  if (inline.ruleWords !== null && !argv.some((w) => w.dynamic) && parsed.ok && parsed.rule.specifier && compileCommandPattern(parsed.rule.specifier)(form)) {
    decision.suggestion = { rule, rules: [rule], description: `always allow exactly this ${inline.interpreter} code` };
  }
  return decision;
}

/** `git show HEAD:secrets/key.txt`: the path, from the top of the work tree git runs in, as an absolute word. */
function repoReads(part: CommandPart, ro: Extract<ReadOnlyVerdict, { readOnly: true }>): ShellWord[] {
  if (!ro.repoReads) return [];
  if (part.cwd === null && !ro.gitDir?.text.startsWith("/")) return ro.repoReads.map((w) => ({ ...w, dynamic: true }));
  const base = resolve(part.cwd ?? "/", ro.gitDir?.text ?? ".");
  const top = gitTopLevel(realPath(base)) ?? base;
  return ro.repoReads.map((w) => ({ ...w, text: resolve(top, w.text), pattern: resolve(top, w.text) }));
}

function isEchoLike(argv: ShellWord[]): boolean {
  return ["echo", "printf", "true", "basename", "dirname"].includes(argv[0]?.text ?? "");
}

function decideReads(ctx: JudgeContext, part: CommandPart, reads: ShellWord[], readsCwd: boolean, walk: Walk | null): Decision {
  const targets: Array<{ abs: string; directory: boolean }> = [];
  const tooMany: ShellWord[] = [];
  const capped: ShellWord[] = [];
  const unknowable = (reason: string): Decision =>
    ctx.mode === "bypassPermissions" ? { behavior: "allow", reason: "bypassPermissions mode", source: "mode:bypassPermissions" } : { behavior: "ask", reason, source: "parse-error" };
  // a command that lists or walks folders reads a matched folder's entries, not just its name
  const walksMatches = (walk?.depth ?? 0) >= 1;
  for (const w of reads) {
    if (w.dynamic) return unknowable(`cannot tell which file \`${part.text}\` reads`);
    if (part.cwd === null && !w.text.startsWith("/")) return unknowable(`cannot tell which directory \`${part.text}\` runs in`);
    const abs = resolve(part.cwd ?? "/", w.text);
    if (w.glob) {
      // judge the directory the glob lists, and any secret file it would pick up
      const base = globDirectory(w, part.cwd ?? "/");
      targets.push({ abs: realPath(base), directory: true });
      const expansion = expandGlob(w.pattern, part.cwd ?? "/");
      for (const m of expansion.matches) targets.push({ abs: realPath(m), directory: walksMatches && isDirectory(m) });
      if (!expansion.complete) tooMany.push(w);
      if (expansion.capped) capped.push(w);
    } else targets.push({ abs: realPath(abs), directory: isDirectory(abs) });
  }
  if (readsCwd) {
    if (part.cwd === null) return unknowable(`cannot tell which directory \`${part.text}\` runs in`);
    targets.push({ abs: realPath(part.cwd), directory: true });
  }
  const found = targets.map((t) => decidePath(ctx, "read", t.abs, ["Read"], { directory: t.directory })).filter((d) => d.behavior !== "allow");
  // a glob that reaches too far to expand may match a secret file no rule names
  if (capped.length > 0 && ctx.mode !== "bypassPermissions") {
    const globs = capped.map((w) => w.text).join(" ");
    found.push({ behavior: "ask", reason: `\`${part.text}\`: ${globs} reaches more than the ${GLOB_VISIT_LIMIT} entries KHAELOR reads to check a glob; name the files or narrow the pattern`, source: "parse-error" });
  }
  // what a walk reaches below its starts; a plain reader's glob with too many matches to judge one by one, by its pattern
  const reach = walk ?? (tooMany.length > 0 ? { ...plainReader, roots: tooMany.map((word) => ({ word })) } : null);
  const covered = reach ? judgeWalk(ctx, reach, part, true) : null;
  // a start the rule covers outright was judged above already, in the same words as a plain read
  if (covered && !found.some((d) => d.source === covered.source)) found.push(covered);
  return found.length > 0 ? combine(found) : { behavior: "allow", reason: "read-only command", source: "read-only" };
}

const plainReader: Walk = { verb: "read", roots: [], depth: 0, followsLinks: false, skipsHidden: false, skipNames: [], skipPaths: [] };

function isDirectory(abs: string): boolean {
  try {
    return statSync(abs).isDirectory();
  } catch {
    return false;
  }
}

function fileCommandStaysInProject(ctx: JudgeContext, part: CommandPart, argv: ShellWord[]): boolean {
  if (part.cwd === null) return false;
  const cwd = part.cwd;
  const args = argv.slice(1);
  let paths: ShellWord[];
  if (argv[0]?.text === "sed") {
    // only sed -i edits files; its scripts must not write, read or run anything else
    if (args.some((w) => w.dynamic) || !args.some((w) => /^-[a-zA-Z]*i|^--in-place/.test(w.text))) return false;
    const files = plainSedFiles(args.map((w) => w.text));
    if (files === null) return false;
    paths = args.filter((w) => files.includes(w.text));
  } else paths = args.filter((w) => w.dynamic || !w.text.startsWith("-"));
  const inside = (abs: string) => {
    const real = realPath(abs);
    return inWorkspace(ctx, real) && !sensitiveReason(real, ctx.home) && !protectedWriteReason(real, { root: ctx.root, configDir: ctx.configDir }) && decidePath(ctx, "write", real, ["Edit"]).behavior === "allow";
  };
  return paths.every((w) => {
    if (w.dynamic) return false;
    if (!inside(resolve(cwd, w.text))) return false;
    if (!w.glob) return true;
    // each match, through any symlink, must stay inside too
    const expansion = expandGlob(w.pattern, cwd);
    return expansion.complete && expansion.matches.every(inside);
  });
}

function decideRedirect(ctx: JudgeContext, part: RedirectPart): Decision {
  const t = part.target;
  if (t.dynamic || (part.cwd === null && !t.text.startsWith("/"))) {
    if (ctx.mode === "bypassPermissions") return { behavior: "allow", reason: "bypassPermissions mode", source: "mode:bypassPermissions" };
    if (ctx.mode === "plan" && part.access === "write") return { behavior: "deny", reason: "plan mode changes no files", source: "mode:plan" };
    return { behavior: "ask", reason: `cannot tell which file \`${part.text}\` ${part.access === "write" ? "writes" : "reads"}`, source: "parse-error" };
  }
  const lexical = resolve(part.cwd ?? "/", t.text);
  if (isHarmlessDevice(lexical)) return { behavior: "allow", reason: "redirection to a standard stream", source: "read-only" };
  if (part.access === "write" && isBlockDevice(lexical)) {
    return { behavior: "deny", reason: `hardline floor (block device): writing to the block device ${lexical} is never allowed`, source: "hardline" };
  }
  return decidePath(ctx, part.access, realPath(lexical), part.access === "write" ? ["Edit"] : ["Read"]);
}
