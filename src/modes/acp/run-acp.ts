// `khaelor acp`: the Agent Client Protocol on stdio, for editors (Zed, JetBrains, Neovim, Emacs).
// Each ACP session is a normal KHAELOR session (listed by `khaelor sessions`, resumable with
// --resume, crash-safe), opened through the same session service as every other mode; this file
// only speaks the protocol: requests in, session/update notifications and permission asks out.
import * as acp from "@agentclientprotocol/sdk";
import type { AgentContext, SessionModeState, SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import type { PermissionMode } from "../../events/types.ts";
import type { RunOptions } from "../shared/run-options.ts";
import { openAgentSession, SessionOpenError } from "../../agent/agent-session.ts";
import type { AgentSession, Asker } from "../../agent/types.ts";
import { sessionOptions } from "../shared/session-options.ts";
import { listSessions } from "../../session/store.ts";
import { VERSION } from "../../version.ts";
import { SUGGESTED_MODELS } from "../../model/models.ts";
import { hostCommands } from "../../extensions/host-commands.ts";
import { editorFiles, editorTerminal, terminalShown } from "./editor-services.ts";
import { editorMcpConfig } from "./mcp-servers.ts";
import { promptContent } from "./prompt-content.ts";
import { invisiblesNote, preparedDiff, readText, toolKind, toolLocations, type ReadView } from "./tool-view.ts";
import { createLiveUpdates, replayUpdates } from "./updates.ts";
import { serveStdio } from "./stdio-stream.ts";

const MODES: Array<{ id: PermissionMode; name: string; description: string }> = [
  { id: "default", name: "Default", description: "Ask before edits, commands and anything outside the project" },
  { id: "acceptEdits", name: "Accept edits", description: "Edit files in the project without asking; ask before commands" },
  { id: "plan", name: "Plan", description: "Read and plan only: nothing is changed or run" },
  { id: "bypassPermissions", name: "Bypass permissions", description: "Run everything without asking (deny rules and the hardline floor still hold)" },
];

/** /compact, then the user's and the project's custom commands and skills (session/prompt "/name args" runs one). */
const availableCommands = (s: AgentSession): acp.AvailableCommand[] =>
  hostCommands(s.slashCommands()).map((c) => ({ name: c.name, description: c.description, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}) }));

/** The model as a session config option (an editor's model picker): the suggested models and the one in use. */
const configOptions = (s: AgentSession): acp.SessionConfigOption[] => {
  const models = [...new Set([s.model(), ...SUGGESTED_MODELS])];
  return [{ id: "model", name: "Model", category: "model", type: "select", currentValue: s.model(), options: models.map((m) => ({ value: m, name: m })) }];
};

type Live = {
  session: AgentSession;
  turn: AbortController | null;
  running: Promise<unknown> | null;
};

export async function runAcp(opts: RunOptions): Promise<number> {
  const log = (s: string) => void process.stderr.write(`khaelor acp: ${s}\n`);
  const sessions = new Map<string, Live>();
  let peer: AgentContext | null = null;
  let editorFs = false;
  let editorTerm = false;
  let editorNotices = false;

  const notify = (sessionId: string, update: SessionUpdate) => {
    peer?.notify("session/update", { sessionId, update }).catch(() => {
      // The client is gone; the session log has everything.
    });
  };
  const modes = (s: AgentSession): SessionModeState => ({ currentModeId: s.permissionMode(), availableModes: MODES });
  const live = (sessionId: string): Live => {
    const l = sessions.get(sessionId);
    if (!l) throw acp.RequestError.sessionNotFound(sessionId);
    return l;
  };

  /** Opens (or, with `resume`, loads) a session in `cwd` and routes its events to the client. */
  const open = async (cwd: string, resume: string | null, mcpServers: acp.McpServer[]) => {
    let sessionId = "";
    let s: AgentSession | null = null;
    // The editor's text of each file last read or written through it (see editorFiles).
    const buffers = new Map<string, string>();
    const read: ReadView = (abs) => buffers.get(abs) ?? readText(abs);
    const updates = createLiveUpdates({ root: cwd, costSoFar: () => s?.costSoFar() ?? 0, read });
    const ask: Asker = async (req, signal) => {
      if (!peer) return { allow: false };
      const input = (req.call.input ?? {}) as Record<string, unknown>;
      const diff = preparedDiff(req.call.name, input, updates.cwd(), cwd, req.preview, read);
      // The editor may draw a bidi control or a zero-width space as nothing: say they are there.
      const hidden = invisiblesNote(input, req.preview);
      const content: acp.ToolCallContent[] = [...(hidden ? [{ type: "content" as const, content: { type: "text" as const, text: hidden.text } }] : []), ...(diff ? [diff] : [])];
      const options: acp.PermissionOption[] = [
        { optionId: "allow_once", name: "Allow once", kind: "allow_once" },
        ...(req.suggestion ? [{ optionId: "allow_always", name: `Always allow ${req.suggestion.rules.join(", ")}`, kind: "allow_always" as const }] : []),
        { optionId: "reject_once", name: "Reject", kind: "reject_once" },
      ];
      try {
        const res = await peer.request(
          "session/request_permission",
          {
            sessionId,
            toolCall: {
              toolCallId: req.call.id,
              title: hidden ? `${req.summary} · ⚠ ${hidden.total} invisible character${hidden.total === 1 ? "" : "s"}` : req.summary,
              kind: toolKind(req.call.name),
              status: "pending",
              rawInput: input,
              locations: toolLocations(req.call.name, input, updates.cwd()),
              ...(content.length > 0 ? { content } : {}),
            },
            options,
          },
          { cancellationSignal: signal },
        );
        if (res.outcome.outcome !== "selected") return { allow: false };
        if (res.outcome.optionId === "allow_once") return { allow: true };
        // The rule the app's "always" offers, saved where the app's `a` saves it (the project's local settings).
        if (res.outcome.optionId === "allow_always") return { allow: true, always: { scope: "local" } };
        return { allow: false };
      } catch {
        return { allow: false };
      }
    };
    const files = editorFs ? editorFiles(() => peer, () => sessionId, buffers) : undefined;
    const terminal = editorTerm
      ? editorTerminal(
          () => peer,
          () => sessionId,
          (toolUseId, terminalId) => {
            updates.attachTerminal(toolUseId, terminalId);
            notify(sessionId, terminalShown(toolUseId, terminalId));
          },
        )
      : undefined;
    const base = sessionOptions({ ...opts, cwd, resume, continue: false, forkSession: false });
    const editorMcp = editorMcpConfig(mcpServers);
    const mcp = editorMcp ? { ...base.mcp, configs: [...(base.mcp?.configs ?? []), editorMcp] } : base.mcp;
    const opened = await openAgentSession({ ...base, ...(mcp ? { mcp } : {}), ask, ...(files ? { files } : {}), ...(terminal ? { terminal } : {}) });
    s = opened;
    sessionId = opened.sessionId;
    // What the user should read before the first prompt goes to the editor when it can show it.
    if (!editorNotices) for (const n of opened.notices) log(n);
    return { s: opened, updates };
  };

  const attach = ({ s, updates }: Awaited<ReturnType<typeof open>>) => {
    s.subscribe((e) => {
      for (const u of updates.translate(e)) notify(s.sessionId, u);
      // The model changed (the editor's picker, or resuming with another): the picker shows it.
      if (e.type === "setting_change" && e.model) notify(s.sessionId, { sessionUpdate: "config_option_update", configOptions: configOptions(s) });
    });
    sessions.set(s.sessionId, { session: s, turn: null, running: null });
    // After the response, so the client knows the session the commands belong to.
    setImmediate(() => {
      notify(s.sessionId, { sessionUpdate: "available_commands_update", availableCommands: availableCommands(s) });
      if (editorNotices) for (const n of s.notices) notify(s.sessionId, { sessionUpdate: "notice", severity: "warning", title: n });
    });
  };

  /** An existing session by id: a missing one is sessionNotFound; one open here already is refused. */
  const openExisting = async (sessionId: string, cwd: string, mcpServers: acp.McpServer[]) => {
    if (sessions.has(sessionId)) throw acp.RequestError.invalidRequest(undefined, `session ${sessionId} is already open on this connection`);
    try {
      return await open(cwd, sessionId, mcpServers);
    } catch (e) {
      if (e instanceof SessionOpenError && /no session|not found/i.test(e.message)) throw acp.RequestError.sessionNotFound(sessionId);
      return openError(e);
    }
  };

  const openError = (e: unknown): never => {
    // No key: the editor can show its sign-in advice; the message says what to set.
    if (e instanceof SessionOpenError && /ANTHROPIC_API_KEY/.test(e.message)) throw acp.RequestError.authRequired(undefined, e.message);
    if (e instanceof SessionOpenError) throw acp.RequestError.invalidParams(undefined, e.message);
    throw e;
  };

  const app = acp
    .agent({ name: "khaelor" })
    .onRequest("initialize", ({ client, params }) => {
      peer = client;
      // Both or neither: a stale-write check needs the writes to go where the reads came from.
      editorFs = !!params.clientCapabilities?.fs?.readTextFile && !!params.clientCapabilities?.fs?.writeTextFile;
      editorTerm = params.clientCapabilities?.terminal === true;
      editorNotices = !!params.clientCapabilities?.session?.notices;
      return {
        protocolVersion: acp.PROTOCOL_VERSION,
        agentInfo: { name: "khaelor", title: "KHAELOR", version: VERSION },
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          // The editor's MCP servers, over stdio, streamable HTTP or SSE (src/mcp runs all three).
          mcpCapabilities: { http: true, sse: true },
          sessionCapabilities: { list: {}, close: {}, resume: {} },
        },
        authMethods: [],
      };
    })
    .onRequest("session/new", async ({ params, client }) => {
      peer = client;
      const o = await open(params.cwd, null, params.mcpServers).catch(openError);
      attach(o);
      return { sessionId: o.s.sessionId, modes: modes(o.s), configOptions: configOptions(o.s) };
    })
    .onRequest("session/load", async ({ params, client }) => {
      peer = client;
      const o = await openExisting(params.sessionId, params.cwd, params.mcpServers);
      // The conversation so far comes before the response, as the protocol asks.
      for (const u of replayUpdates(o.s.replayed?.events ?? [], o.s.cwd)) notify(o.s.sessionId, u);
      attach(o);
      return { modes: modes(o.s), configOptions: configOptions(o.s) };
    })
    .onRequest("session/resume", async ({ params, client }) => {
      // As load, without the replay: the editor still shows the conversation.
      peer = client;
      const o = await openExisting(params.sessionId, params.cwd, params.mcpServers ?? []);
      attach(o);
      return { modes: modes(o.s), configOptions: configOptions(o.s) };
    })
    .onRequest("session/set_config_option", ({ params }) => {
      const l = live(params.sessionId);
      if (params.configId !== "model") throw acp.RequestError.invalidParams(undefined, `unknown config option ${params.configId} (options: model)`);
      if (typeof params.value !== "string" || !params.value.trim()) throw acp.RequestError.invalidParams(undefined, "model: the value must be a model name");
      l.session.setModel(params.value);
      return { configOptions: configOptions(l.session) };
    })
    .onRequest("session/list", ({ params }) => {
      // The project's sessions, newest first: the same list `khaelor sessions` prints.
      const cwd = params.cwd ?? process.cwd();
      return {
        sessions: listSessions(cwd)
          .filter((x) => !x.newerFormat)
          .map((x) => ({ sessionId: x.id, cwd: x.cwd || cwd, title: x.title || null, updatedAt: new Date(x.lastActivity).toISOString() })),
      };
    })
    .onRequest("session/close", async ({ params }) => {
      // Frees the session (its lock too, so `khaelor --resume` can take it in a terminal); the log stays.
      const l = live(params.sessionId);
      sessions.delete(params.sessionId);
      l.turn?.abort();
      await l.running?.catch(() => {});
      await l.session.close();
      return {};
    })
    .onRequest("session/set_mode", ({ params }) => {
      const l = live(params.sessionId);
      if (!MODES.some((m) => m.id === params.modeId)) throw acp.RequestError.invalidParams(undefined, `unknown mode ${params.modeId} (modes: ${MODES.map((m) => m.id).join(", ")})`);
      l.session.setPermissionMode(params.modeId as PermissionMode);
      return {};
    })
    .onRequest("session/prompt", async ({ params, signal }) => {
      const l = live(params.sessionId);
      if (l.running) throw acp.RequestError.invalidRequest(undefined, "a prompt is already running in this session; cancel it first");
      const { content, skipped } = promptContent(params.prompt);
      if (skipped.length > 0) notify(params.sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: `(left out of the message, not supported: ${skipped.join(", ")})\n\n` } });
      const turn = new AbortController();
      const follow = () => turn.abort();
      signal.addEventListener("abort", follow, { once: true });
      l.turn = turn;
      let lastStop: string | null = null;
      const off = l.session.subscribe((e) => {
        if (e.type === "assistant_message") lastStop = e.message.stop_reason;
      });
      const text = typeof content === "string" ? content : "";
      const compact = /^\/compact(\s+([\s\S]*))?$/.exec(text.trim());
      const run = compact
        ? l.session.compact(compact[2]?.trim() || undefined, turn.signal).then((ok) => ({ reason: ok ? ("finished" as const) : ("error" as const), message: ok ? undefined : "nothing to compact" }))
        : l.session.runTurn(content, turn.signal);
      l.running = run;
      try {
        const r = await run;
        if (compact && r.reason === "finished") notify(params.sessionId, { sessionUpdate: "agent_message_chunk", content: { type: "text", text: "Compacted the conversation." } });
        const stopReason: StopReason | null =
          r.reason === "hook_stopped"
            ? "end_turn"
            : r.reason === "finished"
            ? lastStop === "max_tokens"
              ? "max_tokens"
              : lastStop === "refusal"
                ? "refusal"
                : "end_turn"
            : r.reason === "cancelled"
              ? "cancelled"
              : r.reason === "max_turns"
                ? "max_turn_requests"
                : null;
        if (stopReason) return { stopReason };
        throw acp.RequestError.internalError(undefined, r.message ?? r.reason);
      } finally {
        off();
        signal.removeEventListener("abort", follow);
        l.turn = null;
        l.running = null;
      }
    })
    .onNotification("session/cancel", ({ params }) => {
      sessions.get(params.sessionId)?.turn?.abort();
    });

  const code = await serveStdio((stream) => app.connect(stream), log);
  // The client is gone (end of input, a closed pipe, a signal): running turns are cancelled and
  // recorded as such, and every session is closed so its log is complete.
  for (const l of sessions.values()) l.turn?.abort();
  await Promise.allSettled([...sessions.values()].map((l) => l.running));
  await Promise.allSettled([...sessions.values()].map((l) => l.session.close()));
  return code;
}
