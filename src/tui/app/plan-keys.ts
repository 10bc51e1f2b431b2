// Keys while the plan panel is open (an exit_plan_mode call asking for approval): Up/Down move the
// marked choice, Enter takes it, a choice's number takes it at once; "keep planning" opens a line
// for the feedback the model gets back. Esc stops the turn, as at any permission question.
import type { AskAnswer } from "../../agent/types.ts";
import { PLAN_CHOICES, planRows, type PlanChoice, type PlanPanelState } from "../views/plan-panel.ts";
import type { PagerSource } from "../views/pager.ts";
import type { AppActions } from "./actions.ts";
import type { InputEvent } from "./app-input.ts";
import { refuseAndStop } from "./composer-keys.ts";
import type { AppState, PermissionAsk } from "./state.ts";

/** What each choice answers: the mode to continue in, a new session, or back to planning. */
const ANSWERS: Record<Exclude<PlanChoice, "keep">, AskAnswer> = {
  accept: { allow: true, mode: "acceptEdits" },
  review: { allow: true, mode: "default" },
  clear: { allow: true, mode: "acceptEdits", clearContext: true },
};

export function planInput(state: AppState, actions: AppActions, ev: InputEvent, ask: PermissionAsk, plan: PlanPanelState): void {
  if (plan.feedback !== null) return feedbackInput(ev, ask, plan);
  if (ev.type === "key" && (ev.name === "escape" || (ev.ctrl && ev.name === "c"))) return refuseAndStop(state, actions, ask);
  if (ev.type === "key" && ev.ctrl && ev.name === "t") return actions.openPager(planSource(plan, state.links), { ofPrompt: true, title: "the plan" });
  if (ev.type === "key" && !ev.ctrl && !ev.alt && (ev.name === "up" || ev.name === "down")) {
    const n = PLAN_CHOICES.length;
    plan.selected = (plan.selected + (ev.name === "up" ? n - 1 : 1)) % n;
    return;
  }
  if (ev.type === "key" && ev.name === "enter") return take(ask, plan, PLAN_CHOICES[plan.selected]!.choice);
  const digit = ev.type === "text" && /^[1-9]$/.test(ev.text) ? Number(ev.text) - 1 : -1;
  const picked = PLAN_CHOICES[digit];
  if (picked) {
    plan.selected = digit;
    take(ask, plan, picked.choice);
  }
}

function take(ask: PermissionAsk, plan: PlanPanelState, choice: PlanChoice): void {
  if (choice === "keep") plan.feedback = "";
  else ask.resolve(ANSWERS[choice]);
}

function feedbackInput(ev: InputEvent, ask: PermissionAsk, plan: PlanPanelState): void {
  const text = plan.feedback ?? "";
  if (ev.type === "text" || ev.type === "paste") plan.feedback = text + ev.text.replace(/[\r\n]+/g, " ");
  else if (ev.type === "key" && ev.name === "backspace") plan.feedback = [...text].slice(0, -1).join("");
  else if (ev.type === "key" && ev.name === "enter") ask.resolve({ allow: false, message: text.trim() || "Keep planning: the plan is not approved yet." });
  else if (ev.type === "key" && (ev.name === "escape" || (ev.ctrl && ev.name === "c"))) plan.feedback = null;
}

/** The whole plan, for the pager. */
function planSource(plan: PlanPanelState, links: boolean): PagerSource {
  return { count: () => 1, text: () => plan.plan, layout: (_i, width) => planRows(plan.plan, width, links) };
}
