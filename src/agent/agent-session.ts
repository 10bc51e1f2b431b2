// The composition root for one agent session, shared by print mode and the interactive app:
// it opens (or resumes) the session log, builds the workspace, tools, model client, context and
// permission gate, and wires them to the kernel through the event bus. No logic of its own.
import { existsSync, rmSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { buildSystemPrompt, gitStatusSummary, loadProjectInstructions } from "../context/system-prompt.ts";
import { createEventBus, type EventBus } from "../events/bus.ts";
import { newEventId as newId, newSessionId } from "../events/id.ts";
import { createPermissionEngine, splitRuleList, type Problem } from "../permissions/index.ts";
import { SessionWriteError, type SessionWriter } from "../session/log.ts";
import { explainFsError, isUserFsError } from "../workspace/fs-errors.ts";
import { metaPathOf, projectSessionsDir } from "../session/paths.ts";
import { createGitProtection } from "../workspace/git/index.ts";
import { isDurable, type AgentEvent, type PermissionMode } from "../events/types.ts";
import { runTurn } from "../kernel/loop.ts";
import type { LoopPolicy } from "../kernel/types.ts";
import { createAnthropicClient } from "../model/anthropic-client.ts";
import { costUsd, DEFAULT_MODEL, maxTokensFor } from "../model/models.ts";
import { webToolSpecs } from "../model/web-tools.ts";
import type { SystemBlock, UserBlock } from "../model/types.ts";
import { doomLoopPolicy } from "../policy/doom-loop.ts";
import { verifyOnStopPolicy } from "../policy/verify-on-stop.ts";
import { createConversationContext } from "../context/conversation.ts";
import { createSession } from "../session/store.ts";
import { builtinTools } from "../tools/builtin.ts";
import { createToolRuntime } from "../tools/runtime.ts";
import { fitToBudget } from "../tools/output-budget.ts";
import { createWorkspace } from "../workspace/local.ts";
import { redactText } from "../session/redact.ts";
import { pruneSpillDirs } from "../session/spill-retention.ts";
import { imagesDirOf } from "../session/image-store.ts";
import { findMarked, killMarkedSync, stopMarked } from "../workspace/marked-processes.ts";
import { markEntry, sessionMark, settleMarked, settleOrphans } from "../workspace/orphans.ts";
import { leftoverServers } from "../mcp/manager.ts";
import { openSessionMcp } from "../mcp/session-mcp.ts";
import { TOOL_SEARCH_TOOL, toolSearchOffer } from "../mcp/tool-search.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import { VERSION } from "../version.ts";
import { loadSettings } from "./config.ts";
import { homedir } from "node:os";
import { settingsLocations, userConfigDir } from "../permissions/index.ts";
import { hookedGate, hookedRuntime, hookStopPolicy, newHookTurn, resetHookTurn, stopHookPolicy } from "../hooks/attach.ts";
import { openSessionHooks } from "../hooks/session-hooks.ts";
import { loadSessionExtensions } from "../extensions/session-extensions.ts";
import { runCommandTools } from "../extensions/command-tools.ts";
import { openCommandTrust } from "../extensions/command-trust.ts";
import { openSettingsTrust } from "../trust/settings-trust.ts";
import { openSettingsFacet } from "./settings-facet.ts";
import { createGate } from "./gate.ts";
import { openLog, restoreWorkspace, SessionOpenError } from "./open-log.ts";
import type { AgentSession, AgentTurnResult, SessionEndReason, SessionOptions } from "./types.ts";

export { SessionOpenError };

function writeFailureMessage(e: SessionWriteError, interactive: boolean): string {
  const todo = interactive
    ? "Free some space and send your message again: what is waiting is saved then."
    : "Free some space, then continue with khaelor --continue.";
  return `${e.message}. KHAELOR stopped so no more work goes unrecorded. ${todo}`;
}

/** The built-in tools a host asked for (Claude Code's names work: Bash, Read); names we lack are said. */
function offeredTools(names: string[] | undefined, notices: string[]) {
  const all = builtinTools();
  if (names === undefined) return all;
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  const unknown = names.filter((n) => !all.some((t) => t.name === n.toLowerCase()) && !SERVER_TOOL_NAMES[n.toLowerCase()]);
  if (unknown.length > 0) notices.push(`--tools: KHAELOR has no tool ${unknown.join(", ")}; offering ${all.filter((t) => wanted.has(t.name)).map((t) => t.name).join(", ") || "no tools"}`);
  return all.filter((t) => wanted.has(t.name));
}

/** The API's web tools by the names --tools uses for them (Claude Code's WebSearch, WebFetch). */
const SERVER_TOOL_NAMES: Record<string, string> = { websearch: "web_search", webfetch: "web_fetch" };

function offeredServerTool(names: string[] | undefined, apiName: string): boolean {
  return names === undefined || names.some((n) => SERVER_TOOL_NAMES[n.toLowerCase()] === apiName);
}

function formatProblem(p: Problem): string {
  return `${p.file}${p.position ? ` ${p.position}` : ""}: ${p.message}`;
}

export async function openAgentSession(opts: SessionOptions): Promise<AgentSession> {
  const cwd = resolve(opts.cwd ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory()) throw new SessionOpenError(`--cwd ${cwd} is not a directory`);
  const { settings, problems, projectModel } = loadSettings(cwd);
  // What the project's own files widen (allow rules, a mode that asks less, a model) holds only
  // where the user trusted it; --trust-project trusts it for this run.
  const trustProject = opts.mcp?.trustProject ?? false;
  const trustQuestion = opts.trustQuestion === true;
  const settingsTrust = openSettingsTrust({ cwd, trustProject });
  const trustedProjectModel = projectModel && settingsTrust.widens({ key: "model", model: projectModel.model, file: projectModel.file }) ? projectModel.model : undefined;
  /** Things the user should read before the session starts (print mode: stderr; the app: shown). */
  const notices: string[] = [...problems];

  // Checked before anything is written, so a missing key leaves no empty session behind.
  const apiKey = opts.api?.apiKey ?? (process.env.ANTHROPIC_API_KEY || settings.apiKey);
  if (!apiKey && !process.env.ANTHROPIC_AUTH_TOKEN)
    throw new SessionOpenError(
      ["ANTHROPIC_API_KEY is not set: export it (or ANTHROPIC_AUTH_TOKEN, or set apiKey in ~/.config/khaelor/settings.json), or try `khaelor --demo`", ...problems.filter((p) => p.includes("apiKey is ignored"))].join("\n"),
    );
  // Without a key the client falls back to ANTHROPIC_AUTH_TOKEN (a bearer token).
  const client = createAnthropicClient({ apiKey, baseURL: opts.api?.baseURL ?? (process.env.ANTHROPIC_BASE_URL || undefined) });

  // Open the log first: resuming decides the model and the permission mode.
  const opened = openLog(opts, cwd, notices, (e) => onWriteError(e));
  const replayed = opened.replayed;
  let model = opts.model ?? replayed?.model ?? trustedProjectModel ?? settings.model ?? DEFAULT_MODEL;
  const sessionId = opened.writer?.sessionId ?? opts.sessionId ?? newSessionId();
  // The log is the truth: when it cannot be written (a full disk), the turn stops at once with
  // that error instead of going on with work that would not survive a restart.
  let writeFailure: SessionWriteError | null = null;
  let stopTurn: (() => void) | null = null;
  /** The last turn's end snapshot, still on git's queue: /undo, /diff and the next turn wait behind it there; close() waits for it. */
  let endingTurn: Promise<unknown> = Promise.resolve();
  const onWriteError = (e: SessionWriteError) => {
    writeFailure ??= e;
    stopTurn?.();
  };
  const shadowDir = join(projectSessionsDir(cwd), "shadow");
  // The rules engine (grammar load) and the first work-tree snapshot are independent: overlap them.
  // The mode comes from this run's flags or settings, never silently from the resumed session:
  // a session once run with bypassPermissions must not stay in it.
  // MCP servers start now, in parallel with everything below; only the first request waits for
  // them, and no longer than the startup timeout.
  const logDir = opened.writer ? dirname(opened.writer.path) : projectSessionsDir(cwd);
  const mcpPidFile = join(logDir, `${sessionId}.mcp-pids.json`);
  const leftover = opened.writer ? leftoverServers(mcpPidFile) : [];
  const serverEnv: Record<string, string> = { ...(process.env as Record<string, string>), ...sessionMark(sessionId) };
  const mcp = openSessionMcp({
    projectRoot: cwd,
    cliConfigs: opts.mcp?.configs ?? [],
    strict: opts.mcp?.strict ?? false,
    trustProject,
    ...(opts.mcp?.hostServers ? { hostServers: opts.mcp.hostServers } : {}),
    interactive: trustQuestion,
    env: process.env,
    serverEnv,
    pidFile: mcpPidFile,
  });
  notices.push(...mcp.notices);
  const [engine, git, orphanNotices] = await Promise.all([
    createPermissionEngine({ projectRoot: cwd, mode: opts.permissionMode, cliAllow: opts.allowedTools ?? [], cliDeny: opts.disallowedTools ?? [], projectSettings: settingsTrust }),
    createGitProtection({ projectRoot: cwd, dataDir: shadowDir, sessionId, resume: opened.writer !== null }),
    // On resume, then, whatever else still carries the mark: an interrupted bash command a kill -9
    // left running, a daemon it started (no KHAELOR holds this session, so none is managed).
    settleOrphans([...opened.lostProcesses, ...leftover], sessionId).then(async (lines) => (opened.writer ? [...lines, ...(await settleMarked(sessionId))] : lines)),
  ]).catch(async (e: unknown) => {
    opened.writer?.close();
    await mcp.manager.close();
    throw e;
  });
  // A rule typed on the command line that does not parse is a usage error: silently dropping a
  // --disallowedTools rule would let through what the user meant to forbid.
  const cliProblems = engine.problems().filter((p) => p.file.startsWith("--"));
  if (cliProblems.length > 0) {
    opened.writer?.close();
    await mcp.manager.close();
    throw new SessionOpenError(cliProblems.map(formatProblem).join("\n"), true);
  }
  // Print mode has nobody to ask: a deny or ask rule that could not be read stops it before anything
  // runs (exit 2), as the README promises, instead of letting through what the rule may deny.
  const broken = engine.problems().filter((p) => p.failClosed);
  if (broken.length > 0 && opts.ask === undefined) {
    opened.writer?.close();
    throw new SessionOpenError(`${broken.map(formatProblem).join("\n")}\nstopped: a permission rule that cannot be read might deny what this run would do; fix it and run again`, true);
  }
  notices.push(...orphanNotices, ...engine.problems().map(formatProblem));
  if (replayed && replayed.permissionMode !== engine.mode)
    notices.push(`this session last ran in ${replayed.permissionMode} mode; it now runs in ${engine.mode} mode (pass --permission-mode ${replayed.permissionMode} to keep it)`);
  for (const g of replayed?.grants ?? []) if (g.decision === "allow") for (const rule of splitRuleList([g.rule])) engine.grant(rule, "session");
  if (git.unavailable) notices.push(`/undo and /diff are off: ${git.unavailable}`);
  let writer: SessionWriter;
  try {
    writer =
      opened.writer ??
      createSession({ sessionId, cwd, model, permissionMode: engine.mode, khaelorVersion: VERSION, git: git.baseline, forkedFrom: opened.forkedFrom, seed: opened.seedEvents, onError: onWriteError });
  } catch (e) {
    await mcp.manager.close();
    if (e instanceof SessionWriteError) throw new SessionOpenError(explainFsError(e.cause, e.path, "the session log"));
    if (!isUserFsError(e)) throw e;
    throw new SessionOpenError(explainFsError(e, projectSessionsDir(cwd), "the session directory"));
  }

  const spillDir = join(dirname(writer.path), `${sessionId}.spill`);
  pruneSpillDirs(dirname(writer.path));
  const workspace = createWorkspace({ root: cwd, spillDir, sessionId, redact: redactText, files: opts.files, terminal: opts.terminal });
  workspace.onFileChanged = (abs, before) => git.adopt(abs, before);
  if (replayed) restoreWorkspace(workspace, replayed.events);
  const bus: EventBus = createEventBus();
  const hooks = openSessionHooks({
    cwd,
    files: settingsLocations(cwd, userConfigDir(homedir())),
    sessionId,
    transcriptPath: writer.path,
    permissionMode: () => engine.mode,
    emit: (e) => bus.emit(e),
    interactive: trustQuestion,
    // --trust-project covers every command the project's files define, hooks as MCP servers.
    trustProject,
    ...(opts.hostHooks ? { host: opts.hostHooks } : {}),
    fit: (text, label) => fitToBudget(text, workspace.spill, label).text,
  });
  notices.push(...hooks.notices);
  const hookTurn = newHookTurn();
  const baseTools = createToolRuntime(offeredTools(opts.tools, notices), { searchGuard: (tool, dir) => engine.searchFilter(tool, dir), dynamic: () => mcp.manager.tools() });
  const tools = hookedRuntime(
    baseTools,
    hooks.service,
    cwd,
    hookTurn,
  );
  // Resume contract: tools may be added between versions, never silently removed. (MCP tools come
  // and go with their servers, which are not connected yet.)
  const missing = (replayed?.toolNamesUsed ?? []).filter((t) => !t.startsWith("mcp__") && !tools.names().includes(t));
  if (missing.length > 0) notices.push(`this session used tools this version does not have (${missing.join(", ")}); calls to them will fail`);
  const context = createConversationContext({ model: () => model, client, emit: bus.emit, events: replayed?.events ?? [] });

  let cost = replayed?.costUsd ?? 0;
  // --max-budget-usd limits what this run spends, not what earlier runs of the session spent.
  const costAtOpen = cost;
  // A new session nobody spoke in is not worth a place in the session list: it goes when closed.
  let spoke = opened.writer !== null || (opened.seedEvents?.length ?? 0) > 0;
  // The log hears every event first, so nothing is shown that is not on disk.
  // A turn whose own message could not be saved is given up whole: none of it goes to the log
  // or the model, and the app gives the message back to be sent again.
  let discardingTurn = false;
  bus.subscribe((e: AgentEvent) => {
    if (e.type === "user_message") spoke = true;
    if (isDurable(e) && !discardingTurn) {
      const failedBefore = writer.failure !== null;
      writer.append(e);
      if (!failedBefore && writer.failure && e.type === "user_message" && !e.steering && !e.synthetic) {
        writer.discardPending();
        discardingTurn = true;
        return;
      }
      context.apply(e);
      if ((e.type === "assistant_message" || e.type === "compaction") && e.costUsd) cost += e.costUsd;
      if (e.type === "setting_change") {
        if (e.model) model = e.model;
        if (e.permissionMode) engine.setMode(e.permissionMode);
      }
    }
  });
  // A resumed session started with other flags records the change, so replay sees it too.
  if (replayed && (model !== replayed.model || engine.mode !== replayed.permissionMode)) {
    const change = { ...(model !== replayed.model ? { model } : {}), ...(engine.mode !== replayed.permissionMode ? { permissionMode: engine.mode } : {}) };
    bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), ...change });
  }

  // Notification: a hook hears that the user is asked (a desktop notifier), without waiting for it.
  const ask: typeof opts.ask = opts.ask
    ? (req, signal) => {
        void hooks.service.run("Notification", "permission_prompt", { message: `KHAELOR needs your permission to use ${req.call.name}`, notification_type: "permission_prompt" }, signal);
        return opts.ask!(req, signal);
      }
    : undefined;
  const gate = hookedGate(createGate({ engine, workspace, emit: bus.emit, ask }), hooks.service, cwd, bus.emit, hookTurn, baseTools);

  const extensions = loadSessionExtensions(cwd, homedir(), userConfigDir(homedir()));
  notices.push(...extensions.problems);
  const commandTrust = openCommandTrust({ cwd, items: extensions.trustItems, trustProject, interactive: trustQuestion });
  notices.push(...commandTrust.notices);
  const modeAtOpen = engine.mode;
  const settingsFacet = openSettingsFacet({
    cwd,
    engine,
    trust: settingsTrust,
    projectModel,
    trustQuestion,
    // Trusted in the app's question: the project's mode and model, unless this run's flags chose.
    onTrusted: ({ mode, model: trusted }) => {
      const change = {
        ...(opts.permissionMode === undefined && engine.mode === modeAtOpen && mode && mode !== engine.mode ? { permissionMode: mode } : {}),
        ...(opts.model === undefined && !replayed && trusted && trusted !== model ? { model: trusted } : {}),
      };
      if (Object.keys(change).length > 0) bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), ...change });
    },
  });
  notices.push(...settingsFacet.notices);
  const instructions = loadProjectInstructions(cwd, {
    // The Read rules hold for instruction files too: a deny always, and a project file must be one
    // the model could read unasked (not a secret file behind a link).
    mayRead: (real, own) => {
      const d = engine.decide({ tool: "read", input: { file_path: real }, cwd });
      if (d.behavior === "deny" || (!own && d.behavior !== "allow")) return `reading it is not allowed unasked (${d.reason})`;
      return true;
    },
    onSkip: (path, why) => notices.push(`instruction file ${path} skipped: ${why}`),
  });
  const gitStatus = gitStatusSummary(cwd);
  const built: SystemBlock[] =
    opts.systemPrompt !== undefined
      ? [{ type: "text", text: opts.systemPrompt }]
      : buildSystemPrompt({ cwd, date: new Date(), gitStatus, instructions, toolNames: tools.names(), extra: [extensions.skillsPrompt] });
  const system: SystemBlock[] = opts.appendSystemPrompt ? [...built, { type: "text", text: opts.appendSystemPrompt }] : built;
  const steering: string[] = [];
  // A hook's continue:false is asked first: a turn it stopped sends nobody back to work.
  const policies: LoopPolicy[] = [hookStopPolicy(hookTurn)];
  if (opts.verifyNudge ?? true) policies.push(verifyOnStopPolicy(cwd));
  if (opts.doomLoop ?? true) policies.push(doomLoopPolicy());
  // Stop hooks are asked after the built-in verification: when it sends the model back, they wait for the next stop.
  let turnSignal: AbortSignal = new AbortController().signal;
  // Stop hooks read the answer they judge (Claude Code's last_assistant_message).
  let lastAnswer = "";
  bus.subscribe((e) => {
    if (e.type === "assistant_message") lastAnswer = e.message.content.map((b) => (b.type === "text" ? b.text : "")).join("");
  });
  policies.push(stopHookPolicy(hooks.service, () => turnSignal, () => lastAnswer));
  // PreCompact hears every compaction, the kernel's automatic ones too.
  const compactWithHooks = async (trigger: "auto" | "manual" | "overflow", signal?: AbortSignal, instructionsText?: string): Promise<boolean> => {
    await hooks.service.run("PreCompact", trigger === "manual" ? "manual" : "auto", { trigger: trigger === "manual" ? "manual" : "auto", custom_instructions: instructionsText ?? "" }, signal ?? turnSignal);
    const done = await context.compact(trigger, signal, instructionsText);
    // As in Claude Code, the session starts again from the summary: SessionStart hears "compact",
    // and what it prints goes to the model with the next prompt, as at startup.
    if (done && hooks.service.has("SessionStart")) startContext.push(...(await hooks.service.run("SessionStart", "compact", { source: "compact", model }, signal ?? turnSignal)).context);
    return done;
  };
  const hookedContext = { messages: () => context.messages(), needsCompaction: () => context.needsCompaction(), compact: compactWithHooks };
  // SessionStart's output is context for the model's first turn.
  const startContext: string[] = opts.deferStart ? [] : await collectStart();
  let started = !opts.deferStart;
  async function collectStart(): Promise<string[]> {
    if (!hooks.service.has("SessionStart")) return [];
    const said = bus.subscribe((e) => {
      if (e.type === "hook_end" && e.message) notices.push(e.message);
    });
    const source = replayed ? "resume" : (opts.startSource ?? "startup");
    const o = await hooks.service.run("SessionStart", source, { source, model }, new AbortController().signal);
    said();
    return o.context;
  }

  // Many MCP tools go behind the API's tool search instead of into every request whole.
  const mcpOffer = toolSearchOffer(() => tools.specs());
  // Asked per request: a rule granted or removed, or a mode switched, applies to the next one;
  // with many MCP tools, the API's tool search joins them.
  const serverTools = () => [...webToolSpecs(engine.rules(), engine.mode, settings).filter((t) => offeredServerTool(opts.tools, t.name)), ...(mcpOffer().search ? [TOOL_SEARCH_TOOL] : [])];
  let thinkingBudget = opts.thinkingBudget;
  const kernelDeps = () => ({
    model: client,
    modelName: () => model,
    system: (): SystemBlock[] => system,
    // the runtime, its specs as offered (MCP tools deferred behind tool search past the budget)
    tools: { ...tools, specs: () => mcpOffer().tools },
    serverTools,
    workspace,
    context: hookedContext,
    gate,
    emit: bus.emit,
    policies,
    budgets: opts.budgets ?? {},
    takeSteering: () => steering.splice(0),
    takeNotices: () => workspace.processes.takeExitNotices(),
    costSoFar: () => cost - costAtOpen,
    costOf: costUsd,
    maxTokens: maxTokensFor(model),
    thinkingBudget,
  });

  // A crash or a plain process.exit must not leave the model's processes running.
  // …nor what left their groups (setsid, double forks): anything still carrying the session's mark.
  const mark = markEntry(sessionId);
  const killOnExit = () => {
    workspace.processes.killAllSync();
    mcp.manager.killSync();
    killMarkedSync(mark);
  };
  process.on("exit", killOnExit);
  let closed = false;
  return {
    sessionId,
    cwd,
    toolNames: tools.names(),
    offeredTools: () => [...mcpOffer().tools.map((t) => t.name), ...serverTools().map((t) => t.name)],
    mcp: mcp.view,
    replayed,
    notices,
    logPath: writer.path,
    subscribe: (listener) => bus.subscribe(listener),
    model: () => model,
    permissionMode: (): PermissionMode => engine.mode,
    costSoFar: () => cost,
    isEmpty: () => !spoke,
    setModel(name: string) {
      bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), model: name });
    },
    setThinkingBudget(tokens: number | null) {
      thinkingBudget = tokens ?? undefined;
    },
    setPermissionMode(mode: PermissionMode) {
      bus.emit({ type: "setting_change", id: newId(), ts: Date.now(), permissionMode: mode });
    },
    queueSteering(text: string) {
      steering.push(text);
    },
    takeQueuedSteering(): string[] {
      return steering.splice(0);
    },
    async runTurn(input: string | UserBlock[], signal: AbortSignal): Promise<AgentTurnResult> {
      const unsaved = (e: SessionWriteError, keepInput: boolean): AgentTurnResult => {
        const message = writeFailureMessage(e, opts.ask !== undefined);
        return { reason: "error", message, notSaved: message, keepInput, steps: 0, lastText: "" };
      };
      // Events held back by a failed write go first; if they still cannot be written, this message waits too.
      if (writeFailure) {
        if (!writer.retry()) return unsaved(writer.failure ?? writeFailure, true);
        writeFailure = null;
      }
      const turn = new AbortController();
      const follow = () => turn.abort(signal.reason);
      signal.addEventListener("abort", follow, { once: true });
      stopTurn = follow;
      try {
        // The first request waits for the MCP servers, at most until their startup deadline.
        await Promise.all([git.beginTurn(), mcp.manager.ready()]);
      } catch (e) {
        stopTurn = null;
        signal.removeEventListener("abort", follow);
        // No undo point, no turn: on a full disk the log would be the next thing to fail.
        const message = `${explainFsError(e, shadowDir, "the /undo snapshot in", "Free some space and send your message again.")}`;
        return { reason: "error", message, notSaved: message, keepInput: true, steps: 0, lastText: "" };
      }
      turnSignal = turn.signal;
      resetHookTurn(hookTurn);
      // A custom command or skill becomes its prompt; its model and allowed-tools last this turn only.
      const typed = typeof input === "string" ? input : input.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
      // Found in the text: a command sent with images (pasted beside it) is still the command.
      const expanded = extensions.find(typed);
      // A project command grants only in a trusted project: never its own !`cmd` lines in a fresh clone.
      const turnGrants = expanded && commandTrust.grants(expanded.trust) ? expanded.allowedTools.filter((rule) => !engine.rules().some((r) => r.rule === rule && r.behavior === "allow" && r.scope === "session")) : [];
      for (const rule of turnGrants) engine.grant(rule, "session");
      const modelBefore = model;
      if (expanded?.model) model = expanded.model;
      const endExpanded = () => {
        for (const rule of turnGrants) engine.removeRule({ rule, behavior: "allow", scope: "session" });
        if (expanded?.model) model = modelBefore;
      };
      // After the grants: a (trusted) command's allowed-tools are what let its !`cmd` lines run.
      let prompt: string | UserBlock[] = input;
      try {
        if (expanded) {
          const body = await expanded.expand(runCommandTools({ tools, gate, workspace, cwd, signal: turn.signal }));
          // The images go with the command's prompt, where the text they came with went.
          const images = typeof input === "string" ? [] : input.filter((b) => b.type !== "text");
          prompt = images.length === 0 ? body : [...images, ...(typeof body === "string" ? [{ type: "text" as const, text: body }] : body)];
        }
      } catch (e) {
        endExpanded();
        throw e;
      }
      const endUnsent = async (r: AgentTurnResult): Promise<AgentTurnResult> => {
        endExpanded();
        stopTurn = null;
        signal.removeEventListener("abort", follow);
        await git.endTurn().catch(() => {});
        return r;
      };
      // A hook on one of the command's own lines said continue:false: the prompt is not sent.
      if (hookTurn.reason !== null) return endUnsent({ reason: "hook_stopped", message: `A hook stopped this command: ${hookTurn.reason}`, steps: 0, lastText: "" });
      let content: string | UserBlock[] = prompt;
      if (hooks.service.has("UserPromptSubmit")) {
        const o = await hooks.service.run("UserPromptSubmit", undefined, { prompt: typed }, turn.signal);
        if (o.stop) return endUnsent({ reason: "hook_stopped", message: `A UserPromptSubmit hook stopped this prompt: ${o.stop}`, steps: 0, lastText: "" });
        if (o.block) return endUnsent({ reason: "error", message: `A UserPromptSubmit hook blocked this prompt: ${o.block}`, keepInput: true, steps: 0, lastText: "" });
        if (o.context.length > 0) content = withContext(prompt, "UserPromptSubmit", o.context);
      }
      if (startContext.length > 0) content = withContext(content, "SessionStart", startContext.splice(0));
      try {
        const r = await runTurn(kernelDeps(), content, turn.signal);
        if (!writeFailure) return r;
        return { ...unsaved(writeFailure, discardingTurn), steps: r.steps, lastText: r.lastText };
      } finally {
        endExpanded();
        discardingTurn = false;
        stopTurn = null;
        signal.removeEventListener("abort", follow);
        // Not awaited: the answer's end shows without waiting for git (17-76 ms measured at the end
        // of a turn over a slow link, seconds in a big repository).
        endingTurn = git.endTurn().catch((e: unknown) => {
          bus.emit({ type: "error", id: newId(), ts: Date.now(), kind: "snapshot", message: `/undo will not cover this turn: ${explainFsError(e, shadowDir, "its snapshot in")}` });
        });
      }
    },
    snapshotsOff: () => git.unavailable,
    async undo() {
      if (git.unavailable) throw new Error(`/undo is off: ${git.unavailable}`);
      const r = await git.undo();
      if (r) bus.emit({ type: "undo", id: newId(), ts: Date.now(), snapshot: r.snapshot, restored: r.restored, removed: r.removed, skipped: r.skipped });
      return r;
    },
    diff: () => git.diff(),
    async compact(instructionsText: string | undefined, signal: AbortSignal): Promise<boolean> {
      return compactWithHooks("manual", signal, instructionsText);
    },
    rules: () => engine.rules(),
    removeRule: (entry) => engine.removeRule(entry),
    slashCommands: () => extensions.entries(),
    hooks: () => hooks.listing(),
    trust: {
      pending: () => [...mcp.view.pendingTrust(), ...hooks.unasked, ...commandTrust.pending(), ...settingsFacet.pending()],
      async answer(answer) {
        const servers = mcp.view.pendingTrust().map((i) => i.name);
        hooks.answer([...hooks.unasked], answer);
        commandTrust.answer(answer);
        settingsFacet.answer(answer);
        if (servers.length > 0) await mcp.view.answerTrust(answer, servers);
      },
      heldSettings: () => settingsFacet.held(),
      trustSettings: () => settingsFacet.trustHeld(),
    },
    processes: () => workspace.processes.list(),
    async start() {
      if (started) return;
      started = true;
      startContext.push(...(await collectStart()));
    },
    async close(reason: SessionEndReason = "other") {
      if (closed) return;
      closed = true;
      // The last turn's snapshot first: a SessionEnd hook that edits files must not land in it.
      await endingTurn;
      if (hooks.service.has("SessionEnd")) await hooks.service.run("SessionEnd", reason, { reason }, new AbortController().signal);
      await Promise.all([workspace.processes.stopAll(), mcp.manager.close()]);
      await stopMarked(findMarked(mark) ?? []);
      process.off("exit", killOnExit);
      writer.close();
      if (!spoke) {
        rmSync(writer.path, { force: true });
        rmSync(metaPathOf(writer.path), { force: true });
        rmSync(spillDir, { recursive: true, force: true });
        rmSync(imagesDirOf(writer.path), { recursive: true, force: true });
        git.forget();
      }
    },
  };
}

/** The user's message with a hook's context after it, as a block the model reads as context. */
function withContext(input: string | UserBlock[], event: string, context: string[]): UserBlock[] {
  const blocks: UserBlock[] = typeof input === "string" ? [{ type: "text", text: input }] : input;
  return [...blocks, { type: "text", text: `<system-reminder>\n${event} hook additional context:\n${context.join("\n")}\n</system-reminder>` }];
}
