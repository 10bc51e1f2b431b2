// `khaelor acp`: the Agent Client Protocol on stdio, for editors (Zed, JetBrains, Neovim, Emacs).
// Each ACP session is a normal KHAELOR session (listed by `khaelor sessions`, resumable with
// --resume, crash-safe), opened through the same session service as every other mode; this file
// only speaks the protocol: requests in, session/update notifications and permission asks out.
import * as acp from "@agentclientprotocol/sdk";
import type { AgentContext, SessionUpdate } from "@agentclientprotocol/sdk";
import type { PermissionMode } from "../../events/types.ts";
import type { RunOptions } from "../shared/run-options.ts";
import { SessionOpenError } from "../../agent/agent-session.ts";
import { listSessions } from "../../session/store.ts";
import { VERSION } from "../../version.ts";
import { openAcpSession, type Editor, type OpenedSession } from "./open-session.ts";
import { promptImplementingPlans } from "./plan-handoff.ts";
import type { Live } from "./prompt-turn.ts";
import { availableCommands, configOptions, MODES, modeState as modes } from "./session-info.ts";
import { replayUpdates } from "./updates.ts";
import { currentBranch } from "../../session/branch.ts";
import { serveStdio } from "./stdio-stream.ts";

export async function runAcp(opts: RunOptions): Promise<number> {
  const log = (s: string) => void process.stderr.write(`khaelor acp: ${s}\n`);
  const sessions = new Map<string, Live>();
  let peer: AgentContext | null = null;
  const notify = (sessionId: string, update: SessionUpdate) => {
    peer?.notify("session/update", { sessionId, update }).catch(() => {
      // The client is gone; the session log has everything.
    });
  };
  // What the client offers is known at initialize, before any session opens.
  const editor: Editor = { peer: () => peer, fs: false, terminal: false, notices: false, notify, log };
  const live = (sessionId: string): Live => {
    const l = sessions.get(sessionId);
    if (!l) throw acp.RequestError.sessionNotFound(sessionId);
    return l;
  };

  /** Opens (or, with `resume`, loads) a session in `cwd`. */
  const open = (cwd: string, resume: string | null, mcpServers: acp.McpServer[], clientId?: string) => openAcpSession(editor, opts, cwd, resume, mcpServers, clientId);

  /** Routes the session's events to the client, under the id it knows the session by (`clientId`: an approved plan's new session). */
  const attach = ({ s, updates }: OpenedSession, mcpServers: acp.McpServer[], clientId = s.sessionId) => {
    const to = (u: SessionUpdate) => notify(clientId, u);
    s.subscribe((e) => {
      for (const u of updates.translate(e)) to(u);
      // The model changed (the editor's picker, or resuming with another): the picker shows it.
      if (e.type === "setting_change" && e.model) to({ sessionUpdate: "config_option_update", configOptions: configOptions(s) });
      // The mode changed (an approved plan leaves plan mode): the editor's mode selector follows.
      if (e.type === "setting_change" && e.permissionMode) to({ sessionUpdate: "current_mode_update", currentModeId: e.permissionMode });
    });
    const l = sessions.get(clientId);
    if (l) l.session = s;
    else sessions.set(clientId, { session: s, turn: null, running: null, mcpServers });
    // After the response, so the client knows the session the commands belong to.
    setImmediate(() => {
      to({ sessionUpdate: "available_commands_update", availableCommands: availableCommands(s) });
      if (editor.notices) for (const n of s.notices) to({ sessionUpdate: "notice", severity: "warning", title: n });
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
      editor.fs = !!params.clientCapabilities?.fs?.readTextFile && !!params.clientCapabilities?.fs?.writeTextFile;
      editor.terminal = params.clientCapabilities?.terminal === true;
      editor.notices = !!params.clientCapabilities?.session?.notices;
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
      attach(o, params.mcpServers);
      return { sessionId: o.s.sessionId, modes: modes(o.s), configOptions: configOptions(o.s) };
    })
    .onRequest("session/load", async ({ params, client }) => {
      peer = client;
      const o = await openExisting(params.sessionId, params.cwd, params.mcpServers);
      // The conversation so far comes before the response, as the protocol asks.
      // The current branch only: what a rewind left behind is not the conversation the editor continues.
      for (const u of replayUpdates(currentBranch(o.s.replayed?.events ?? []), o.s.cwd)) notify(o.s.sessionId, u);
      attach(o, params.mcpServers);
      return { modes: modes(o.s), configOptions: configOptions(o.s) };
    })
    .onRequest("session/resume", async ({ params, client }) => {
      // As load, without the replay: the editor still shows the conversation.
      peer = client;
      const o = await openExisting(params.sessionId, params.cwd, params.mcpServers ?? []);
      attach(o, params.mcpServers ?? []);
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
      const handoff = { open: (cwd: string, mcp: acp.McpServer[], id: string) => open(cwd, null, mcp, id), attach: (o: OpenedSession, id: string) => attach(o, l.mcpServers, id), notify: (u: SessionUpdate) => notify(params.sessionId, u) };
      return promptImplementingPlans(l, params.sessionId, params.prompt, signal, handoff);
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
