// A child's tools beyond the built-ins: the parent's MCP tools and the API's web tools, within the
// agent definition's `tools` and `disallowedTools` (Claude Code's names: mcp__server__tool, a whole
// server as mcp__server or mcp__server__*, WebSearch, WebFetch) and the parent's rules that deny a
// whole tool or server. What is left is still asked about by the parent's gate, call by call.
import type { AgentDefinition } from "../../extensions/agents.ts";
import type { PermissionEngine } from "../../permissions/index.ts";
import type { Tool } from "../../tools/types.ts";

/** The API's web tools by Claude Code's names. */
const WEB_NAMES: Record<string, string> = { web_search: "websearch", web_fetch: "webfetch" };

/** Does a name in a list (`mcp__t`, `mcp__t__*`, `mcp__t__echo`, `WebSearch`) take this tool? */
function names(entry: string, tool: string): boolean {
  const e = entry.trim().toLowerCase();
  const t = tool.toLowerCase();
  if (WEB_NAMES[t] !== undefined) return e === WEB_NAMES[t];
  if (e.endsWith("__*")) return t.startsWith(e.slice(0, -1));
  return t === e || (e.startsWith("mcp__") && !e.slice(5).includes("__") && t.startsWith(`${e}__`));
}

/** Which of the parent's MCP and web tools (by API name) the child of `def` is offered. */
export function extraToolFilter(def: Pick<AgentDefinition, "tools" | "disallowedTools">, engine: Pick<PermissionEngine, "rules">): (name: string) => boolean {
  const denied = engine
    .rules()
    .filter((r) => r.behavior === "deny" && !r.rule.includes("("))
    .map((r) => r.rule);
  const banned = [...def.disallowedTools.filter((n) => !n.includes("(")), ...denied];
  return (tool) => (!def.tools || def.tools.some((e) => names(e, tool))) && !banned.some((e) => names(e, tool));
}

/** The parent's tools as they come and go (MCP servers connect later), filtered; the same array while nothing changed. */
export function filteredTools(all: () => Tool[], keep: (name: string) => boolean): () => Tool[] {
  let seen: Tool[] | null = null;
  let out: Tool[] = [];
  return () => {
    const now = all();
    if (now !== seen) {
      seen = now;
      out = now.filter((t) => keep(t.name));
    }
    return out;
  };
}
