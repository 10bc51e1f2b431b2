// The hooks service: runs the configured commands of one event (in parallel, each with its own
// timeout), sends each the JSON Claude Code would, and folds their exits and JSON into one
// outcome the session acts on. Every run is shown (hook_start / hook_end); a hook that fails in
// any way is reported to the user and the session goes on.
import type { AgentEvent } from "../events/types.ts";
import { matches, type HookEntry, type HookEvent } from "./config.ts";
import { oneLine, runHook, type HookRun } from "./run-hook.ts";

export type HookOutcome = {
  /** Exit 2 or `decision: "block"` (PreToolUse: deny): the reasons, joined. */
  block?: string;
  /** `continue: false`: the whole turn stops, with this reason for the user. */
  stop?: string;
  /** Text for the model: additionalContext, and for UserPromptSubmit and SessionStart plain stdout. */
  context: string[];
  /** PreToolUse's permissionDecision, strongest first (deny > ask > allow). */
  permission?: { decision: "allow" | "deny" | "ask"; reason: string };
  /** PreToolUse's updatedInput: the call runs with this input instead (the last hook to give one wins). */
  updatedInput?: Record<string, unknown>;
};

export type HookService = {
  readonly entries: readonly HookEntry[];
  has(event: HookEvent): boolean;
  /** Runs the event's hooks whose matcher matches `match` (a tool name, a source, a trigger). */
  run(event: HookEvent, match: string | undefined, fields: Record<string, unknown>, signal: AbortSignal): Promise<HookOutcome>;
};

export type HookServiceOptions = {
  entries: HookEntry[];
  projectDir: string;
  sessionId: string;
  transcriptPath: string;
  permissionMode: () => string;
  emit: (e: AgentEvent) => void;
  env?: Record<string, string | undefined>;
  /**
   * The tool-output budget (src/tools/output-budget.ts, with the session's spill files): a hook's
   * text for the model costs what a tool result would, and the whole of it is in the file it names.
   */
  fit: BudgetText;
};

/** Text within the budget; `label` names the spill file the rest goes to. */
export type BudgetText = (text: string, label: string) => string;

/** Events whose plain stdout (exit 0) is added to the model's context, as in Claude Code. */
const STDOUT_IS_CONTEXT = new Set<HookEvent>(["UserPromptSubmit", "SessionStart", "SubagentStart"]);

let runCounter = 0;

export function createHookService(opts: HookServiceOptions): HookService {
  const label = (h: HookEntry) => `${h.event}${h.matcher ? ` ${h.matcher}` : ""}: ${h.command}`;
  return {
    entries: opts.entries,
    has: (event) => opts.entries.some((h) => h.event === event),
    async run(event, match, fields, signal) {
      const chosen = opts.entries.filter((h) => h.event === event && matches(h.matcher, match));
      const outcome: HookOutcome = { context: [] };
      if (chosen.length === 0) return outcome;
      const input = {
        session_id: opts.sessionId,
        transcript_path: opts.transcriptPath,
        cwd: opts.projectDir,
        permission_mode: opts.permissionMode(),
        hook_event_name: event,
        ...fields,
      };
      // The same command configured twice (user and project) runs once, as in Claude Code.
      const unique = chosen.filter((h, i) => chosen.findIndex((o) => o.command === h.command) === i);
      await Promise.all(
        unique.map(async (h) => {
          const runId = `hook-${++runCounter}`;
          opts.emit({ type: "hook_start", runId, event, label: label(h) });
          const r = await runHook(h, input, { projectDir: opts.projectDir, env: opts.env, signal });
          const said = fold(event, r, outcome);
          opts.emit({ type: "hook_end", runId, event, label: label(h), durationMs: Math.round(r.durationMs), ok: !r.failure && (r.code === 0 || r.code === 2), ...said });
        }),
      );
      return withinBudget(event, outcome, opts.fit);
    },
  };
}

/**
 * Each text of the outcome within the budget: the context of all the event's hooks as one (they
 * reach the model together), the block reasons, the permission reason, the stop reason.
 */
function withinBudget(event: HookEvent, o: HookOutcome, fit: BudgetText): HookOutcome {
  const label = `hook-${event}`;
  const joined = o.context.join("\n");
  const fitted = fit(joined, label);
  return {
    ...o,
    // Untouched when it fits: each hook's context stays its own line.
    context: fitted === joined ? o.context : [fitted],
    ...(o.block !== undefined ? { block: fit(o.block, label) } : {}),
    ...(o.stop !== undefined ? { stop: fit(o.stop, label) } : {}),
    ...(o.permission ? { permission: { ...o.permission, reason: fit(o.permission.reason, label) } } : {}),
  };
}

const RANK = { allow: 0, ask: 1, deny: 2 } as const;

/** Folds one run into the event's outcome; returns what the user should see of it. */
function fold(event: HookEvent, r: HookRun, out: HookOutcome): { message?: string; output?: string } {
  const where = `hook ${JSON.stringify(r.entry.command)} (${r.entry.file})`;
  if (r.failure) {
    // A hook set to block on failure blocks what it guards, as a command hook's exit 2 does.
    if (r.entry.onFailure === "block") addBlock(out, `${event} ${where} ${r.failure}`);
    return { message: `${event} ${where} ${r.failure}` };
  }
  if (r.code === 2) {
    const reason = r.stderr.trim() || `${event} hook blocked this without saying why`;
    addBlock(out, reason);
    return { message: `${event} ${where} blocked: ${oneLine(reason)}` };
  }
  if (r.code !== 0) {
    return { message: `${event} ${where} exited ${r.code}${r.stderr.trim() ? `: ${oneLine(r.stderr)}` : ""}` };
  }
  const j = r.json;
  if (!j) {
    const text = r.stdout.trim();
    if (text && STDOUT_IS_CONTEXT.has(event)) out.context.push(text);
    return text ? { output: text } : {};
  }
  const said: string[] = [];
  if (j.continue === false) {
    out.stop = j.stopReason || `a ${event} hook stopped the session`;
    said.push(`stopped: ${out.stop}`);
  }
  if (j.systemMessage) said.push(j.systemMessage);
  const specific = j.hookSpecificOutput;
  if (specific?.additionalContext) out.context.push(specific.additionalContext);
  if (event === "PreToolUse") {
    if (specific?.updatedInput) out.updatedInput = specific.updatedInput;
    // Claude Code's older form (decision approve/block) still works.
    const decision = specific?.permissionDecision ?? (j.decision === "approve" || j.decision === "allow" ? "allow" : j.decision === "block" || j.decision === "deny" ? "deny" : undefined);
    if (decision && decision !== "defer") {
      const reason = specific?.permissionDecisionReason ?? j.reason ?? "";
      if (!out.permission || RANK[decision] > RANK[out.permission.decision]) out.permission = { decision, reason };
    }
  } else if (j.decision === "block") addBlock(out, j.reason || `a ${event} hook blocked this without saying why`);
  const message = said.length > 0 ? `${event} hook: ${said.join("; ")}` : undefined;
  // JSON output is read, not shown: suppressOutput has nothing left to hide.
  return message ? { message } : {};
}

function addBlock(out: HookOutcome, reason: string) {
  out.block = out.block ? `${out.block}\n${reason}` : reason;
}
