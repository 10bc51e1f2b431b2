// "Yes, clear the context and implement": the editor's session goes on in a new KHAELOR session,
// seeded as the app seeds it (the user's request and the plan, accepting edits), under the id the
// editor knows, so it needs no new session of its own. The planning session is closed: it stays
// in the log, resumable under its own id.
import type { ContentBlock, SessionUpdate, StopReason } from "@agentclientprotocol/sdk";
import type { PlanHandoff } from "../../agent/types.ts";
import type { OpenedSession } from "./open-session.ts";
import { runAcpPrompt, type Live } from "./prompt-turn.ts";

export type HandoffDeps = {
  /** A new session in `cwd` that speaks to the client as `clientId`. */
  open(cwd: string, mcpServers: Live["mcpServers"], clientId: string): Promise<OpenedSession>;
  /** Routes the new session's events to the client under `clientId`. */
  attach(o: OpenedSession, clientId: string): void;
  notify(update: SessionUpdate): void;
};

/**
 * A prompt; when it ends with a plan approved for a clean context, the implementation runs in its
 * new session at once, its updates before the prompt answers: the editor sees one prompt that
 * planned and then implemented, and its stop reason is the implementation's.
 */
export async function promptImplementingPlans(l: Live, clientId: string, content: ContentBlock[], signal: AbortSignal, d: HandoffDeps): Promise<{ stopReason: StopReason }> {
  const r = await runAcpPrompt(l, content, signal, d.notify);
  if (!r.handoff || signal.aborted) return { stopReason: r.stopReason };
  if (!(await continueInNewSession(l, clientId, r.handoff, d))) return { stopReason: r.stopReason };
  return { stopReason: (await runAcpPrompt(l, [{ type: "text", text: r.handoff.prompt }], signal, d.notify)).stopReason };
}

/** Moves `l` to the implementation session; false (the planning session kept open) when it could not be opened. */
export async function continueInNewSession(l: Live, clientId: string, h: PlanHandoff, d: HandoffDeps): Promise<boolean> {
  const say = (text: string) => d.notify({ sessionUpdate: "agent_message_chunk", content: { type: "text", text } });
  const planning = l.session;
  // A prompt sent while the new session opens waits its turn like any other.
  const swap = d.open(planning.cwd, l.mcpServers, clientId);
  l.running = swap;
  try {
    const o = await swap;
    l.session = o.s;
    d.attach(o, clientId);
    o.s.setPermissionMode("acceptEdits");
    await planning.close().catch(() => {});
    say(`\n\nThe plan was approved: the planning stays in session ${planning.sessionId} (resumable with khaelor --resume ${planning.sessionId}); the plan (${h.planFile}) is implemented in a new session ${o.s.sessionId} with a clean context, accepting edits. This conversation continues there.\n\n`);
    return true;
  } catch (e) {
    say(`\n\nThe new session for the approved plan could not be opened (${e instanceof Error ? e.message : String(e)}); this session goes on.\n\n`);
    return false;
  } finally {
    l.running = null;
  }
}
