// One trust facet for the session: what the project's own files would run (MCP servers, hooks,
// commands' allowed-tools) or widen (settings), asked about together and answered together.
import type { CommandTrust } from "../extensions/command-trust.ts";
import type { SessionHooks } from "../hooks/session-hooks.ts";
import type { McpView } from "../mcp/session-mcp.ts";
import type { SessionPlugins } from "../plugins/session-plugins.ts";
import type { SettingsFacet } from "./settings-facet.ts";
import type { AgentSession } from "./types.ts";

export function trustFacet(mcp: McpView, hooks: SessionHooks, commands: CommandTrust, settings: SettingsFacet, plugins: SessionPlugins): AgentSession["trust"] {
  return {
    pending: () => [...plugins.pending(), ...mcp.pendingTrust(), ...hooks.unasked, ...commands.pending(), ...settings.pending()],
    async answer(answer) {
      const servers = mcp.pendingTrust().map((i) => i.name);
      // A plugin trusted now: its hooks join with the hooks' answer below, its commands at once, its servers start.
      const started = plugins.answer(answer);
      hooks.answer([...hooks.unasked], answer);
      hooks.refresh();
      commands.answer(answer);
      settings.answer(answer);
      if (servers.length > 0) await mcp.answerTrust(answer, servers);
      await Promise.all(started.map((name) => mcp.startPlugin(name)));
    },
    heldSettings: () => settings.held(),
    trustSettings: () => settings.trustHeld(),
  };
}
