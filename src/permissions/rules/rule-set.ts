// Every rule in force, compiled once, with where it came from. Lookups answer "which rule of this
// behaviour matches", never "which is most specific": deny beats ask beats allow, whatever the scope.
import { compileCommandPattern, type CommandMatcher } from "./command-pattern.ts";
import { compilePathPattern, type PathAnchors, type PathMatcher } from "./path-pattern.ts";
import { mcpRuleCovers } from "./mcp-rules.ts";
import { parseRule } from "./rule-syntax.ts";
import type { Behavior, ParsedRule, RuleEntry, RuleTool } from "../types.ts";

export type CompiledRule = RuleEntry & {
  parsed: ParsedRule;
  matchPath?: PathMatcher;
  matchCommand?: CommandMatcher;
};

export class RuleSet {
  private rules: CompiledRule[] = [];

  constructor(private anchors: PathAnchors) {}

  replace(entries: RuleEntry[]): void {
    this.rules = [];
    for (const e of entries) this.add(e);
  }

  add(entry: RuleEntry): boolean {
    const p = parseRule(entry.rule);
    if (!p.ok) return false;
    const parsed = p.rule;
    if (this.rules.some((r) => r.scope === entry.scope && r.behavior === entry.behavior && r.parsed.text === parsed.text)) return true;
    const compiled: CompiledRule = { ...entry, parsed };
    if (parsed.specifier !== undefined) {
      if (parsed.tool === "Bash" || parsed.tool === "Process") compiled.matchCommand = compileCommandPattern(parsed.specifier);
      else if (parsed.tool !== "WebFetch" && parsed.tool !== "WebSearch" && parsed.tool !== "Mcp" && parsed.tool !== "Agent") compiled.matchPath = compilePathPattern(parsed.specifier, this.anchors);
    }
    this.rules.push(compiled);
    return true;
  }

  remove(pred: (r: CompiledRule) => boolean): CompiledRule[] {
    const gone = this.rules.filter(pred);
    this.rules = this.rules.filter((r) => !pred(r));
    return gone;
  }

  all(): CompiledRule[] {
    return [...this.rules];
  }

  /** A rule of `behavior` for one of `tools` whose path pattern matches any of `paths` (bare rules match all). */
  matchPath(behavior: Behavior, tools: RuleTool[], paths: string[], opts: { specificOnly?: boolean } = {}): CompiledRule | undefined {
    return this.rules.find((r) => pathRuleApplies(r, behavior, tools, paths, opts));
  }

  /** Every rule matchPath could have answered with, in order. */
  matchingPaths(behavior: Behavior, tools: RuleTool[], paths: string[]): CompiledRule[] {
    return this.rules.filter((r) => pathRuleApplies(r, behavior, tools, paths, {}));
  }

  /** Whether any rule of `behavior` for these tools names paths (as opposed to a bare tool rule). */
  hasPathRules(behavior: Behavior, tools: RuleTool[]): boolean {
    return this.rules.some((r) => r.behavior === behavior && tools.includes(r.parsed.tool) && !!r.matchPath);
  }

  /** A rule of `behavior` for one of `tools` matching any of the command's spellings (and `accept`, if given). */
  matchCommand(behavior: Behavior, tools: RuleTool[], forms: string[], accept?: (r: CompiledRule) => boolean): CompiledRule | undefined {
    return this.rules.find(
      (r) =>
        r.behavior === behavior &&
        tools.includes(r.parsed.tool) &&
        (r.matchCommand ? forms.some((f) => r.matchCommand!(f)) : r.parsed.specifier === undefined) &&
        (!accept || accept(r)),
    );
  }

  /** An mcp__ rule covering this MCP tool (see mcpRuleCovers). */
  matchMcp(behavior: Behavior, toolName: string): CompiledRule | undefined {
    return this.rules.find((r) => r.behavior === behavior && r.parsed.tool === "Mcp" && mcpRuleCovers(r.parsed.text, toolName));
  }

  /** An Agent rule for this agent type: bare (every type) or naming it, `Agent(Explore)`. */
  matchAgent(behavior: Behavior, agentType: string): CompiledRule | undefined {
    return this.rules.find((r) => r.behavior === behavior && r.parsed.tool === "Agent" && (r.parsed.specifier === undefined || r.parsed.specifier === agentType));
  }

  /** A bare or specific rule for a tool that has no arguments to match (WebFetch, unknown tools). */
  matchTool(behavior: Behavior, tool: RuleTool): CompiledRule | undefined {
    return this.rules.find((r) => r.behavior === behavior && r.parsed.tool === tool && r.parsed.specifier === undefined);
  }
}

function pathRuleApplies(r: CompiledRule, behavior: Behavior, tools: RuleTool[], paths: string[], opts: { specificOnly?: boolean }): boolean {
  if (r.behavior !== behavior || !tools.includes(r.parsed.tool)) return false;
  return r.matchPath ? paths.some((p) => r.matchPath!(p)) : !opts.specificOnly && r.parsed.specifier === undefined;
}

export function ruleSource(r: CompiledRule): string {
  return `${r.scope}:${r.rule}`;
}
