// Where hooks meet the loop, each as a wrapper around an interface the kernel already has: the
// permission gate (PreToolUse), the tool runtime (PostToolUse) and loop policies (Stop, and a
// hook's `continue: false`, which ends the whole turn).
import { newEventId } from "../events/id.ts";
import type { EventSink } from "../events/types.ts";
import type { GateDecision, LoopPolicy, PermissionGate, PolicyVerdict } from "../kernel/types.ts";
import type { Decision } from "../permissions/index.ts";
import type { PreparedCall, ToolCall, ToolOutcome, ToolRuntime } from "../tools/types.ts";
import type { HookService } from "./hooks.ts";
import { claudeToolInput } from "./tool-names.ts";
import { claudeToolResponse } from "./tool-response.ts";
import { outcomeText } from "../tools/results.ts";

/** A gate that can be told to ask even where the rules allow (a hook's "ask"). */
export type AskingGate = PermissionGate & {
  decide(call: ToolCall): Decision;
  authorize(prepared: Parameters<PermissionGate["authorize"]>[0], signal: AbortSignal, forceAsk?: string): Promise<GateDecision>;
};

/**
 * What the hooks of one turn leave for later in it. `reason`: a hook's `continue: false`; the calls
 * left in that message do not run and the turn ends after them (hookStopPolicy); the stopReason is
 * the user's (the hook's notice), never the model's. `context`: PreToolUse's additionalContext, by
 * call, for the model with that call's result.
 */
export type HookTurn = {
  reason: string | null;
  context: Map<string, string[]>;
  /** PreToolUse's updatedInput: each call's context (to prepare it again), and the call prepared with the new input. */
  contexts: Map<string, PrepareContext>;
  replaced: Map<string, PreparedCall>;
};

type PrepareContext = Parameters<ToolRuntime["prepare"]>[1];

export function newHookTurn(): HookTurn {
  return { reason: null, context: new Map(), contexts: new Map(), replaced: new Map() };
}

const STOPPED_CALL = "Not run: a hook stopped this turn.";

/**
 * A new user turn starts clean. The session calls this before a command's !`cmd` lines run, not
 * the kernel's onUserTurn (after them): a stopped turn must not refuse the next command's lines,
 * and a hook stopping one of those lines must stop its own turn.
 */
export function resetHookTurn(turn: HookTurn): void {
  turn.reason = null;
  turn.context.clear();
  turn.contexts.clear();
  turn.replaced.clear();
}

export function hookStopPolicy(turn: HookTurn): LoopPolicy {
  return {
    afterTools: () => (turn.reason === null ? { kind: "continue" } : { kind: "stop", reason: "hook_stopped", message: `a hook stopped the turn: ${turn.reason}` }),
  };
}

/** Floors a hook's allow never lifts, beside deny rules. */
const FLOORS = new Set(["hardline", "protected-path"]);

/**
 * PreToolUse runs before the rules are asked. Exit 2 or deny: the call does not run and the reason
 * goes to the model. Allow: skips the question, never a deny rule or a floor. Ask: asks even
 * where a rule allows.
 */
export function hookedGate(gate: AskingGate, hooks: HookService, cwd: string, emit: EventSink, turn: HookTurn, tools: Pick<ToolRuntime, "prepare">): PermissionGate {
  return {
    async authorize(planned, signal) {
      if (turn.reason !== null) return { allow: false, message: STOPPED_CALL };
      if (!hooks.has("PreToolUse")) return gate.authorize(planned, signal);
      let prepared = planned;
      let { call } = prepared;
      const tool = prepared.facts.claudeName;
      const o = await hooks.run("PreToolUse", tool, { tool_name: tool, tool_input: claudeToolInput(call.input, cwd), tool_use_id: call.id }, signal);
      const deny = (message: string): GateDecision => {
        emit({ type: "permission_decision", id: newEventId(), ts: Date.now(), toolUseId: call.id, toolName: call.name, decision: "deny", source: "hook", message });
        return { allow: false, message };
      };
      if (o.stop) {
        turn.reason = o.stop;
        return deny(STOPPED_CALL);
      }
      if (o.block) return deny(`A PreToolUse hook blocked this call: ${o.block}`);
      if (o.context.length > 0) turn.context.set(call.id, o.context);
      // updatedInput: the call is planned again with the hook's input, and that is what the rules
      // (and the user, if asked) judge and what runs.
      const ctx = turn.contexts.get(call.id);
      if (o.updatedInput && ctx) {
        const again = await tools.prepare({ ...call, input: o.updatedInput }, ctx);
        if (!again.ok) return deny(`A PreToolUse hook changed this call's input, and the new input cannot run: ${outcomeText(again.outcome.content)}`);
        turn.replaced.set(call.id, again);
        prepared = again;
        call = again.call;
      }
      if (o.permission?.decision === "deny") return deny(`A PreToolUse hook denied this call${o.permission.reason ? `: ${o.permission.reason}` : "."}`);
      if (o.permission?.decision === "ask") return gate.authorize(prepared, signal, o.permission.reason || "a PreToolUse hook asks for this call");
      if (o.permission?.decision === "allow") {
        const d = gate.decide(call);
        // As in Claude Code, allow skips the question but not a deny or ask rule the user wrote.
        if (d.behavior === "deny" || (d.behavior === "ask" && (FLOORS.has(d.source) || d.source.startsWith("rule:")))) return gate.authorize(prepared, signal);
        if (d.behavior === "ask") emit({ type: "permission_decision", id: newEventId(), ts: Date.now(), toolUseId: call.id, toolName: call.name, decision: "allow", source: "hook" });
        return { allow: true };
      }
      return gate.authorize(prepared, signal);
    },
  };
}

/** PostToolUse (or PostToolUseFailure) after each call that ran: a block or additionalContext reaches the model with the result. */
export function hookedRuntime(runtime: ToolRuntime, hooks: HookService, cwd: string, turn: HookTurn): ToolRuntime {
  return {
    ...runtime,
    async prepare(call, ctx) {
      const p = await runtime.prepare(call, ctx);
      if (!p.ok || (!hooks.has("PreToolUse") && !hooks.has("PostToolUse") && !hooks.has("PostToolUseFailure"))) return p;
      turn.contexts.set(call.id, ctx);
      return {
        ...p,
        async run(): Promise<ToolOutcome> {
          // A PreToolUse hook's updatedInput: the call planned again with it runs instead.
          const target = turn.replaced.get(call.id) ?? p;
          turn.replaced.delete(call.id);
          turn.contexts.delete(call.id);
          const r = await target.run();
          const before = turn.context.get(call.id) ?? [];
          turn.context.delete(call.id);
          const tool = target.facts.claudeName;
          const input = claudeToolInput(target.call.input, cwd) as Record<string, unknown>;
          // As in Claude Code, PostToolUse hears the calls that succeeded, PostToolUseFailure the others.
          const event = r.isError ? "PostToolUseFailure" : "PostToolUse";
          // A call the user cancelled still reaches its hooks (is_interrupt): they run on a signal of
          // their own, bounded by their timeouts. Otherwise Esc while the hook runs cancels it.
          const signal = ctx.signal.aborted ? new AbortController().signal : ctx.signal;
          const o = !hooks.has(event)
            ? { context: [] as string[], block: undefined, stop: undefined }
            : r.isError
            ? await hooks.run("PostToolUseFailure", tool, { tool_name: tool, tool_input: input, tool_use_id: call.id, error: outcomeText(r.content), is_interrupt: r.interrupted === true }, signal)
            : await hooks.run("PostToolUse", tool, { tool_name: tool, tool_input: input, tool_response: claudeToolResponse(r), tool_use_id: call.id }, signal);
          if (o.stop) turn.reason = o.stop;
          const notes = [...before, ...(o.block ? [`PostToolUse hook feedback: ${o.block}`] : []), ...o.context];
          if (notes.length === 0) return r;
          return { ...r, content: appendText(r.content, notes.join("\n")) };
        },
      };
    },
    async execute(call, ctx) {
      const p = await this.prepare(call, ctx);
      return p.ok ? p.run() : p.outcome;
    },
  };
}

function appendText(content: ToolOutcome["content"], text: string): ToolOutcome["content"] {
  if (typeof content === "string") return `${content}\n\n${text}`;
  return [...content, { type: "text", text }];
}

/** Stop: a hook's block sends the model back once per block, with stop_hook_active after the first; bounded per user turn. */
export const MAX_STOP_BLOCKS = 3;

/**
 * `agent`: a subagent's stop, SubagentStop (matched by its type, told its id and transcript), whose
 * block sends the child back to work as Stop's sends the parent.
 */
export function stopHookPolicy(hooks: HookService, signal: () => AbortSignal, lastText: () => string, agent?: { id: string; type: string; transcriptPath: string }): LoopPolicy {
  let blocks = 0;
  const event = agent ? "SubagentStop" : "Stop";
  const fields = agent ? { agent_id: agent.id, agent_type: agent.type, agent_transcript_path: agent.transcriptPath } : {};
  return {
    onUserTurn() {
      blocks = 0;
    },
    async onStop(): Promise<PolicyVerdict> {
      if (!hooks.has(event)) return { kind: "continue" };
      const o = await hooks.run(event, agent?.type, { ...fields, stop_hook_active: blocks > 0, last_assistant_message: lastText() }, signal());
      // continue:false wins over a block (as in Claude Code): the turn ends, with the reason for the user.
      if (o.stop) return { kind: "stop", reason: "hook_stopped", message: `a ${event} hook stopped the turn: ${o.stop}` };
      // Past the bound, the hook is not obeyed.
      if (!o.block || blocks >= MAX_STOP_BLOCKS) return { kind: "continue" };
      blocks++;
      return { kind: "nudge", tag: "stop_hook", text: `A ${event} hook asked you to keep working: ${o.block}` };
    },
  };
}
