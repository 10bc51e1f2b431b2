// session/prompt: the editor's content blocks run as one prompt (a session command such as
// /compact, or a turn), and how it ended as ACP's stop reason.
import * as acp from "@agentclientprotocol/sdk";
import type { ContentBlock, SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import type { AgentSession, PlanHandoff } from "../../agent/types.ts";
import type { TurnEndReason } from "../../events/types.ts";
import { runPrompt } from "../shared/session-commands.ts";
import { promptContent } from "./prompt-content.ts";

/** A session as the connection holds it: the turn running in it, if any. */
export type Live = {
  /** The KHAELOR session behind the client's id: another one once an approved plan moved on to a new session. */
  session: AgentSession;
  /** The client's MCP servers, for the session an approved plan opens. */
  mcpServers: acp.McpServer[];
  turn: AbortController | null;
  running: Promise<unknown> | null;
};

export async function runAcpPrompt(l: Live, prompt: ContentBlock[], signal: AbortSignal, notify: (update: SessionUpdate) => void): Promise<{ stopReason: StopReason; handoff?: PlanHandoff }> {
  if (l.running) throw acp.RequestError.invalidRequest(undefined, "a prompt is already running in this session; cancel it first");
  const { content, skipped } = promptContent(prompt);
  if (skipped.length > 0) notify({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: `(left out of the message, not supported: ${skipped.join(", ")})\n\n` } });
  const turn = new AbortController();
  const follow = () => turn.abort();
  signal.addEventListener("abort", follow, { once: true });
  l.turn = turn;
  let lastStop: string | null = null;
  const off = l.session.subscribe((e) => {
    if (e.type === "assistant_message") lastStop = e.message.stop_reason;
  });
  const run = runPrompt(l.session, content, turn.signal);
  l.running = run;
  try {
    const r = await run;
    if (r.command && r.reason === "finished") notify({ sessionUpdate: "agent_message_chunk", content: { type: "text", text: r.text } });
    const stopReason = stopReasonOf(r.reason, lastStop);
    if (stopReason) return { stopReason, ...(r.planHandoff ? { handoff: r.planHandoff } : {}) };
    throw acp.RequestError.internalError(undefined, r.message ?? r.reason);
  } finally {
    off();
    signal.removeEventListener("abort", follow);
    l.turn = null;
    l.running = null;
  }
}

/** How a prompt ended, as ACP says it; null for an end ACP has no stop reason for (an error). */
export function stopReasonOf(reason: TurnEndReason, lastStop: string | null): StopReason | null {
  switch (reason) {
    case "hook_stopped":
      return "end_turn";
    case "finished":
      return lastStop === "max_tokens" ? "max_tokens" : lastStop === "refusal" ? "refusal" : "end_turn";
    case "cancelled":
      return "cancelled";
    case "max_turns":
      return "max_turn_requests";
    default:
      return null;
  }
}
