// The stream-json session opens at the first thing that needs it (a user message, or a control
// request that acts on the session), so that initialize's settings (system prompt, hooks, the
// SDK's MCP servers) and set_model before it are what it opens with.
import { openAgentSession } from "../../agent/agent-session.ts";
import type { AgentDefinition, AgentSession, Asker } from "../../agent/types.ts";
import type { HookEntry } from "../../hooks/config.ts";
import type { RunOptions } from "../shared/run-options.ts";
import { sessionOptions } from "../shared/session-options.ts";
import type { SdkMcpServers } from "./sdk-mcp.ts";

/** What the host may set before the session opens; later changes go to the open session. */
export type Launch = {
  model: string | null;
  systemPrompt: string | null;
  appendSystemPrompt: string | null;
  hostHooks: HookEntry[];
  sdkServers: SdkMcpServers | null;
  thinkingBudget: number | undefined;
  /** initialize's `agents` (the Agent SDK's subagent definitions), beside --agents. */
  agents: AgentDefinition[];
};

export type LazySession = {
  /** The session, opened on the first call (each call shares that one opening). */
  get(): Promise<AgentSession>;
  /** The session once open; null before. */
  current(): AgentSession | null;
  /** Whether opening has begun: settings that only apply at open are too late from then on. */
  started(): boolean;
  /** A new session in place of the open one (an approved plan's clean context): the same settings, none of its conversation, accepting edits. */
  renew(): Promise<AgentSession>;
};

export function launchOf(opts: RunOptions): Launch {
  return { model: opts.model, systemPrompt: opts.systemPrompt, appendSystemPrompt: opts.appendSystemPrompt, hostHooks: [], sdkServers: null, thinkingBudget: undefined, agents: [] };
}

export function lazySession(opts: RunOptions, launch: Launch, ask: Asker | null, onOpen: (s: AgentSession) => Promise<void>): LazySession {
  let session: AgentSession | null = null;
  let opening: Promise<AgentSession> | null = null;
  const open = async (fresh = false) => {
    const { model, systemPrompt, appendSystemPrompt, hostHooks, sdkServers, thinkingBudget, agents } = launch;
    const from: RunOptions = fresh ? { ...opts, resume: null, continue: false, forkSession: false, sessionId: null, resumeSessionAt: null, permissionMode: "acceptEdits" } : opts;
    const base = sessionOptions({ ...from, model: session?.model() ?? model, systemPrompt, appendSystemPrompt, agents: [...opts.agents, ...agents] });
    const mcp = sdkServers ? { ...base.mcp, hostServers: sdkServers.servers } : base.mcp;
    const s = await openAgentSession({
      ...base,
      ...(mcp ? { mcp } : {}),
      ...(hostHooks.length > 0 ? { hostHooks } : {}),
      ...(thinkingBudget !== undefined ? { thinkingBudget } : {}),
      ...(ask ? { ask } : {}),
    });
    session = s;
    await onOpen(s);
    return s;
  };
  return {
    get: () => (opening ??= open()),
    current: () => session,
    started: () => opening !== null,
    renew: async () => {
      // Only once open: a session that could not be opened stays the open one.
      const s = await open(true);
      opening = Promise.resolve(s);
      return s;
    },
  };
}
