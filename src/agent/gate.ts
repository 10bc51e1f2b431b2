// The kernel's PermissionGate: asks the rules engine, turns "ask" into a question for the user
// (interactive) or a denial (print mode), saves "allow always" grants, and records every
// decision that was not a plain allow as an event.
import { newEventId } from "../events/id.ts";
import type { EventSink } from "../events/types.ts";
import type { GateDecision, PermissionGate } from "../kernel/types.ts";
import type { Decision, GrantScope, PermissionEngine, Suggestion } from "../permissions/index.ts";
import type { PreparedCall, ToolCall } from "../tools/types.ts";
import type { Workspace } from "../workspace/types.ts";
import type { Asker } from "./types.ts";
import type { SandboxGate } from "./sandbox-gate.ts";

export type GateOptions = {
  engine: PermissionEngine;
  workspace: Workspace;
  emit: EventSink;
  ask?: Asker;
  /** The session's sandbox, where it changes what a command asks (./sandbox-gate.ts). */
  sandbox?: SandboxGate;
  /** A read-only subagent's gate: what plan mode would not run is denied. */
  onlyReads?: boolean;
};

export function createGate(opts: GateOptions): PermissionGate & {
  decide(call: ToolCall, readOnly?: boolean): Decision;
  authorize(prepared: PreparedCall, signal: AbortSignal, forceAsk?: string): Promise<GateDecision>;
} {
  // readOnly: what the tool says of itself; only MCP tools' (readOnlyHint) change a decision.
  const decide = (call: ToolCall, readOnly?: boolean): Decision => opts.engine.decide({ tool: call.name, input: call.input, cwd: opts.workspace.cwd, ...(readOnly !== undefined ? { readOnly } : {}), ...(opts.onlyReads ? { onlyReads: true } : {}) });
  const record = (call: ToolCall, decision: "allow" | "deny", source: string, extra: { message?: string; savedRule?: { rule: string; scope: GrantScope } } = {}) =>
    opts.emit({ type: "permission_decision", id: newEventId(), ts: Date.now(), toolUseId: call.id, toolName: call.name, decision, source, ...extra });

  return {
    decide,
    /** forceAsk (a PreToolUse hook's "ask"): asks, with this reason, even where the rules allow. */
    async authorize(prepared: PreparedCall, signal: AbortSignal, forceAsk?: string): Promise<GateDecision> {
      const { call } = prepared;
      const ruled = opts.sandbox ? opts.sandbox.decide(prepared.facts, decide(call, prepared.readOnly)) : decide(call, prepared.readOnly);
      const d: Decision = forceAsk && ruled.behavior === "allow" ? { behavior: "ask", reason: forceAsk, source: "hook" } : ruled;
      if (d.behavior === "allow" && d.source === "sandbox") record(call, "allow", "sandbox");
      if (d.behavior === "allow") return { allow: true };
      if (d.behavior === "deny" || !opts.ask) {
        const reason = /[.!?]$/.test(d.reason) ? d.reason : `${d.reason}.`;
        const message =
          d.behavior === "deny"
            ? `Permission denied: ${reason}`
            : `Permission denied: ${reason} There is no one to ask in print mode; the user can allow it with --allowedTools or --permission-mode.`;
        record(call, "deny", d.source, { message });
        return { allow: false, message };
      }
      const answer = await opts.ask(
        { call, summary: prepared.summary, reason: d.reason, suggestion: d.suggestion, facts: prepared.facts, ...(prepared.preview ? { preview: prepared.preview } : {}) },
        signal,
      );
      if (answer.allow) {
        const saved = answer.always && d.suggestion ? saveGrant(opts.engine, d.suggestion, answer.always.scope) : undefined;
        record(call, "allow", "user", saved ? { savedRule: saved } : {});
        return { allow: true };
      }
      const message = answer.message ? `The user denied this call and said: ${answer.message}` : "The user denied this call.";
      record(call, "deny", "user", { message });
      return { allow: false, message };
    },
  };
}

function saveGrant(engine: PermissionEngine, suggestion: Suggestion, scope: GrantScope) {
  for (const rule of suggestion.rules) engine.grant(rule, scope);
  return { rule: suggestion.rules.join(", "), scope };
}
