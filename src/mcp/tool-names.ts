// How MCP tools are named for the model and in permission rules: mcp__<server>__<tool>, as in
// Claude Code, so a user's rules carry over. The API allows [A-Za-z0-9_-]{1,64}.
import { createHash } from "node:crypto";

export const MCP_PREFIX = "mcp__";
const MAX_NAME = 64;

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]/g, "_");

export function mcpToolName(server: string, tool: string): string {
  const full = `${MCP_PREFIX}${clean(server)}__${clean(tool)}`;
  if (full.length <= MAX_NAME) return full;
  // Too long for the API: keep it readable and unique.
  const hash = createHash("sha256").update(full).digest("hex").slice(0, 8);
  return `${full.slice(0, MAX_NAME - 9)}_${hash}`;
}

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
