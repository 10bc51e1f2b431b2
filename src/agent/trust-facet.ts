// One trust facet for the session: what the project's own files would run (MCP servers, hooks,
// commands' allowed-tools) or widen (settings), asked about together and answered together.
import type { CommandTrust } from "../extensions/command-trust.ts";
import type { SessionHooks } from "../hooks/session-hooks.ts";
import type { McpView } from "../mcp/session-mcp.ts";
import type { SettingsFacet } from "./settings-facet.ts";
import type { AgentSession } from "./types.ts";

export function trustFacet(mcp: McpView, hooks: SessionHooks, commands: CommandTrust, settings: SettingsFacet): AgentSession["trust"] {
  return {
    pending: () => [...mcp.pendingTrust(), ...hooks.unasked, ...commands.pending(), ...settings.pending()],
    async answer(answer) {
      const servers = mcp.pendingTrust().map((i) => i.name);
      hooks.answer([...hooks.unasked], answer);
      commands.answer(answer);
      settings.answer(answer);
      if (servers.length > 0) await mcp.answerTrust(answer, servers);
    },
    heldSettings: () => settings.held(),
    trustSettings: () => settings.trustHeld(),
  };
}
