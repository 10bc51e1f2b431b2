// What a grep or glob over a directory must leave out of its results. The directory itself was
// judged by decidePath, which only sees rules covering all of it; a deny on a folder inside it
// (`Read(./secrets/**)`) is applied here, path by path, so searching a parent does not leak what
// reading the folder would not show. grep shows contents, so it also leaves out what reading
// directly would ask about (ask rules, secret-bearing files); glob lists names only, so only denies
// apply to it. Whatever was already settled for the directory (an ask the user answered, a
// sensitive folder searched on purpose) is not asked about again for each file.
//
// Listing every file first (so the number left out cannot depend on the pattern) is needed only
// where a deny or ask rule names paths. With none, grep's only asks are the built-in secret-bearing
// names, which ripgrep can leave out by itself (`leaveOut`); they ask rather than deny, so naming
// the ones that matched, a count that depends on the pattern, tells nothing a deny hides.
import { isInside, realPath, SECRET_NAME_GLOBS, secretPlaces, sensitiveReason } from "./path-facts.ts";
import type { JudgeContext } from "./decide-path.ts";
import type { RuleTool, SearchFilter, SearchSkip } from "../types.ts";

export type SearchTool = "grep" | "glob";

const RULE_TOOLS: Record<SearchTool, RuleTool[]> = { grep: ["Grep", "Read"], glob: ["Glob", "Read"] };

export function searchFilter(ctx: JudgeContext, tool: SearchTool, dir: string): SearchFilter {
  const ruleTools = RULE_TOOLS[tool];
  const realDir = realPath(dir);
  const probes = [realDir, realDir === "/" ? "/\u0001" : `${realDir}/\u0001`];
  const contents = tool === "grep" && ctx.mode !== "bypassPermissions";
  const settled = new Set(contents ? ctx.rules.matchingPaths("ask", ruleTools, probes) : []);
  const dirSensitive = sensitiveReason(realDir, ctx.home);
  // an allow rule naming a secret file (`Read(./.env)`) lets it be searched, which leaving its name out in ripgrep would not
  const allowsSecrets = ctx.rules.all().some((r) => r.behavior === "allow" && ruleTools.includes(r.parsed.tool) && !!r.matchPath && !!sensitiveReason(`/${(r.parsed.specifier as string).split("/").pop()}`, ctx.home));
  const active = ctx.rules.hasPathRules("deny", ruleTools) || (contents && (ctx.rules.hasPathRules("ask", ruleTools) || allowsSecrets));
  const leaveOut =
    contents && !active && !dirSensitive
      ? { names: [...SECRET_NAME_GLOBS], paths: secretPlaces(ctx.home).filter((p) => isInside(p, realDir) && p !== realDir) }
      : { names: [], paths: [] };
  // Searches do not follow symlinks below the directory, so only its own prefix needs resolving.
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  const toReal = (abs: string) => (abs.startsWith(prefix) ? `${realDir === "/" ? "" : realDir}/${abs.slice(prefix.length)}` : realPath(abs));

  const skip = (abs: string): SearchSkip | null => {
    const real = toReal(abs);
    const deny = ctx.rules.matchPath("deny", ruleTools, [real]);
    if (deny) return { kind: "denied", because: `${deny.rule} (${deny.scope} settings)` };
    if (!contents) return null;
    const ask = ctx.rules.matchingPaths("ask", ruleTools, [real]).find((r) => !settled.has(r));
    if (ask) return { kind: "asks", because: `${ask.rule} (${ask.scope} settings)` };
    const sensitive = sensitiveReason(real, ctx.home);
    if (sensitive && sensitive !== dirSensitive && !ctx.rules.matchPath("allow", ruleTools, [real], { specificOnly: true })) {
      return { kind: "asks", because: sensitive };
    }
    return null;
  };
  return { active, leaveOut, skip };
}
