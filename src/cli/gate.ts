// The kernel's PermissionGate: asks the rules engine, turns "ask" into a question for the user
// (interactive) or a denial (print mode), and records every decision as an event.
import { newEventId } from "../events/id.ts";
import type { EventSink, PermissionMode } from "../events/types.ts";
import type { GateDecision, PermissionGate } from "../kernel/types.ts";
import type { ToolCall, ToolRuntime } from "../tools/types.ts";

export type AskAnswer =
  | { allow: true; always?: { rule: string; scope: "session" | "local" | "project" | "user" } }
  | { allow: false; message?: string };

export type AskRequest = { call: ToolCall; summary: string; reason: string; suggestion?: { rule: string; description: string } };
/** Shows the permission panel; resolves with the user's choice. */
export type Asker = (req: AskRequest, signal: AbortSignal) => Promise<AskAnswer>;

export type Decision = { behavior: "allow" | "ask" | "deny"; reason: string; source: string; suggestion?: { rule: string; description: string } };

export type GateOptions = {
  projectRoot: string;
  mode: () => PermissionMode;
  allowed: string[];
  disallowed: string[];
  tools: ToolRuntime;
  emit: EventSink;
  ask?: Asker;
};

export async function createGate(opts: GateOptions): Promise<PermissionGate & { decide(call: ToolCall): Decision }> {
  const decide = (call: ToolCall): Decision => decideByMode(call, opts);
  const record = (call: ToolCall, decision: "allow" | "deny", source: string, extra: { message?: string; savedRule?: { rule: string; scope: "session" | "local" | "project" | "user" } } = {}) =>
    opts.emit({ type: "permission_decision", id: newEventId(), ts: Date.now(), toolUseId: call.id, toolName: call.name, decision, source, ...extra });

  return {
    decide,
    async authorize(call: ToolCall, signal: AbortSignal): Promise<GateDecision> {
      const d = decide(call);
      if (d.behavior === "allow") return { allow: true };
      if (d.behavior === "deny" || !opts.ask) {
        const message =
          d.behavior === "deny"
            ? `Permission denied: ${d.reason}.`
            : `Permission denied: ${d.reason}, and there is no one to ask in print mode (allow it with --allowedTools or --permission-mode).`;
        record(call, "deny", d.source, { message });
        return { allow: false, message };
      }
      const summary = opts.tools.describe(call)?.summary ?? call.name;
      const answer = await opts.ask({ call, summary, reason: d.reason, suggestion: d.suggestion }, signal);
      if (answer.allow) {
        record(call, "allow", "user", answer.always ? { savedRule: answer.always } : {});
        return { allow: true };
      }
      const message = answer.message ? `The user denied this call and said: ${answer.message}` : "The user denied this call.";
      record(call, "deny", "user", { message });
      return { allow: false, message };
    },
  };
}

const EDIT_TOOLS = new Set(["edit", "write"]);

/** Until the rules engine is wired: what the mode names, plus --allowedTools/--disallowedTools by tool name. */
function decideByMode(call: ToolCall, opts: GateOptions): Decision {
  const named = (list: string[]) => list.some((r) => r.toLowerCase() === call.name.toLowerCase());
  if (named(opts.disallowed)) return { behavior: "deny", reason: `${call.name} is disallowed (--disallowedTools)`, source: "cli" };
  if (named(opts.allowed)) return { behavior: "allow", reason: "allowed by --allowedTools", source: "cli" };
  const info = opts.tools.describe(call);
  const mode = opts.mode();
  if (!info || info.readOnly) return { behavior: "allow", reason: "read-only", source: "mode" };
  if (mode === "bypassPermissions") return { behavior: "allow", reason: "bypassPermissions mode", source: "mode" };
  if (mode === "plan") return { behavior: "deny", reason: `plan mode allows no ${call.name}`, source: "mode" };
  if (mode === "acceptEdits" && EDIT_TOOLS.has(call.name)) return { behavior: "allow", reason: "acceptEdits mode", source: "mode" };
  return { behavior: "ask", reason: `${call.name} needs permission in ${mode} mode`, source: "mode" };
}
