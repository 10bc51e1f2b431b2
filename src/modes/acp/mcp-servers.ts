// The MCP servers an editor hands session/new and session/load, as a config in Claude Code's
// .mcp.json shape for the session's MCP service: the editor's servers are the user's, like
// --mcp-config, so they run without the project-trust question.
import type { McpServer } from "@agentclientprotocol/sdk";

const pairs = (list: Array<{ name: string; value: string }> | undefined) => Object.fromEntries((list ?? []).map((p) => [p.name, p.value]));

/** One --mcp-config JSON string with the editor's servers, or null when it gave none. */
export function editorMcpConfig(servers: McpServer[]): string | null {
  if (servers.length === 0) return null;
  const mcpServers: Record<string, unknown> = {};
  for (const s of servers) {
    if ("type" in s && (s.type === "http" || s.type === "sse")) mcpServers[s.name] = { type: s.type, url: s.url, headers: pairs(s.headers) };
    else mcpServers[s.name] = { command: s.command, args: s.args, env: pairs(s.env) };
  }
  return JSON.stringify({ mcpServers });
}
