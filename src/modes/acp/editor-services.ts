// What an editor can do for the agent over ACP, as the workspace's seams: its buffers as the files
// read, edit and write see (fs/read_text_file, fs/write_text_file), and its terminals for bash
// (terminal/*). Each is used only when the client said it offers it at initialize.
import type * as acp from "@agentclientprotocol/sdk";
import type { AgentContext, SessionUpdate } from "@agentclientprotocol/sdk";
import type { CommandTerminal, TextFiles } from "../../workspace/types.ts";

/** What an editor's terminal keeps of a command's output for the model (the result budget cuts it further). */
const TERMINAL_OUTPUT_BYTES = 1024 * 1024;

type Peer = () => AgentContext | null;

function connected(peer: Peer): AgentContext {
  const p = peer();
  if (!p) throw new Error("the editor is gone");
  return p;
}

/**
 * The editor's buffers, unsaved changes included. `seen` keeps the text of each file last read or
 * written through them, so the diffs the client is shown are of its buffers, not of the disk.
 */
export function editorFiles(peer: Peer, sessionId: () => string, seen: Map<string, string>): TextFiles {
  return {
    async readText(path) {
      const { content } = await connected(peer).request("fs/read_text_file", { sessionId: sessionId(), path });
      seen.set(path, content);
      return content;
    },
    async writeText(path, content) {
      await connected(peer).request("fs/write_text_file", { sessionId: sessionId(), path, content });
      seen.set(path, content);
    },
  };
}

/** The editor's terminals: the user watches each command in its tool call (`shown` adds it there). */
export function editorTerminal(peer: Peer, sessionId: () => string, shown: (toolUseId: string, terminalId: string) => void): CommandTerminal {
  return {
    async run(script, o) {
      const p = connected(peer);
      const sid = sessionId();
      const env = Object.entries(o.env).map(([name, value]) => ({ name, value }));
      const { terminalId } = (await p.request("terminal/create", { sessionId: sid, command: "bash", args: ["-c", script], cwd: o.cwd, env, outputByteLimit: TERMINAL_OUTPUT_BYTES })) as acp.CreateTerminalResponse;
      shown(o.toolUseId, terminalId);
      const kill = () => void p.request("terminal/kill", { sessionId: sid, terminalId }).catch(() => {});
      try {
        o.signal.addEventListener("abort", kill, { once: true });
        if (o.signal.aborted) kill();
        const exit = (await p.request("terminal/wait_for_exit", { sessionId: sid, terminalId })) as acp.WaitForTerminalExitResponse;
        const out = (await p.request("terminal/output", { sessionId: sid, terminalId })) as acp.TerminalOutputResponse;
        return { output: out.output, truncated: out.truncated, code: exit.exitCode ?? null, signal: exit.signal ?? null };
      } finally {
        o.signal.removeEventListener("abort", kill);
        // The editor keeps showing a released terminal in the tool call.
        await p.request("terminal/release", { sessionId: sid, terminalId }).catch(() => {});
      }
    },
  };
}

/** The tool call update that puts a terminal in a call. */
export const terminalShown = (toolCallId: string, terminalId: string): SessionUpdate => ({ sessionUpdate: "tool_call_update", toolCallId, content: [{ type: "terminal", terminalId }] });
