// A session's subagents, wired: the catalog of agent types, the children that run, and the agent
// tool the model calls. openAgentSession opens this once; a child is opened from ParentParts.
import { dirname } from "node:path";
import type { EventSink } from "../../events/types.ts";
import type { AgentDefinition } from "../../extensions/agents.ts";
import type { HookService } from "../../hooks/hooks.ts";
import type { EffortLevel } from "../../model/types.ts";
import type { Foundation } from "../foundation.ts";
import { notifyingAsker } from "../hook-wiring.ts";
import { gitStatusSummary, projectSection } from "../../context/system-prompt.ts";
import { readableInstructions } from "../instructions.ts";
import { offeredTools, webTools } from "../offer.ts";
import type { AgentInfo, SessionOptions } from "../types.ts";
import type { PermissionEngine } from "../../permissions/index.ts";
import type { Tool } from "../../tools/types.ts";
import { agentTool, type ForkSource } from "./agent-tool.ts";
import { sendMessageTool } from "./send-message.ts";
import { loadAgentCatalog, type AgentCatalog, type PluginAgents } from "./catalog.ts";
import { pluginAgents } from "./session-catalog.ts";
import type { ParentParts } from "./child.ts";
import { createChildren, type Children } from "./spawn.ts";

export type { AgentCatalog, Children, ParentParts };
export { childTools, modelFor } from "./agent-tool.ts";
export { agentCatalogBeforeOpen } from "./session-catalog.ts";

export type Subagents = {
  catalog: AgentCatalog;
  children: Children;
  /** The agent tool and SendMessage (offered together). */
  tools: Tool[];
  /** What a fork inherits, once the session has its system prompt and conversation. */
  forkFrom(source: ForkSource): void;
};

/**
 * The subagents of the session openAgentSession opens: its parts a child shares, the catalog (its
 * problems go to the notices) and the tools the parent offers, the agent tool among them unless a
 * host's --tools list leaves it out. `spent`: this run's cost, running children included.
 */
export function sessionSubagents(o: {
  f: Pick<Foundation, "sessionId" | "writer" | "client" | "provider" | "engine" | "git" | "cwd" | "notices" | "plugins" | "mcp" | "settings">;
  opts: SessionOptions;
  emit: EventSink;
  hooks: HookService;
  costSinceOpen(): number;
  model(): string;
  /** The session's effort level now: a child without its own works at it. */
  effort?(): EffortLevel | undefined;
}): Subagents & { offered: Tool[]; spent(): number; infos(): AgentInfo[] } {
  const { f, opts } = o;
  let children: Children | null = null;
  const spent = () => o.costSinceOpen() + (children?.runningCost() ?? 0);
  const ask = notifyingAsker(o.hooks, opts.ask);
  const parent: ParentParts = {
    sessionId: f.sessionId,
    logDir: dirname(f.writer.path),
    client: f.client,
    costOf: f.provider.costOf,
    engine: f.engine,
    hooks: o.hooks,
    ...(ask ? { ask } : {}),
    emit: o.emit,
    mcpTools: () => f.mcp.manager.tools(),
    webTools: webTools({ engine: f.engine, settings: f.settings, opts, provider: f.provider }),
    ...(opts.files ? { files: opts.files } : {}),
    ...(opts.terminal ? { terminal: opts.terminal } : {}),
    onFileChanged: (abs, before) => f.git.adopt(abs, before),
    doomLoop: opts.doomLoop ?? true,
    spent,
    ...(opts.budgets?.maxBudgetUsd !== undefined ? { maxBudgetUsd: opts.budgets.maxBudgetUsd } : {}),
    ...(opts.budgets?.maxTurns !== undefined ? { maxTurns: opts.budgets.maxTurns } : {}),
  };
  const builtins = offeredTools(opts.tools, f.notices);
  const plugins = pluginAgents(f.plugins.plugins);
  // Read when a child starts (in its worktree, if it has one); a skipped file was said at the session's start.
  const projectContext = (cwd: string) => projectSection({ gitStatus: gitStatusSummary(cwd), instructions: readableInstructions(cwd, f.engine, []) });
  const s = openSubagents({ cwd: f.cwd, projectContext, definitions: opts.agents ?? [], plugins, parent, engine: f.engine, parentModel: o.model, ...(o.effort ? { parentEffort: o.effort } : {}), parentTools: builtins.map((t) => t.name) });
  children = s.children;
  f.notices.push(...s.catalog.problems);
  // Depth 1: a child's tools never include this one. A host's --tools list offers it only by name.
  const offered = opts.tools === undefined || opts.tools.some((t) => /^(agent|task)$/i.test(t)) ? [...builtins, ...s.tools] : builtins;
  const infos = () => s.catalog.list().map((d): AgentInfo => ({ name: d.name, description: d.description, source: d.source, ...(d.file ? { file: d.file } : {}), ...(d.model ? { model: d.model } : {}), ...(d.tools ? { tools: d.tools } : {}) }));
  return { ...s, offered, spent, infos };
}

export function openSubagents(o: {
  cwd: string;
  /** The host's definitions (--agents, initialize.agents). */
  definitions: AgentDefinition[];
  /** Plugins' agents/ folders. */
  plugins?: PluginAgents[];
  parent: ParentParts;
  engine: Pick<PermissionEngine, "rules">;
  parentModel(): string;
  parentEffort?(): EffortLevel | undefined;
  parentTools: readonly string[];
  projectContext?: (cwd: string) => string;
}): Subagents {
  const catalog = loadAgentCatalog(o.cwd, o.definitions, o.plugins);
  const children = createChildren(o.parent, o.parent.emit);
  let fork: ForkSource | undefined;
  const parts = { catalog, children, engine: o.engine, parentModel: o.parentModel, ...(o.parentEffort ? { parentEffort: o.parentEffort } : {}), parentTools: o.parentTools, cwd: o.cwd, fork: () => fork, ...(o.projectContext ? { projectContext: o.projectContext } : {}) };
  return { catalog, children, tools: [agentTool(parts), sendMessageTool(parts)], forkFrom: (source) => void (fork = source) };
}
