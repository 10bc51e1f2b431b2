// The one catalog of agent types every part of a session names them from: the agent tool the
// model calls, --agent (before the session opens) and stream-json's list of agents (initialize,
// system/init). Each builds it here from the same sources: the built-ins, the agent files, the
// host's definitions and the plugins the session loads, a project's plugin only where trusted.
import { homedir } from "node:os";
import type { AgentDefinition } from "../../extensions/agents.ts";
import { userConfigDir } from "../../permissions/index.ts";
import { openSessionPlugins, type SessionPlugin } from "../../plugins/session-plugins.ts";
import { loadAgentCatalog, type AgentCatalog, type PluginAgents } from "./catalog.ts";

/** A loaded plugin's agents/ folder, on while the plugin is. */
export function pluginAgents(plugins: SessionPlugin[]): PluginAgents[] {
  return plugins.map((p) => ({ name: p.name, agentsDir: p.agentsDir, active: p.active }));
}

/**
 * The catalog before a session is open: the plugins the session will load (--plugin-dir, the
 * settings' enabled ones; a project's only once trusted or with --trust-project), read now. Their
 * notices are the session's to say when it opens, so they are not repeated here.
 */
export function agentCatalogBeforeOpen(o: { cwd: string; definitions: AgentDefinition[]; pluginDirs: string[]; trustProject: boolean }): AgentCatalog {
  const plugins = openSessionPlugins({ cwd: o.cwd, configDir: userConfigDir(homedir()), pluginDirs: o.pluginDirs, trustProject: o.trustProject, interactive: false });
  return loadAgentCatalog(o.cwd, o.definitions, pluginAgents(plugins.plugins));
}
