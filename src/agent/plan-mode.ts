// Plan mode as a workflow, not only a mode that denies changes. While the session is in plan mode
// each prompt carries the plan-mode instructions naming the session's plan file (the one file the
// rules let it write); the model presents the plan with exit_plan_mode, and the user's answer
// decides what follows: approved, the session leaves plan mode for the mode the user picked
// (default when none was named); approved for a clean context, this turn stops after the call and
// the turn's result hands the plan (with the user's request) to the mode, which opens a new session
// seeded with it; kept planning, the user's feedback goes back to the model as the call's answer.
import type { EventBus } from "../events/bus.ts";
import { newEventId } from "../events/id.ts";
import type { DurableEvent, PermissionMode } from "../events/types.ts";
import type { LoopPolicy } from "../kernel/types.ts";
import { EXIT_PLAN_TOOL, exitPlanModeTool } from "../tools/exit-plan-mode.ts";
import type { Tool } from "../tools/types.ts";
import { existsSync } from "node:fs";
import type { Asker, PlanHandoff } from "./types.ts";

export type PlanWorkflow = {
  planFile: string;
  /** exit_plan_mode, bound to this session's mode and plan file. */
  tool: Tool;
  /** The mode's Asker, with what an approved plan changes (the mode, or a hand-off) applied after it answers. */
  asker(inner: Asker | undefined): Asker | undefined;
  /** Stops the turn once a plan was approved for a clean context: nothing more happens in this session. */
  policy: LoopPolicy;
  /** The plan-mode instructions for the next prompt, or null outside plan mode. */
  reminder(): string | null;
  /** The hand-off the last turn ended with, once. */
  takeHandoff(): PlanHandoff | null;
};

export type PlanWorkflowOptions = {
  bus: EventBus;
  sessionId: string;
  planFile: string;
  mode(): PermissionMode;
  /** A resumed session's events: the user's messages in it are part of the request. */
  replayed: readonly DurableEvent[];
};

const REMINDER = "<system-reminder>";

export function openPlanWorkflow(o: PlanWorkflowOptions): PlanWorkflow {
  let handoff: PlanHandoff | null = null;
  const said: string[] = [];
  const hear = (e: DurableEvent | { type: string }) => {
    if (e.type !== "user_message") return;
    const m = e as Extract<DurableEvent, { type: "user_message" }>;
    if (m.synthetic) return;
    const text = typedText(m.content);
    if (text) said.push(text);
  };
  for (const e of o.replayed) hear(e);
  o.bus.subscribe(hear);

  return {
    planFile: o.planFile,
    tool: exitPlanModeTool({ mode: o.mode, planFile: o.planFile, handedOff: () => handoff !== null }),
    asker(inner) {
      if (!inner) return undefined;
      return async (req, signal) => {
        const plan = req.preview?.plan;
        if (req.call.name !== EXIT_PLAN_TOOL || !plan) return inner(req, signal);
        const a = await inner(req, signal);
        if (!a.allow) return a;
        if (a.clearContext) {
          handoff = { plan: plan.text, planFile: plan.file, fromSession: o.sessionId, prompt: implementationPrompt(plan.text, plan.file, o.sessionId, said) };
          return a;
        }
        const mode = a.mode && a.mode !== "plan" ? a.mode : "default";
        o.bus.emit({ type: "setting_change", id: newEventId(), ts: Date.now(), permissionMode: mode });
        return a;
      };
    },
    policy: {
      afterTools: () => (handoff ? { kind: "stop", reason: "finished", message: "the plan was approved: it is implemented in a new session" } : { kind: "continue" }),
    },
    reminder: () => (o.mode() === "plan" ? planReminder(o.planFile) : null),
    takeHandoff() {
      const h = handoff;
      handoff = null;
      return h;
    },
  };
}

/** What the user typed, without the context blocks added for the model. */
function typedText(content: string | Array<{ type: string; text?: string }>): string {
  if (typeof content === "string") return content.trim();
  return content
    .filter((b) => b.type === "text" && !(b.text ?? "").startsWith(REMINDER))
    .map((b) => b.text ?? "")
    .join("\n")
    .trim();
}

function planReminder(planFile: string): string {
  const file = existsSync(planFile) ? `${planFile} (it holds your plan so far: read it, then update it)` : `${planFile} (it does not exist yet)`;
  return [
    REMINDER,
    "Plan mode is on: the user wants a plan before anything changes. Read the code and run only read-only commands; edits, writes and commands that change things are denied.",
    `The one file you may write is the plan file, ${file}. Write the plan there in markdown: what to change and where, in what order, and how to check it.`,
    `When the plan is complete, call ${EXIT_PLAN_TOOL} to present it for the user's approval. If the user keeps you planning, revise the plan file and call it again. If the request is only a question, answer it without a plan.`,
    "</system-reminder>",
  ].join("\n");
}

/** The first prompt of the session that implements an approved plan: the request and the plan, none of the planning turns. */
function implementationPrompt(plan: string, planFile: string, fromSession: string, request: readonly string[]): string {
  const asked = request.length === 0 ? "(the request is in the plan)" : request.join("\n\n");
  return [
    `Implement the plan below. The user approved it in an earlier planning session (${fromSession}), whose conversation is not part of this one; the plan is also saved in ${planFile}.`,
    "",
    "## The user's request",
    "",
    asked,
    "",
    "## The approved plan",
    "",
    plan.trim(),
  ].join("\n");
}
