// MCP tools in permission rules: Claude Code's mcp__<server>__<tool> names (src/mcp makes them)
// and what an mcp__ rule covers. Kept here, below src/mcp, so the rules need nothing above them.

export const MCP_PREFIX = "mcp__";

export const isMcpName = (name: string) => name.startsWith(MCP_PREFIX);

/**
 * Whether a rule names this tool: `mcp__server` and `mcp__server__*` cover every tool of the
 * server, `mcp__server__tool` the one tool. A rule never covers a server whose name it only starts
 * (`mcp__git` is not `mcp__github`).
 */
export function mcpRuleCovers(rule: string, toolName: string): boolean {
  const base = rule.endsWith("__*") ? rule.slice(0, -3) : rule;
  return toolName === base || toolName.startsWith(`${base}__`);
}
