// The agent types a session offers: the built-ins, named as Claude Code names them (so prompts and
// SDK hosts that name them keep working), then the user's files, the project's and the session's
// own (--agents, the Agent SDK's `agents`), each replacing a built-in or file of the same name.
import { homedir } from "node:os";
import { agentDirs, loadAgentFiles, type AgentDefinition } from "../../extensions/agents.ts";
import { userConfigDir } from "../../permissions/index.ts";

// The web tools only read too (Claude Code's Explore has them).
const READ_ONLY = ["Read", "Grep", "Glob", "Bash", "WebSearch", "WebFetch"];

const COMMON = `You are a subagent of KHAELOR, a coding agent: the main agent gave you one task. Do it with the tools you have, then answer with a final message that the main agent will read (the user does not see it): the facts it asked for, concise, with file paths and line numbers where they help. You cannot ask the user anything.`;

export const BUILTIN_AGENTS: readonly AgentDefinition[] = [
  {
    name: "general-purpose",
    description: "research, code search and multi-step tasks",
    prompt: `${COMMON}\nWhen you search, try several names and places before concluding something is absent. Change files only when the task asks for it.`,
    disallowedTools: [],
    source: "built-in",
  },
  {
    name: "Explore",
    description: "fast, read-only: finds files and code, answers questions about the codebase; say how thorough",
    prompt: `${COMMON}\nYou only read: never create, edit or delete files, and run only commands that change nothing (ls, git status, git log, git diff, cat). Search wide first (glob, grep), then read what matters.`,
    tools: READ_ONLY,
    disallowedTools: [],
    model: "haiku",
    omitClaudeMd: true,
    source: "built-in",
  },
  {
    name: "Plan",
    description: "read-only architect: a step-by-step implementation plan, the files that matter, trade-offs",
    prompt: `${COMMON}\nYou only read: never create, edit or delete files, and run only commands that change nothing. Explore the code, then answer with a concrete step-by-step plan: which files change and how, in what order, what could go wrong, and how to verify it.`,
    tools: READ_ONLY,
    disallowedTools: [],
    omitClaudeMd: true,
    source: "built-in",
  },
];

/** Built-ins whose bash may only run commands that change nothing. */
export const READ_ONLY_AGENTS = new Set(["Explore", "Plan"]);

export type AgentCatalog = {
  list(): AgentDefinition[];
  get(name: string): AgentDefinition | undefined;
  problems: string[];
};

/** A plugin's agents/ (src/plugins): its agents are named plugin:agent, offered while the plugin is on. */
export type PluginAgents = { name: string; agentsDir: string; active: () => boolean };

/** `session`: the host's definitions (--agents, initialize.agents), the highest priority. */
export function loadAgentCatalog(cwd: string, session: AgentDefinition[] = [], plugins: PluginAgents[] = []): AgentCatalog {
  const files = loadAgentFiles(agentDirs(cwd, homedir(), userConfigDir(homedir())));
  const problems = [...files.problems];
  const fromPlugins = new Map<AgentDefinition, PluginAgents>();
  for (const p of plugins) {
    const loaded = loadAgentFiles([{ dir: p.agentsDir, scope: "user" }]);
    problems.push(...loaded.problems);
    for (const d of loaded.agents) fromPlugins.set({ ...d, name: `${p.name}:${d.name}` }, p);
  }
  const byName = new Map<string, AgentDefinition>();
  // Lowest priority first; a later one of the same name replaces it. A plugin's names carry its own, so none replaces another's.
  for (const d of [...BUILTIN_AGENTS, ...fromPlugins.keys(), ...[...files.agents].reverse(), ...session]) byName.set(d.name, d);
  const on = (d: AgentDefinition | undefined) => d !== undefined && (fromPlugins.get(d)?.active() ?? true);
  return { list: () => [...byName.values()].filter(on), get: (name) => (on(byName.get(name)) ? byName.get(name) : undefined), problems };
}
