// One ACP session opened (or, with `resume`, loaded) through the session service: the editor's
// permission answers as its Asker, the editor's buffers and terminals behind the workspace's seams
// when the client offers them, the editor's MCP servers beside the session's own.
import { neutralizeControlsButLines } from "../../text/control-chars.ts";
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentContext, SessionUpdate } from "@agentclientprotocol/sdk";
import { openAgentSession } from "../../agent/agent-session.ts";
import type { AgentSession } from "../../agent/types.ts";
import type { RunOptions } from "../shared/run-options.ts";
import { sessionOptions } from "../shared/session-options.ts";
import { editorAsker } from "./editor-asker.ts";
import { editorFiles, editorTerminal, terminalShown } from "./editor-services.ts";
import { editorMcpConfig } from "./mcp-servers.ts";
import { createLiveUpdates } from "./updates.ts";

/** The connection as a session needs it: the client, what it offers, and how to tell it things. */
export type Editor = {
  peer(): AgentContext | null;
  /** The client reads and writes files (both or neither: a stale-write check needs the writes to go where the reads came from). */
  fs: boolean;
  terminal: boolean;
  /** The client shows notices itself; otherwise they go to stderr. */
  notices: boolean;
  notify(sessionId: string, update: SessionUpdate): void;
  log(line: string): void;
};

export type OpenedSession = { s: AgentSession; updates: ReturnType<typeof createLiveUpdates> };

/** `clientId`: the id the client knows the session by when it is not the KHAELOR session's own (an approved plan's new session). */
export async function openAcpSession(editor: Editor, opts: RunOptions, cwd: string, resume: string | null, mcpServers: acp.McpServer[], clientId?: string): Promise<OpenedSession> {
  let sessionId = "";
  let s: AgentSession | null = null;
  // The editor's text of each file last read or written through it (see editorFiles).
  const buffers = new Map<string, string>();
  const updates = createLiveUpdates({ root: cwd, costSoFar: () => s?.costSoFar() ?? 0 });
  const ask = editorAsker({ peer: editor.peer, sessionId: () => sessionId });
  const files = editor.fs ? editorFiles(editor.peer, () => sessionId, buffers) : undefined;
  const terminal = editor.terminal
    ? editorTerminal(
        editor.peer,
        () => sessionId,
        (toolUseId, terminalId) => {
          updates.attachTerminal(toolUseId, terminalId);
          editor.notify(sessionId, terminalShown(toolUseId, terminalId));
        },
      )
    : undefined;
  const base = sessionOptions({ ...opts, cwd, resume, continue: false, forkSession: false });
  const editorMcp = editorMcpConfig(mcpServers);
  const mcp = editorMcp ? { ...base.mcp, configs: [...(base.mcp?.configs ?? []), editorMcp] } : base.mcp;
  const opened = await openAgentSession({ ...base, ...(mcp ? { mcp } : {}), ask, ...(files ? { files } : {}), ...(terminal ? { terminal } : {}) });
  s = opened;
  sessionId = clientId ?? opened.sessionId;
  // What the user should read before the first prompt goes to the editor when it can show it.
  if (!editor.notices) for (const n of opened.notices) editor.log(neutralizeControlsButLines(n));
  return { s: opened, updates };
}
