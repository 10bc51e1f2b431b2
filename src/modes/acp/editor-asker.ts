// Permission asks as the editor answers them: session/request_permission with the call as a
// pending tool call (its kind and locations from its tool's facts, the change its tool planned,
// its invisible characters named), "allow once", "always allow <rule>" when there is one to save,
// and "reject".
import * as acp from "@agentclientprotocol/sdk";
import type { AgentContext } from "@agentclientprotocol/sdk";
import type { AskAnswer, Asker, AskRequest } from "../../agent/types.ts";
import { invisiblesNote, plannedDiff, toolKind, toolLocations } from "./tool-view.ts";

export type EditorAskerDeps = {
  peer: () => AgentContext | null;
  sessionId: () => string;
};

export function editorAsker({ peer: connected, sessionId: currentSession }: EditorAskerDeps): Asker {
  return async (req, signal) => {
    const peer = connected();
    const sessionId = currentSession();
    if (!peer) return { allow: false };
    const input = (req.call.input ?? {}) as Record<string, unknown>;
    if (req.preview?.plan) return askPlan(peer, sessionId, req, req.preview.plan, signal);
    // The change the tool planned: exactly what run() writes once it is allowed.
    const diff = plannedDiff(req.preview);
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
            kind: toolKind(req.facts, req.call.name),
            status: "pending",
            rawInput: input,
            locations: toolLocations(req.facts),
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
}

/**
 * An approved plan's choices, as the app offers them. Each approval switches the session's mode,
 * which the editor hears as current_mode_update; "clear the context" ends the turn, and run-acp.ts
 * continues the editor's session in a new KHAELOR session seeded with the request and the plan.
 */
const PLAN_OPTIONS: Array<acp.PermissionOption & { answer: AskAnswer }> = [
  { optionId: "plan_accept_edits", name: "Yes, and accept edits", kind: "allow_always", answer: { allow: true, mode: "acceptEdits" } },
  { optionId: "plan_review_edits", name: "Yes, and review each edit", kind: "allow_once", answer: { allow: true, mode: "default" } },
  { optionId: "plan_clear_context", name: "Yes, clear the context and implement (new session)", kind: "allow_once", answer: { allow: true, mode: "acceptEdits", clearContext: true } },
  { optionId: "plan_keep_planning", name: "No, keep planning", kind: "reject_once", answer: { allow: false, message: "Keep planning: the user did not approve the plan yet." } },
];

/** The plan as a permission request whose content is the plan itself (markdown), with the plan file as its location. */
async function askPlan(peer: AgentContext, sessionId: string, req: AskRequest, plan: { text: string; file: string }, signal: AbortSignal): Promise<AskAnswer> {
  try {
    const res = await peer.request(
      "session/request_permission",
      {
        sessionId,
        toolCall: {
          toolCallId: req.call.id,
          title: "Ready to leave plan mode: approve the plan?",
          kind: "switch_mode",
          status: "pending",
          rawInput: { ...((req.call.input ?? {}) as Record<string, unknown>), plan: plan.text },
          locations: [{ path: plan.file }],
          content: [{ type: "content", content: { type: "text", text: plan.text } }],
        },
        options: PLAN_OPTIONS.map(({ answer: _, ...o }) => o),
      },
      { cancellationSignal: signal },
    );
    if (res.outcome.outcome !== "selected") return { allow: false };
    const id = res.outcome.optionId;
    return PLAN_OPTIONS.find((o) => o.optionId === id)?.answer ?? { allow: false };
  } catch {
    return { allow: false };
  }
}
