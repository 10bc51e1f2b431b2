// The session service every mode stands on: one function that opens the parts and wires them to
// the kernel through the event bus, and the AgentSession each mode speaks. The parts:
// foundation.ts (settings, key, log, MCP, rules, snapshots, writer), session-record.ts (the log
// first, then the state that follows from it), hook-wiring.ts (hooks around the loop), turn.ts
// (one prompt to one result), settings-facet.ts (what the project's files would widen), and the
// trust facet below that answers for all of it at once.
import { homedir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { buildSystemPrompt, gitStatusSummary, instructionSection } from "../context/system-prompt.ts";
import { readableInstructions } from "./instructions.ts";
import { createConversationContext, RESERVE_TOKENS } from "../context/conversation.ts";
import { createEventBus, type EventBus } from "../events/bus.ts";
import { newEventId as newId } from "../events/id.ts";
import type { AgentEvent, DurableEvent, PermissionMode } from "../events/types.ts";
import { openCommandTrust } from "../extensions/command-trust.ts";
import { loadSessionExtensions } from "../extensions/session-extensions.ts";
import { hookedGate, hookedRuntime, newHookTurn } from "../hooks/attach.ts";
import { openSessionHooks } from "../hooks/session-hooks.ts";
import { effortFor } from "../model/effort.ts";
import type { EffortLevel, Message, ModelClient, SystemBlock } from "../model/types.ts";
import { settingsLocations, userConfigDir, type PermissionEngine } from "../permissions/index.ts";
import { readSessionLog } from "../session/log.ts";
import { redactText } from "../session/redact.ts";
import { pruneSpillDirs } from "../session/spill-retention.ts";
import { fitToBudget } from "../tools/output-budget.ts";
import { createToolRuntime } from "../tools/runtime.ts";
import { createWorkspace } from "../workspace/local.ts";
import type { GitProtection } from "../workspace/git/index.ts";
import { openFoundation, type Foundation } from "./foundation.ts";
import { createGate } from "./gate.ts";
import { attachSandbox } from "./sandbox-wiring.ts";
import { sandboxOffers } from "./sandbox-offer.ts";
import type { Sandbox } from "../sandbox/sandbox.ts";
import { notifyingAsker, wireHooks } from "./hook-wiring.ts";
import { openPlanWorkflow } from "./plan-mode.ts";
import { restoreWorkspace, SessionOpenError } from "./open-log.ts";
import { recordSession } from "./session-record.ts";
import { openSettingsFacet, type SettingsFacet } from "./settings-facet.ts";
import { openStructuredOutput, type StructuredOutput } from "./structured-output.ts";
import type { Tool } from "../tools/types.ts";
import { prepareShutdown } from "./shutdown.ts";
import { trustFacet } from "./trust-facet.ts";
import { listPlugins, togglePlugin } from "../plugins/plugin-list.ts";
import { offeredTools, turnOffer } from "./offer.ts";
import { createRewind } from "./rewind.ts";
import { asAgent } from "./subagents/main-agent.ts";
import { sessionSubagents } from "./subagents/index.ts";
import { createTurnRunner, type TurnRunner, type WriteFailures } from "./turn.ts";
import type { AgentSession, AgentTurnResult, PlanHandoff, SessionOptions } from "./types.ts";
import { runUserShell } from "./user-shell.ts";
import { initPrompt, reviewPrompt } from "./command-prompts.ts";
import { contextUsage, type ContextUsage } from "./context-usage.ts";

export { SessionOpenError };

export async function openAgentSession(given: SessionOptions): Promise<AgentSession> {
  const opts = asAgent(given);
  // The log is the truth: a write that fails (a full disk) stops the turn in flight at once.
  const writes: WriteFailures = { failure: null, stop: null };
  const f = await openFoundation(opts, (e) => {
    writes.failure ??= e;
    writes.stop?.();
  });
  const { cwd, engine, git, writer, mcp, notices, sessionId, settings } = f;
  const replayed = f.opened.replayed;

  const spillDir = join(dirname(writer.path), `${sessionId}.spill`);
  pruneSpillDirs(dirname(writer.path));
  const workspace = createWorkspace({ root: cwd, spillDir, sessionId, redact: redactText, files: opts.files, terminal: opts.terminal });
  workspace.onFileChanged = (abs, before) => git.adopt(abs, before);
  if (replayed) restoreWorkspace(workspace, replayed.events);
  const bus = createEventBus();
  const hooks = sessionHooks(f, opts, bus, workspace);
  notices.push(...hooks.notices);
  const hookTurn = newHookTurn();
  const structured = await structuredOutputOf(opts);
  // Where the user's `!` commands are: a `cd` in one lasts for the next.
  const shellDir = { cwd };
  const plan = openPlanWorkflow({ bus, sessionId, planFile: f.planFile, mode: () => engine.mode, replayed: replayed?.events ?? [] });
  const subagents = sessionSubagents({ f, opts, emit: (e) => bus.emit(e), hooks: hooks.service, costSinceOpen: () => state.costSinceOpen(), model: () => state.model(), effort: () => offer.effort() });
  const baseTools = createToolRuntime([...subagents.offered, plan.tool], { searchGuard: (tool, dir) => engine.searchFilter(tool, dir), dynamic: withStructuredTool(() => mcp.manager.tools(), structured) });
  // The sandbox is attached below; the offer asks it once a command has run.
  let sandboxNow: Sandbox | null = null;
  const offered = opts.ask && opts.sandboxOffers ? sandboxOffers(baseTools, () => sandboxNow, opts.ask) : baseTools;
  const tools = hookedRuntime(offered, hooks.service, cwd, hookTurn);
  notices.push(...missingTools(replayed?.toolNamesUsed ?? [], tools.names()));
  // First on the bus, so nothing is shown that is not on disk; the model's view follows the log.
  // (A new session nobody spoke in is not worth a place in the session list: `spoke` says.)
  const state = recordSession({ bus, writer, context: { apply: (e) => context.apply(e) }, engine, model: f.model, cost: replayed?.costUsd ?? 0, spoke: f.opened.writer !== null || (f.opened.seedEvents?.length ?? 0) > 0 });
  const context = createConversationContext({ model: state.model, client: f.client, costOf: f.provider.costOf, emit: bus.emit, events: replayed?.events ?? [] });
  if (replayed) recordFlagChanges(replayed, { model: state.model(), mode: engine.mode }, bus.emit);
  const sb = await attachSandbox(cwd, engine, workspace, notices);
  sandboxNow = sb.sandbox;
  const hooked = hookedGate(createGate({ engine, workspace, emit: bus.emit, ask: plan.asker(notifyingAsker(hooks.service, opts.ask)), ...(sb.gate ? { sandbox: sb.gate } : {}) }), hooks.service, cwd, bus.emit, hookTurn, baseTools);
  const gate = structured ? structured.gate(hooked) : hooked;

  const extensions = loadSessionExtensions(cwd, homedir(), userConfigDir(homedir()), f.plugins.plugins);
  notices.push(...extensions.problems);
  const commandTrust = openCommandTrust({ cwd, items: extensions.trustItems, trustProject: f.trustProject, interactive: f.trustQuestion });
  notices.push(...commandTrust.notices);
  const settingsFacet = sessionSettingsFacet(f, opts, bus, state.model);
  notices.push(...settingsFacet.notices);
  const prompt = systemPrompt(opts, { cwd, engine, notices, toolNames: tools.names(), skillsPrompt: extensions.skillsPrompt });
  const system = prompt.blocks;
  subagents.forkFrom({ system: () => system, view: () => context.view });
  const wiring = await wireHooks({ service: hooks.service, hookTurn, bus, context, cwd, model: state.model, resumed: replayed !== null, opts, notices });
  if (structured) wiring.policies.push(structured.policy);

  const offer = turnOffer(
    { model: f.client, modelName: state.model, system: () => system, tools, workspace, context: wiring.context, gate, emit: bus.emit, policies: [plan.policy, ...wiring.policies], takeNotices: () => workspace.processes.takeExitNotices(), takeAgentNotices: () => subagents.children.takeNotices(), costSoFar: subagents.spent },
    { engine, settings, opts: { ...opts, ...effortAtOpen(opts, settings, f.model, notices) }, provider: f.provider },
  );
  const turns = createTurnRunner({
    cwd,
    bus,
    writer,
    writes,
    record: state,
    git,
    shadowDir: f.shadowDir,
    mcpReady: () => mcp.manager.ready(),
    engine,
    tools,
    gate,
    workspace,
    extensions,
    commandTrust,
    hooks: hooks.service,
    hookTurn,
    wiring,
    kernel: offer.kernel,
    effort: { get: offer.effort, set: offer.setEffort },
    reminder: plan.reminder,
    interactive: opts.ask !== undefined,
  });

  const rewind = createRewind({ bus, view: context.view, git, busy: turns.running });
  // --resume-session-at: checked when the log was opened; the conversation continues from there.
  // A fork was cut there already (open-log.ts): nothing after the message was copied.
  if (opts.resumeAt && !opts.fork) rewind.continueAt(opts.resumeAt);

  const runCancelling = cancellingRunner(turns, subagents.children, plan);
  const closeSession = prepareShutdown({ children: subagents.children, sessionId, workspace, mcp: mcp.manager, hooks: hooks.service, writer, git, spillDir, ending: turns.ending, spoke: state.spoke });
  return {
    sessionId,
    cwd,
    toolNames: tools.names(),
    offeredTools: offer.offeredTools,
    mcp: mcp.view,
    replayed,
    notices,
    logPath: writer.path,
    planFile: plan.planFile,
    subscribe: (listener) => bus.subscribe(listener),
    model: state.model,
    permissionMode: (): PermissionMode => engine.mode,
    costSoFar: state.cost,
    isEmpty: () => !state.spoke(),
    setModel: (name) => bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), model: name }),
    setThinkingBudget: offer.setThinkingBudget,
    effort: offer.effort,
    setEffort: offer.setEffort,
    structuredOutput: () => structured?.value(),
    setPermissionMode: (mode) => bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), permissionMode: mode }),
    queueSteering: offer.queueSteering,
    takeQueuedSteering: offer.takeQueuedSteering,
    runTurn(input, signal, o) {
      // An id the session holds already would make the view take the message for a replay of that event.
      const id = o?.messageId;
      const messageId = id !== undefined && !context.view.applied().some((e) => e.id === id) ? id : undefined;
      return runCancelling(input, signal, { ...(messageId ? { messageId } : {}), ...(o?.display !== undefined ? { display: o.display } : {}) });
    },
    wake: async (signal) => (subagents.children.pending() > 0 ? runCancelling(null, signal) : null),
    agents: subagents.infos,
    agentConversation: (log) => readAgentLog(dirname(writer.path), log),
    subagents: subagents.children,
    runShell: (command, signal) => runUserShell({ cwd, dir: shellDir, engine, emit: bus.emit }, command, signal),
    contextUsage: measureContext({ client: f.client, model: state.model, prompt, offer, context: { messages: () => wiring.context.messages(), contextWindow: () => context.contextWindow() }, bus, replayed: replayed?.events ?? [] }),
    commandPrompt: async (name, arg) => (name === "init" ? initPrompt(cwd) : reviewPrompt(cwd, arg)),
    rewind: { points: rewind.points, to: rewind.to },
    snapshots: snapshotsFacet(git, bus.emit),
    compact: (instructions, signal) => wiring.context.compact("manual", signal, instructions),
    rules: { list: () => engine.rules(), remove: (entry) => engine.removeRule(entry) },
    slashCommands: () => extensions.entries(),
    hooks: () => hooks.listing(),
    plugins: { list: () => listPlugins(cwd, userConfigDir(homedir()), f.plugins.plugins), setEnabled: (id, on) => togglePlugin(id, on, cwd, userConfigDir(homedir())) },
    trust: trustFacet(mcp.view, hooks, commandTrust, settingsFacet, f.plugins),
    processes: () => workspace.processes.list(),
    statusLine: settingsFacet.statusLine,
    sandbox: sb.sandbox,
    start: () => wiring.start(),
    close: async (reason) => {
      try {
        return await closeSession(reason);
      } finally {
        await sb.sandbox.close();
      }
    },
  };
}

/** A turn where Esc stops the parent and every child, those in the background too; a plan approved into a new session is handed back. */
function cancellingRunner(turns: TurnRunner, children: { cancelAll(reason?: unknown): void }, plan: { takeHandoff(): PlanHandoff | null | undefined }) {
  return async (input: Parameters<TurnRunner["run"]>[0], signal: AbortSignal, o?: Parameters<TurnRunner["run"]>[2]): Promise<AgentTurnResult> => {
    const cancel = () => children.cancelAll(signal.reason);
    signal.addEventListener("abort", cancel, { once: true });
    const r = await turns.run(input, signal, o).finally(() => signal.removeEventListener("abort", cancel));
    const handoff = plan.takeHandoff();
    return handoff ? { ...r, planHandoff: handoff } : r;
  };
}

/**
 * Resume contract: tools may be added between versions, never silently removed. (MCP tools come
 * and go with their servers, which are not connected yet.)
 */
function missingTools(used: readonly string[], offered: readonly string[]): string[] {
  const missing = used.filter((t) => !t.startsWith("mcp__") && !offered.includes(t));
  return missing.length > 0 ? [`this session used tools this version does not have (${missing.join(", ")}); calls to them will fail`] : [];
}

/** A resumed session started with other flags records the change, so replay sees it too. */
function recordFlagChanges(replayed: { model: string; permissionMode: PermissionMode }, now: { model: string; mode: PermissionMode }, emit: (e: AgentEvent) => void): void {
  if (now.model === replayed.model && now.mode === replayed.permissionMode) return;
  const change = { ...(now.model !== replayed.model ? { model: now.model } : {}), ...(now.mode !== replayed.permissionMode ? { permissionMode: now.mode } : {}) };
  emit({ type: "setting_change", id: newId(), ts: Date.now(), ...change });
}

/** The session's hooks: every settings file's, and the host's (stream-json's SDK callbacks). */
function sessionHooks(f: Foundation, opts: SessionOptions, bus: EventBus, workspace: Pick<ReturnType<typeof createWorkspace>, "spill">): ReturnType<typeof openSessionHooks> {
  return openSessionHooks({
    cwd: f.cwd,
    files: [...settingsLocations(f.cwd, userConfigDir(homedir())), ...f.plugins.plugins.map((p) => ({ scope: "user" as const, file: p.hooksFile, plugin: { name: p.name, root: p.root, active: p.active } }))],
    sessionId: f.sessionId,
    transcriptPath: f.writer.path,
    permissionMode: () => f.engine.mode,
    emit: (e) => bus.emit(e),
    interactive: f.trustQuestion,
    // --trust-project covers every command the project's files define, hooks as MCP servers.
    trustProject: f.trustProject,
    ...(opts.hostHooks ? { host: opts.hostHooks } : {}),
    fit: (text, label) => fitToBudget(text, workspace.spill, label).text,
  });
}

/** The project's held settings; once trusted in the app's question, its mode and model take effect unless this run's flags chose. */
function sessionSettingsFacet(f: Foundation, opts: SessionOptions, bus: EventBus, model: () => string): SettingsFacet {
  const { engine } = f;
  const modeAtOpen = engine.mode;
  const resumed = f.opened.replayed !== null;
  return openSettingsFacet({
    cwd: f.cwd,
    engine,
    trust: f.settingsTrust,
    projectModel: f.projectModel,
    projectStatusLine: f.projectStatusLine,
    projectEnv: f.projectEnv,
    userStatusLine: f.settings.statusLine ? { ...f.settings.statusLine, file: join(userConfigDir(homedir()), "settings.json") } : null,
    trustQuestion: f.trustQuestion,
    onTrusted: ({ mode, model: trusted }) => {
      const change = {
        ...(opts.permissionMode === undefined && engine.mode === modeAtOpen && mode && mode !== engine.mode ? { permissionMode: mode } : {}),
        ...(opts.model === undefined && !resumed && trusted && trusted !== model() ? { model: trusted } : {}),
      };
      if (Object.keys(change).length > 0) bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), ...change });
    },
  });
}

/** /undo and /diff over the work tree's snapshots; an undo is recorded in the log. */
function snapshotsFacet(git: GitProtection, emit: (e: AgentEvent) => void): AgentSession["snapshots"] {
  return {
    off: () => git.unavailable,
    async undo() {
      if (git.unavailable) throw new Error(`/undo is off: ${git.unavailable}`);
      const r = await git.undo();
      if (r) emit({ type: "undo", id: newId(), ts: Date.now(), snapshot: r.snapshot, restored: r.restored, removed: r.removed, skipped: r.skipped });
      return r;
    },
    diff: () => git.diff(),
  };
}

/**
 * KHAELOR's system prompt (or the host's), with the project's instructions the Read rules let the
 * model read unasked; and, for /context, the instructions' and the skills' parts of it.
 */
function systemPrompt(
  opts: SessionOptions,
  o: { cwd: string; engine: Pick<PermissionEngine, "decide">; notices: string[]; toolNames: string[]; skillsPrompt: string },
): { blocks: SystemBlock[]; instructions: { text: string; files: string[] }; skills: string } {
  const instructions = readableInstructions(o.cwd, o.engine, o.notices);
  const built: SystemBlock[] =
    opts.systemPrompt !== undefined
      ? [{ type: "text", text: opts.systemPrompt }]
      : buildSystemPrompt({ cwd: o.cwd, date: new Date(), gitStatus: gitStatusSummary(o.cwd), instructions, toolNames: o.toolNames, extra: [o.skillsPrompt] });
  const blocks: SystemBlock[] = opts.appendSystemPrompt ? [...built, { type: "text", text: opts.appendSystemPrompt }] : built;
  // A host's own system prompt has neither part.
  const ours = opts.systemPrompt === undefined;
  return {
    blocks,
    instructions: ours ? { text: instructions.map(instructionSection).join("\n\n"), files: instructions.map((i) => i.path) } : { text: "", files: [] },
    skills: ours ? o.skillsPrompt : "",
  };
}

/** /context's figures for this session: the request as the next turn would send it, and the last response's usage. */
function measureContext(o: {
  client: ModelClient;
  model: () => string;
  prompt: ReturnType<typeof systemPrompt>;
  offer: ReturnType<typeof turnOffer>;
  context: { messages(): Message[]; contextWindow(): number };
  bus: ReturnType<typeof createEventBus>;
  replayed: DurableEvent[];
}): (signal?: AbortSignal) => Promise<ContextUsage> {
  // The last response's usage: the figure where the API cannot count.
  let last: number | null = null;
  for (const e of o.replayed) if (e.type === "assistant_message") last = usageTotal(e.message.usage);
  o.bus.subscribe((e) => {
    if (e.type === "assistant_message") last = usageTotal(e.message.usage);
  });
  return (signal) => {
    const k = o.offer.kernel();
    return contextUsage({
      client: o.client,
      model: o.model(),
      system: o.prompt.blocks,
      instructions: o.prompt.instructions,
      skills: o.prompt.skills,
      tools: k.tools.specs(),
      serverTools: k.serverTools?.() ?? [],
      messages: o.context.messages(),
      window: o.context.contextWindow(),
      reserve: RESERVE_TOKENS,
      lastUsage: last,
      signal,
    });
  };
}

function usageTotal(u: { input_tokens: number; cache_read_input_tokens: number; cache_creation_input_tokens: number; output_tokens: number }): number {
  return u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;
}

/** --effort, else the settings' effortLevel; a model that takes no effort level is said once. */
function effortAtOpen(opts: SessionOptions, settings: { effortLevel?: EffortLevel }, model: string, notices: string[]): { effort?: EffortLevel } {
  const effort = opts.effort ?? settings.effortLevel;
  if (!effort) return {};
  if (effortFor(model, effort) === null) notices.push(`${model} takes no effort level: effort ${effort} is not sent to it (it applies if you switch to a model that takes one)`);
  return { effort };
}

/** --json-schema's tool and policy; a schema that does not compile stops the session before it opens. */
async function structuredOutputOf(opts: SessionOptions): Promise<StructuredOutput | null> {
  if (!opts.jsonSchema) return null;
  try {
    return await openStructuredOutput(opts.jsonSchema);
  } catch (e) {
    throw new SessionOpenError((e as Error).message, true);
  }
}

/** The MCP servers' tools and StructuredOutput after them, one array per MCP list (the runtime rebuilds on a new array). */
function withStructuredTool(mcpTools: () => Tool[], structured: StructuredOutput | null): () => Tool[] {
  if (!structured) return mcpTools;
  let from: Tool[] | null = null;
  let all: Tool[] = [];
  return () => {
    const now = mcpTools();
    if (now !== from) [from, all] = [now, [...now, structured.tool]];
    return all;
  };
}

/** A child's log, only from a `<session>.agents` folder in this log directory (the log names it; a tampered one reads nothing else). */
function readAgentLog(logDir: string, log: string): DurableEvent[] | null {
  const path = resolve(logDir, log);
  if (dirname(dirname(path)) !== logDir || !basename(dirname(path)).endsWith(".agents") || !path.endsWith(".jsonl")) return null;
  try {
    return readSessionLog(path).events;
  } catch {
    return null;
  }
}
