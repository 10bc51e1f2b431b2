// The decision for reading or writing one resolved path: the tools read/write/edit/grep/glob, and
// the files a shell command reads or redirects into.
import { dirname, relative } from "node:path";
import { escapeGlob } from "../rules/path-pattern.ts";
import { isInside, protectedWriteReason, sensitiveReason } from "./path-facts.ts";
import { ruleSource, type RuleSet } from "../rules/rule-set.ts";
import type { Decision, PermissionMode, RuleTool } from "../types.ts";

export type JudgeContext = {
  rules: RuleSet;
  mode: PermissionMode;
  root: string;
  home: string;
  /** KHAELOR's user settings directory, protected from tool writes. */
  configDir: string;
  /** The session's plan file (real path): the one file plan mode writes. */
  planFile?: string;
  /** --add-dir and additionalDirectories (real paths): used as the project is, reads unasked, edits as the mode says. */
  extraDirs?: readonly string[];
};

/** Inside the project or one of the directories added to it. */
export function inWorkspace(ctx: Pick<JudgeContext, "root" | "extraDirs">, abs: string): boolean {
  return isInside(abs, ctx.root) || (ctx.extraDirs ?? []).some((d) => isInside(abs, d));
}

export type PathAccess = "read" | "write";

export function decidePath(
  ctx: JudgeContext,
  access: PathAccess,
  abs: string,
  ruleTools: RuleTool[],
  opts: { directory?: boolean } = {},
): Decision {
  const what = access === "read" ? "reading" : "writing";
  if (access === "write") {
    const prot = protectedWriteReason(abs, { root: ctx.root, configDir: ctx.configDir });
    if (prot) return { behavior: "deny", reason: prot, source: "protected-path" };
  }
  // For a directory (grep, glob), a rule on something inside it counts too.
  const probes = opts.directory ? [abs, abs === "/" ? "/\u0001" : `${abs}/\u0001`] : [abs];
  const deny = ctx.rules.matchPath("deny", ruleTools, probes);
  if (deny) return { behavior: "deny", reason: `${what} ${abs} is denied by ${deny.rule} (${deny.scope} settings)`, source: ruleSource(deny) };
  // The session's own plan file, in KHAELOR's data directory: plan mode writes it, every mode reads it.
  if (ctx.planFile !== undefined && abs === ctx.planFile) return { behavior: "allow", reason: "the session's plan file", source: "plan-file" };
  if (access === "write" && ctx.mode === "plan") {
    const instead = ctx.planFile ? `write the plan to ${ctx.planFile} and present it with exit_plan_mode` : "Present the plan instead";
    return { behavior: "deny", reason: `plan mode changes no files; ${abs} was not written. ${instead}`, source: "mode:plan" };
  }
  const ask = ctx.rules.matchPath("ask", ruleTools, probes);
  if (ask && ctx.mode !== "bypassPermissions") {
    return { behavior: "ask", reason: `${what} ${abs} asks because of ${ask.rule} (${ask.scope} settings)`, source: ruleSource(ask) };
  }
  if (ctx.mode === "bypassPermissions") return { behavior: "allow", reason: "bypassPermissions mode", source: "mode:bypassPermissions" };
  const allowTools: RuleTool[] = access === "read" ? ruleTools : ["Edit"];
  const sensitive = sensitiveReason(abs, ctx.home);
  if (sensitive) {
    const allow = ctx.rules.matchPath("allow", allowTools, [abs], { specificOnly: true });
    if (allow) return { behavior: "allow", reason: `allowed by ${allow.rule}`, source: ruleSource(allow) };
    return {
      behavior: "ask",
      reason: `${what} ${abs}: ${sensitive}`,
      source: "sensitive-path",
      suggestion: single(`${access === "read" ? "Read" : "Edit"}(${ruleLocation(ctx, abs)})`, `always allow ${what} this file`),
    };
  }
  // a rule on a directory's contents (`Read(//usr/share/**)`) covers searching the directory
  const allow = ctx.rules.matchPath("allow", allowTools, probes);
  if (!inWorkspace(ctx, abs)) {
    if (allow) return { behavior: "allow", reason: `allowed by ${allow.rule}`, source: ruleSource(allow) };
    const dir = opts.directory ? abs : dirname(abs);
    return {
      behavior: "ask",
      reason: `${what} ${abs}, outside the project`,
      source: "external-path",
      suggestion: single(`${access === "read" ? "Read" : "Edit"}(${ruleUnder(ctx, dir)})`, `always allow ${what} in ${dir}`),
    };
  }
  if (allow) return { behavior: "allow", reason: `allowed by ${allow.rule}`, source: ruleSource(allow) };
  if (access === "read") return { behavior: "allow", reason: "reading inside the project", source: `mode:${ctx.mode}` };
  if (ctx.mode === "acceptEdits") return { behavior: "allow", reason: "acceptEdits mode allows edits inside the project", source: "mode:acceptEdits" };
  const dir = dirname(abs);
  if (!isInside(abs, ctx.root)) return { behavior: "ask", reason: `writing ${abs} (a directory added to the project)`, source: "mode:default", suggestion: single(`Edit(${ruleUnder(ctx, dir)})`, `always allow edits in ${dir}/`) };
  const rule = dir === ctx.root ? `Edit(${ruleLocation(ctx, abs)})` : `Edit(${ruleUnder(ctx, dir)})`;
  return {
    behavior: "ask",
    reason: `writing ${relative(ctx.root, abs)}`,
    source: "mode:default",
    suggestion: single(rule, dir === ctx.root ? `always allow editing ${relative(ctx.root, abs)}` : `always allow edits in ${relative(ctx.root, dir)}/`),
  };
}

/** How a rule names a place: `./x` in the project, `~/x` in home, `//x` elsewhere. */
export function ruleLocation(ctx: { root: string; home: string }, abs: string): string {
  if (isInside(abs, ctx.root)) return abs === ctx.root ? "." : `./${escapeGlob(relative(ctx.root, abs))}`;
  if (isInside(abs, ctx.home)) return abs === ctx.home ? "~" : `~/${escapeGlob(relative(ctx.home, abs))}`;
  return `/${escapeGlob(abs)}`;
}

/** A rule location covering everything below a directory. */
export function ruleUnder(ctx: { root: string; home: string }, dir: string): string {
  const loc = ruleLocation(ctx, dir);
  return loc === "//" ? "//**" : `${loc}/**`;
}

export function single(rule: string, description: string) {
  return { rule, rules: [rule], description };
}
