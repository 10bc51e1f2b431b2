// One subagent: a child session opened from the parent's parts, not a copy of the parent. Its own
// system prompt, the prompt as its only user message, its own tools (the definition's, within the
// parent's), its own model, its own log beside the parent's (<parent>.agents/<id>.jsonl: never
// in the session list, so never what --continue picks), and the parent's permission engine and
// hooks, so a definition cannot widen what the parent may do. Everything it emits goes to the
// parent's bus wrapped (agent_event) with a running summary (agent_progress) for a row.
import { join } from "node:path";
import { createConversationContext } from "../../context/conversation.ts";
import { createEventBus } from "../../events/bus.ts";
import type { AgentEvent, AgentStatus, AgentUsage, DurableEvent, EventSink } from "../../events/types.ts";
import { hookedGate, hookedRuntime, newHookTurn, stopHookPolicy } from "../../hooks/attach.ts";
import type { HookService } from "../../hooks/hooks.ts";
import { runTurn } from "../../kernel/loop.ts";
import type { LoopPolicy } from "../../kernel/types.ts";
import { maxTokensFor } from "../../model/models.ts";
import { TOOL_SEARCH_TOOL, toolSearchOffer } from "../../mcp/tool-search.ts";
import type { EffortLevel, ModelClient, ServerToolSpec, SystemBlock, Usage } from "../../model/types.ts";
import type { PermissionEngine } from "../../permissions/index.ts";
import { doomLoopPolicy } from "../../policy/doom-loop.ts";
import { redactText } from "../../session/redact.ts";
import { createSession, openSession } from "../../session/store.ts";
import type { ConversationView } from "../../session/view.ts";
import { createToolRuntime } from "../../tools/runtime.ts";
import type { Tool } from "../../tools/types.ts";
import { createWorkspace } from "../../workspace/local.ts";
import type { CommandTerminal, TextFiles } from "../../workspace/types.ts";
import { createGate } from "../gate.ts";
import { recordSession } from "../session-record.ts";
import { filteredTools } from "./extra-tools.ts";
import type { Asker } from "../types.ts";

/** What a child is opened from: the parent session's parts it shares. */
export type ParentParts = {
  sessionId: string;
  /** The parent's log directory: the child's log goes in <sessionId>.agents/ there. */
  logDir: string;
  client: ModelClient;
  costOf: (model: string, usage: Usage) => number | null;
  engine: PermissionEngine;
  hooks: HookService;
  /** The mode's Asker (absent in print mode: what would ask is denied). */
  ask?: Asker;
  emit: EventSink;
  /** The parent's MCP tools as its servers connect and change (a child gets those its definition names). */
  mcpTools: () => Tool[];
  /** The API's web tools the parent offers now. */
  webTools: () => ServerToolSpec[];
  files?: TextFiles;
  terminal?: CommandTerminal;
  /** The parent's /undo adopts a file a child changed in the parent's tree. */
  onFileChanged?: (abs: string, before: Uint8Array | null) => Promise<void>;
  doomLoop: boolean;
  /** What the parent's run has spent so far, running children included (for --max-budget-usd). */
  spent(): number;
  maxBudgetUsd?: number;
  /** The parent's --max-turns: a child gets no more steps than that either. */
  maxTurns?: number;
};

export type ChildRequest = {
  agentId: string;
  toolUseId: string;
  agentType: string;
  description: string;
  system: SystemBlock[];
  prompt: string;
  /** A fork's history: the parent's conversation, written to the child's log before its prompt. */
  history?: DurableEvent[];
  /** SendMessage to an agent that ended: its own log goes on, its conversation with it. */
  resume?: boolean;
  /** Messages sent to it while it runs (SendMessage): read at its next step. */
  takeMessages?: () => string[];
  model: string;
  /** The effort level of its requests (sent where its model takes one, as the parent's). */
  effort?: EffortLevel;
  tools: Tool[];
  /** Which of the parent's MCP and web tools it is offered, by API name. */
  keepTool: (name: string) => boolean;
  /** The read-only built-ins (Explore, Plan): bash runs only what plan mode would. */
  onlyReads: boolean;
  maxTurns?: number;
  cwd: string;
  /** In the parent's own tree (no worktree): its changes are the parent's /undo's too. */
  sharedTree: boolean;
};

export type ChildOutcome = { status: AgentStatus; text: string; costUsd: number | null; usage: AgentUsage; durationMs: number; steps: number; logPath: string };

export const zeroUsage = (): AgentUsage => ({ input_tokens: 0, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });

export function childLogPath(parent: Pick<ParentParts, "logDir" | "sessionId">, agentId: string): string {
  return join(parent.logDir, `${parent.sessionId}.agents`, `${agentId}.jsonl`);
}

/** Runs the child to its end; never throws (a failure is the outcome's status and text). */
export async function runChild(p: ParentParts, r: ChildRequest, signal: AbortSignal, onCost: (costUsd: number) => void): Promise<ChildOutcome> {
  const started = Date.now();
  const logPath = childLogPath(p, r.agentId);
  const usage = zeroUsage();
  let cost: number | null = 0;
  let steps = 0;
  let tool: { name: string; summary: string } | null = null;
  const dir = join(p.logDir, `${p.sessionId}.agents`);
  let view: ConversationView | undefined;
  let writer;
  if (r.resume) {
    const opened = openSession(logPath);
    writer = opened.writer;
    view = opened.replayed.view;
  } else writer = createSession({ path: logPath, sessionId: r.agentId, cwd: r.cwd, model: r.model, permissionMode: p.engine.mode });
  const bus = createEventBus();
  // The child's processes carry the parent's mark: the parent's close and orphan sweep find them.
  const workspace = createWorkspace({ root: r.cwd, spillDir: join(dir, `${r.agentId}.spill`), sessionId: p.sessionId, redact: redactText, ...(r.sharedTree ? { files: p.files, terminal: p.terminal } : {}) });
  if (r.sharedTree && p.onFileChanged) workspace.onFileChanged = p.onFileChanged;
  const record = recordSession({ bus, writer, context: { apply: (e) => context.apply(e) }, engine: { setMode: () => {} }, model: r.model, cost: 0, spoke: true });
  const context = createConversationContext({ model: () => r.model, client: p.client, costOf: p.costOf, emit: bus.emit, ...(view ? { view } : {}) });
  // A fork's inherited conversation: in its log and its view, but not shown again as the child's.
  for (const e of r.history ?? []) bus.emit(e);
  const progress = () => p.emit({ type: "agent_progress", agentId: r.agentId, toolUseId: r.toolUseId, tool, usage: { ...usage }, costUsd: cost ?? 0, steps });
  bus.subscribe((e: AgentEvent) => {
    p.emit({ type: "agent_event", agentId: r.agentId, toolUseId: r.toolUseId, event: e });
    if (e.type === "assistant_message") {
      steps++;
      for (const k of Object.keys(usage) as Array<keyof AgentUsage>) usage[k] += e.message.usage[k] ?? 0;
      if (e.costUsd === null) cost = null;
      else if (cost !== null) cost += e.costUsd;
      if (e.costUsd) onCost(e.costUsd);
      progress();
    } else if (e.type === "tool_start") {
      tool = { name: e.facts?.claudeName ?? e.name, summary: e.summary };
      progress();
    } else if (e.type === "tool_result") {
      tool = null;
      progress();
    }
  });
  const hookTurn = newHookTurn();
  const base = createToolRuntime(r.tools, { searchGuard: (t, d) => p.engine.searchFilter(t, d), dynamic: filteredTools(p.mcpTools, r.keepTool) });
  const tools = hookedRuntime(base, p.hooks, r.cwd, hookTurn);
  const mcpOffer = toolSearchOffer(() => tools.specs());
  // A child's question names it: the user must know who asks.
  const ask: Asker | undefined = p.ask && ((req, s) => p.ask!({ ...req, summary: `${r.agentType} agent (${r.description}): ${req.summary}` }, s));
  const gate = hookedGate(createGate({ engine: p.engine, workspace, emit: bus.emit, ...(ask ? { ask } : {}), onlyReads: r.onlyReads }), p.hooks, r.cwd, bus.emit, hookTurn, base);
  // A doom loop stops the child, not the session; SubagentStop may send it back to work.
  let lastText = "";
  bus.subscribe((e) => {
    if (e.type === "assistant_message") lastText = e.message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  });
  const policies: LoopPolicy[] = [stopHookPolicy(p.hooks, () => signal, () => lastText, { id: r.agentId, type: r.agentType, transcriptPath: logPath }), ...(p.doomLoop ? [doomLoopPolicy()] : [])];
  const maxBudgetUsd = p.maxBudgetUsd;
  const limits = [r.maxTurns, p.maxTurns].filter((n): n is number => n !== undefined);
  const maxTurns = limits.length > 0 ? Math.min(...limits) : undefined;
  let status: AgentStatus = "failed";
  let text = "";
  try {
    // SubagentStart (matched by the agent type): its context goes to the child with its prompt.
    const start = p.hooks.has("SubagentStart") ? await p.hooks.run("SubagentStart", r.agentType, { agent_id: r.agentId, agent_type: r.agentType }, signal) : { context: [] };
    const prompt = start.context.length > 0 ? `${r.prompt}\n\n<system-reminder>\nSubagentStart hook additional context:\n${start.context.join("\n")}\n</system-reminder>` : r.prompt;
    const result = await runTurn(
      {
        model: p.client,
        modelName: () => r.model,
        system: () => r.system,
        // Many MCP tools go behind the API's tool search, as the parent's do.
        tools: { ...tools, specs: () => mcpOffer().tools },
        serverTools: () => [...p.webTools().filter((t) => r.keepTool(t.name)), ...(mcpOffer().search ? [TOOL_SEARCH_TOOL] : [])],
        workspace,
        context,
        gate,
        emit: bus.emit,
        policies,
        budgets: { ...(maxTurns !== undefined ? { maxTurns } : {}), ...(maxBudgetUsd !== undefined ? { maxBudgetUsd } : {}) },
        takeNotices: () => workspace.processes.takeExitNotices(),
        ...(r.takeMessages ? { takeSteering: r.takeMessages } : {}),
        costSoFar: p.spent,
        costOf: p.costOf,
        maxTokens: maxTokensFor(r.model),
        ...(r.effort ? { effort: r.effort } : {}),
      },
      prompt,
      signal,
    );
    status = result.reason === "finished" ? "completed" : result.reason === "cancelled" ? "cancelled" : "failed";
    text = status === "completed" ? result.lastText : `${result.message ?? result.reason}${result.lastText ? `\nIts last message: ${result.lastText}` : ""}`;
  } catch (e) {
    text = e instanceof Error ? e.message : String(e);
  } finally {
    record.endTurn();
    await workspace.processes.stopAll().catch(() => {});
    writer.close();
  }
  return { status, text, costUsd: cost, usage, durationMs: Date.now() - started, steps, logPath };
}
