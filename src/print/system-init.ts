// stream-json's first line, `system/init`, as the Agent SDK's SDKSystemMessage declares it: what
// the model is offered (in Claude Code's tool names, so a host's checks for "Bash" or
// "mcp__server__tool" hold), the servers and their status, the slash commands and skills a prompt
// can name, the mode and the model. Built from the session, so print mode and stream-json agree.
import type { AgentSession } from "../agent/types.ts";
import { hostCommands } from "../extensions/host-commands.ts";
import { claudeToolName } from "../hooks/tool-names.ts";
import { VERSION } from "../version.ts";

/** The API's own tools by the names Claude Code gives them. */
const SERVER_TOOLS: Record<string, string> = { web_search: "WebSearch", web_fetch: "WebFetch", tool_search_tool_regex: "ToolSearch" };

export type SystemInit = {
  cwd: string;
  session_id: string;
  tools: string[];
  mcp_servers: Array<{ name: string; status: string; source: string; error?: string }>;
  model: string;
  permissionMode: string;
  slash_commands: string[];
  skills: string[];
  agents: string[];
  plugins: never[];
  apiKeySource: "ANTHROPIC_API_KEY" | "none";
  claude_code_version: string;
  output_style: string;
};

/** Claude Code's status words: a project server the user has not trusted is not run, "disabled" (the error says why). */
const status = (state: string) => (state === "needs-approval" ? "disabled" : state);
/** Claude Code's source words: --mcp-config servers are "dynamic". */
const source = (scope: string) => (scope === "cli" ? "dynamic" : scope);

/** The servers as init and mcp_status report them (Claude Code's McpServerStatus). */
export function mcpServerStatus(s: AgentSession): SystemInit["mcp_servers"] {
  return s.mcp.servers().map((v) => ({ name: v.name, status: status(v.status.state), source: source(v.scope), ...("reason" in v.status ? { error: v.status.reason } : {}) }));
}

export function systemInit(s: AgentSession): SystemInit {
  const commands = hostCommands(s.slashCommands());
  return {
    cwd: s.cwd,
    session_id: s.sessionId,
    tools: s.offeredTools().map((n) => SERVER_TOOLS[n] ?? claudeToolName(n)),
    mcp_servers: mcpServerStatus(s),
    model: s.model(),
    permissionMode: s.permissionMode(),
    slash_commands: commands.map((c) => c.name),
    skills: commands.filter((c) => c.kind === "skill").map((c) => c.name),
    agents: s.agents().map((a) => a.name),
    plugins: [],
    // A key from the settings file or a bearer token is "none" in Claude Code's words too: not the environment's key.
    apiKeySource: process.env.ANTHROPIC_API_KEY ? "ANTHROPIC_API_KEY" : "none",
    // Our version: a host that compares it with Claude Code's sees an old CLI and stays with the basics.
    claude_code_version: VERSION,
    output_style: "default",
  };
}
