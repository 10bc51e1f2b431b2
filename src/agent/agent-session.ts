// The session service every mode stands on: one function that opens the parts and wires them to
// the kernel through the event bus, and the AgentSession each mode speaks. The parts:
// foundation.ts (settings, key, log, MCP, rules, snapshots, writer), session-record.ts (the log
// first, then the state that follows from it), hook-wiring.ts (hooks around the loop), turn.ts
// (one prompt to one result), settings-facet.ts (what the project's files would widen), and the
// trust facet below that answers for all of it at once.
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { buildSystemPrompt, gitStatusSummary, loadProjectInstructions } from "../context/system-prompt.ts";
import { createConversationContext } from "../context/conversation.ts";
import { createEventBus } from "../events/bus.ts";
import { newEventId as newId } from "../events/id.ts";
import type { PermissionMode } from "../events/types.ts";
import { openCommandTrust } from "../extensions/command-trust.ts";
import { loadSessionExtensions } from "../extensions/session-extensions.ts";
import { hookedGate, hookedRuntime, newHookTurn } from "../hooks/attach.ts";
import { openSessionHooks } from "../hooks/session-hooks.ts";
import type { SystemBlock } from "../model/types.ts";
import { settingsLocations, userConfigDir, type PermissionEngine } from "../permissions/index.ts";
import { redactText } from "../session/redact.ts";
import { pruneSpillDirs } from "../session/spill-retention.ts";
import { fitToBudget } from "../tools/output-budget.ts";
import { createToolRuntime } from "../tools/runtime.ts";
import { createWorkspace } from "../workspace/local.ts";
import { openFoundation } from "./foundation.ts";
import { createGate } from "./gate.ts";
import { notifyingAsker, wireHooks } from "./hook-wiring.ts";
import { restoreWorkspace, SessionOpenError } from "./open-log.ts";
import { recordSession } from "./session-record.ts";
import { openSettingsFacet } from "./settings-facet.ts";
import { prepareShutdown } from "./shutdown.ts";
import { trustFacet } from "./trust-facet.ts";
import { offeredTools, turnOffer } from "./offer.ts";
import { asAgent } from "./subagents/main-agent.ts";
import { sessionSubagents } from "./subagents/index.ts";
import { createTurnRunner, type WriteFailures } from "./turn.ts";
import type { AgentSession, SessionOptions } from "./types.ts";

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
  const hooks = openSessionHooks({
    cwd,
    files: settingsLocations(cwd, userConfigDir(homedir())),
    sessionId,
    transcriptPath: writer.path,
    permissionMode: () => engine.mode,
    emit: (e) => bus.emit(e),
    interactive: f.trustQuestion,
    // --trust-project covers every command the project's files define, hooks as MCP servers.
    trustProject: f.trustProject,
    ...(opts.hostHooks ? { host: opts.hostHooks } : {}),
    fit: (text, label) => fitToBudget(text, workspace.spill, label).text,
  });
  notices.push(...hooks.notices);
  const hookTurn = newHookTurn();
  const subagents = sessionSubagents({ f, opts, emit: (e) => bus.emit(e), hooks: hooks.service, costSinceOpen: () => state.costSinceOpen(), model: () => state.model() });
  const baseTools = createToolRuntime(subagents.offered, { searchGuard: (tool, dir) => engine.searchFilter(tool, dir), dynamic: () => mcp.manager.tools() });
  const tools = hookedRuntime(baseTools, hooks.service, cwd, hookTurn);
  // Resume contract: tools may be added between versions, never silently removed. (MCP tools come
  // and go with their servers, which are not connected yet.)
  const missing = (replayed?.toolNamesUsed ?? []).filter((t) => !t.startsWith("mcp__") && !tools.names().includes(t));
  if (missing.length > 0) notices.push(`this session used tools this version does not have (${missing.join(", ")}); calls to them will fail`);
  // First on the bus, so nothing is shown that is not on disk; the model's view follows the log.
  // (A new session nobody spoke in is not worth a place in the session list: `spoke` says.)
  const state = recordSession({ bus, writer, context: { apply: (e) => context.apply(e) }, engine, model: f.model, cost: replayed?.costUsd ?? 0, spoke: f.opened.writer !== null || (f.opened.seedEvents?.length ?? 0) > 0 });
  const context = createConversationContext({ model: state.model, client: f.client, costOf: f.provider.costOf, emit: bus.emit, events: replayed?.events ?? [] });
  // A resumed session started with other flags records the change, so replay sees it too.
  if (replayed && (state.model() !== replayed.model || engine.mode !== replayed.permissionMode)) {
    const change = { ...(state.model() !== replayed.model ? { model: state.model() } : {}), ...(engine.mode !== replayed.permissionMode ? { permissionMode: engine.mode } : {}) };
    bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), ...change });
  }
  const gate = hookedGate(createGate({ engine, workspace, emit: bus.emit, ask: notifyingAsker(hooks.service, opts.ask) }), hooks.service, cwd, bus.emit, hookTurn, baseTools);

  const extensions = loadSessionExtensions(cwd, homedir(), userConfigDir(homedir()));
  notices.push(...extensions.problems);
  const commandTrust = openCommandTrust({ cwd, items: extensions.trustItems, trustProject: f.trustProject, interactive: f.trustQuestion });
  notices.push(...commandTrust.notices);
  const modeAtOpen = engine.mode;
  const settingsFacet = openSettingsFacet({
    cwd,
    engine,
    trust: f.settingsTrust,
    projectModel: f.projectModel,
    trustQuestion: f.trustQuestion,
    // Trusted in the app's question: the project's mode and model, unless this run's flags chose.
    onTrusted: ({ mode, model: trusted }) => {
      const change = {
        ...(opts.permissionMode === undefined && engine.mode === modeAtOpen && mode && mode !== engine.mode ? { permissionMode: mode } : {}),
        ...(opts.model === undefined && !replayed && trusted && trusted !== state.model() ? { model: trusted } : {}),
      };
      if (Object.keys(change).length > 0) bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), ...change });
    },
  });
  notices.push(...settingsFacet.notices);
  const system = systemPrompt(opts, { cwd, engine, notices, toolNames: tools.names(), skillsPrompt: extensions.skillsPrompt });
  const wiring = await wireHooks({ service: hooks.service, hookTurn, bus, context, cwd, model: state.model, resumed: replayed !== null, opts, notices });

  const offer = turnOffer(
    { model: f.client, modelName: state.model, system: () => system, tools, workspace, context: wiring.context, gate, emit: bus.emit, policies: wiring.policies, takeNotices: () => workspace.processes.takeExitNotices(), takeAgentNotices: () => subagents.children.takeNotices(), costSoFar: subagents.spent },
    { engine, settings, opts, provider: f.provider },
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
    interactive: opts.ask !== undefined,
  });

  // Esc stops the parent and every child, those in the background too.
  const runCancelling = (input: Parameters<typeof turns.run>[0], signal: AbortSignal) => {
    const cancel = () => subagents.children.cancelAll(signal.reason);
    signal.addEventListener("abort", cancel, { once: true });
    return turns.run(input, signal).finally(() => signal.removeEventListener("abort", cancel));
  };
  const close = prepareShutdown({ children: subagents.children, sessionId, workspace, mcp: mcp.manager, hooks: hooks.service, writer, git, spillDir, ending: turns.ending, spoke: state.spoke });
  return {
    sessionId,
    cwd,
    toolNames: tools.names(),
    offeredTools: offer.offeredTools,
    mcp: mcp.view,
    replayed,
    notices,
    logPath: writer.path,
    subscribe: (listener) => bus.subscribe(listener),
    model: state.model,
    permissionMode: (): PermissionMode => engine.mode,
    costSoFar: state.cost,
    isEmpty: () => !state.spoke(),
    setModel: (name) => bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), model: name }),
    setThinkingBudget: offer.setThinkingBudget,
    setPermissionMode: (mode) => bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), permissionMode: mode }),
    queueSteering: offer.queueSteering,
    takeQueuedSteering: offer.takeQueuedSteering,
    runTurn: (input, signal) => runCancelling(input, signal),
    wake: async (signal) => (subagents.children.pending() > 0 ? runCancelling(null, signal) : null),
    agents: subagents.infos,
    subagents: subagents.children,
    snapshots: {
      off: () => git.unavailable,
      async undo() {
        if (git.unavailable) throw new Error(`/undo is off: ${git.unavailable}`);
        const r = await git.undo();
        if (r) bus.emit({ type: "undo", id: newId(), ts: Date.now(), snapshot: r.snapshot, restored: r.restored, removed: r.removed, skipped: r.skipped });
        return r;
      },
      diff: () => git.diff(),
    },
    compact: (instructions, signal) => wiring.context.compact("manual", signal, instructions),
    rules: { list: () => engine.rules(), remove: (entry) => engine.removeRule(entry) },
    slashCommands: () => extensions.entries(),
    hooks: () => hooks.listing(),
    trust: trustFacet(mcp.view, hooks, commandTrust, settingsFacet),
    processes: () => workspace.processes.list(),
    start: () => wiring.start(),
    close,
  };
}

/** KHAELOR's system prompt (or the host's), with the project's instructions the Read rules let the model read unasked. */
function systemPrompt(
  opts: SessionOptions,
  o: { cwd: string; engine: Pick<PermissionEngine, "decide">; notices: string[]; toolNames: string[]; skillsPrompt: string },
): SystemBlock[] {
  const instructions = loadProjectInstructions(o.cwd, {
    // The Read rules hold for instruction files too: a deny always, and a project file must be one
    // the model could read unasked (not a secret file behind a link).
    mayRead: (real, own) => {
      const d = o.engine.decide({ tool: "read", input: { file_path: real }, cwd: o.cwd });
      if (d.behavior === "deny" || (!own && d.behavior !== "allow")) return `reading it is not allowed unasked (${d.reason})`;
      return true;
    },
    onSkip: (path, why) => o.notices.push(`instruction file ${path} skipped: ${why}`),
  });
  const built: SystemBlock[] =
    opts.systemPrompt !== undefined
      ? [{ type: "text", text: opts.systemPrompt }]
      : buildSystemPrompt({ cwd: o.cwd, date: new Date(), gitStatus: gitStatusSummary(o.cwd), instructions, toolNames: o.toolNames, extra: [o.skillsPrompt] });
  return opts.appendSystemPrompt ? [...built, { type: "text", text: opts.appendSystemPrompt }] : built;
}
