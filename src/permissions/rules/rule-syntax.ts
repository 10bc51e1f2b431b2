// Claude Code's rule syntax: `Tool` or `Tool(specifier)`. Parsing only; matching lives with the
// matchers (path-pattern.ts, command-pattern.ts).
import type { ParsedRule, RuleTool } from "../types.ts";

const TOOLS: Record<string, RuleTool> = {
  Read: "Read",
  Edit: "Edit",
  // Claude Code's Edit rules cover every file write; accept its other writer names as aliases.
  Write: "Edit",
  MultiEdit: "Edit",
  Bash: "Bash",
  Grep: "Grep",
  Glob: "Glob",
  Process: "Process",
  WebFetch: "WebFetch",
  // The API's own web search; no specifier to match (see src/model/web-tools.ts).
  WebSearch: "WebSearch",
  // Subagents: `Agent` for every type, `Agent(Explore)` for one; Task is Claude Code's older name.
  Agent: "Agent",
  Task: "Agent",
};

/** The tool a rule that does not parse names, if its start says (`Bash(rm:*` → Bash); null when unsure. */
export function ruleToolOf(raw: string): RuleTool | null {
  const name = /^\s*([A-Za-z]+)/.exec(raw)?.[1];
  if (!name) return null;
  return TOOLS[name] ?? TOOLS[name.charAt(0).toUpperCase() + name.slice(1).toLowerCase()] ?? null;
}

/** The tools (as requests name them) a rule of `tool` can speak about; Read rules cover the searches too. */
export function toolsCoveredBy(tool: RuleTool): string[] {
  switch (tool) {
    case "Read":
      return ["read", "grep", "glob"];
    case "Edit":
      return ["edit", "write"];
    default:
      return [tool.toLowerCase()];
  }
}

/**
 * The tool a rule's name stands for, or undefined. Our tools are lowercase (`--disallowedTools bash`
 * names what system/init lists); rules are written with Claude Code's names. Either spelling.
 */
export function ruleToolNamed(name: string): RuleTool | undefined {
  const lower = name.toLowerCase();
  return TOOLS[name] ?? TOOLS[name.charAt(0).toUpperCase() + lower.slice(1)] ?? (lower === "webfetch" ? "WebFetch" : lower === "websearch" ? "WebSearch" : lower === "multiedit" ? "Edit" : undefined);
}

export type RuleParse = { ok: true; rule: ParsedRule } | { ok: false; message: string };

export function parseRule(raw: string): RuleParse {
  const text = raw.trim();
  // MCP tools: mcp__server (all its tools), mcp__server__* (the same), mcp__server__tool.
  if (/^mcp__/i.test(text)) {
    if (!/^mcp__[A-Za-z0-9_-]+(__\*)?$/.test(text) || /^mcp___*(\*)?$/.test(text))
      return { ok: false, message: `"${raw}" is not an MCP rule; write mcp__server, mcp__server__* or mcp__server__tool` };
    return { ok: true, rule: { tool: "Mcp", specifier: text, text } };
  }
  const m = /^([A-Za-z]+)\s*(?:\((.*)\))?$/s.exec(text);
  if (!m) {
    return { ok: false, message: `"${raw}" is not a rule; write Tool or Tool(specifier), e.g. Bash(npm test *) or Read(./src/**)` };
  }
  const name = m[1] as string;
  const tool = ruleToolNamed(name);
  if (!tool) {
    return { ok: false, message: `unknown tool "${name}" in "${raw}"; use one of ${Object.keys(TOOLS).join(", ")}` };
  }
  if (m[2] === undefined) return { ok: true, rule: { tool, text: tool } };
  const specifier = m[2].trim();
  if (specifier === "" || specifier === "*") {
    // `Bash()` is a typo; `Bash(*)` means the whole tool, as in Claude Code.
    if (specifier === "*") return { ok: true, rule: { tool, text: tool } };
    return { ok: false, message: `empty specifier in "${raw}"; write ${tool} for the whole tool` };
  }
  if (tool === "Bash" || tool === "Process") {
    const legacy = specifier.indexOf(":*");
    if (legacy !== -1 && legacy !== specifier.length - 2) {
      return { ok: false, message: `":*" must end the rule in "${raw}"; write e.g. Bash(git push:*) or Bash(git push *)` };
    }
  }
  return { ok: true, rule: { tool, specifier, text: `${tool}(${specifier})` } };
}
