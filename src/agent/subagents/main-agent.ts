// --agent NAME: the main session runs as that agent (Claude Code's): its prompt as the system
// prompt, its tools as the tools offered, its model; the command line's own choices win.
import { resolve } from "node:path";
import { SessionOpenError } from "../open-log.ts";
import type { SessionOptions } from "../types.ts";
import { agentCatalogBeforeOpen } from "./session-catalog.ts";
import { modelFor } from "./agent-tool.ts";

export function asAgent(opts: SessionOptions): SessionOptions {
  if (!opts.agent) return opts;
  // The agent tool's catalog, plugins' agents (plugin:agent) included.
  const catalog = agentCatalogBeforeOpen({ cwd: resolve(opts.cwd ?? process.cwd()), definitions: opts.agents ?? [], pluginDirs: opts.pluginDirs ?? [], trustProject: opts.mcp?.trustProject ?? false });
  const def = catalog.get(opts.agent);
  if (!def) throw new SessionOpenError(`--agent ${opts.agent}: no such agent; the agents are ${catalog.list().map((d) => d.name).join(", ")}`, true);
  const model = def.model && def.model !== "inherit" ? modelFor(def.model, "") : undefined;
  return {
    ...opts,
    systemPrompt: opts.systemPrompt ?? def.prompt,
    ...(opts.tools === undefined && def.tools ? { tools: def.tools } : {}),
    ...(def.disallowedTools.length > 0 ? { disallowedTools: [...(opts.disallowedTools ?? []), ...def.disallowedTools] } : {}),
    ...(opts.model === undefined && model ? { model } : {}),
  };
}
