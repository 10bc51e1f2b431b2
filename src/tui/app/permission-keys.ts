// Keys while a permission prompt is open, and the guard that keeps keys typed before it appeared
// (or in a typing burst) with the composer instead of answering it.
import type { PagerSource } from "../views/pager.ts";
import { PERMISSION_KEYS, renderPermissionFull, type PermissionPrompt } from "../views/permission-panel.ts";
import type { AppActions } from "./actions.ts";
import type { InputEvent } from "./app-input.ts";
import { refuseAndStop } from "./composer-keys.ts";
import { planInput } from "./plan-keys.ts";
import { runBound } from "./keymap.ts";
import type { AppState, PermissionAsk } from "./state.ts";

/**
 * A permission prompt takes no key in its first moments: nobody reads a prompt and answers it this
 * fast, so such a key was typed before it appeared (the user was writing the next message while
 * the answer streamed, and "s" must not grant a rule).
 */
const ASK_GUARD_MS = 400;
/** Keys closer together than this are one typing burst; a burst going on when a prompt appears stays with the composer. */
const BURST_GAP_MS = 350;

export function permissionInput(state: AppState, actions: AppActions, ev: InputEvent, ask: PermissionAsk): void {
  if (ask.plan) return planInput(state, actions, ev, ask, ask.plan);
  if (ask.offer) return offerInput(actions, ev, ask, ask.offer);
  const panel = ask.panel;
  if (panel.message !== null) {
    if (ev.type === "text" || ev.type === "paste") panel.message += ev.text.replace(/[\r\n]+/g, " ");
    else if (ev.type === "key" && ev.name === "backspace") panel.message = panel.message.slice(0, -1);
    else if (ev.type === "key" && ev.name === "enter") ask.resolve({ allow: false, message: panel.message.trim() || undefined });
    else if (ev.type === "key" && ev.name === "escape") panel.message = null;
    else if (ev.type === "key" && ev.ctrl && ev.name === "c") panel.message = null;
    return;
  }
  // The user's keybindings (Claude Code's Confirmation context): confirm:yes allows once, confirm:no denies.
  if (runBound(state.keys, ["Confirmation"], ev, actions, (action) => ask.resolve({ allow: action === "confirm:yes" }))) return;
  if (ev.type === "key" && (ev.name === "escape" || (ev.ctrl && ev.name === "c"))) return refuseAndStop(state, actions, ask);
  if (ev.type === "key" && ev.ctrl && ev.name === "t") {
    actions.openPager(promptSource(ask.panel.prompt), { ofPrompt: true });
    return;
  }
  const k = ev.type === "text" ? ev.text.toLowerCase() : ev.type === "key" && !ev.ctrl && !ev.alt ? ev.name : "";
  const choice = PERMISSION_KEYS[k];
  if (choice === "once") ask.resolve({ allow: true });
  else if (choice === "deny") ask.resolve({ allow: false });
  else if (choice === "deny_message") panel.message = "";
  else if (choice && ask.suggestion) ask.resolve({ allow: true, always: { scope: choice.always } });
}

/**
 * The sandbox's offer after a blocked command: g allows what it blocked for the session, o runs the
 * command once outside (where allowed), n or Esc keeps the failure; nothing here stops the turn.
 */
function offerInput(actions: AppActions, ev: InputEvent, ask: PermissionAsk, offer: { outside: boolean }): void {
  if (ev.type === "key" && ev.ctrl && ev.name === "t") return actions.openPager(promptSource(ask.panel.prompt), { ofPrompt: true });
  if (ev.type === "key" && (ev.name === "escape" || (ev.ctrl && ev.name === "c"))) return ask.resolve({ allow: false });
  const k = ev.type === "text" ? ev.text.toLowerCase() : "";
  if (k === "g") ask.resolve({ allow: true, offer: "grant" });
  else if (k === "o" && offer.outside) ask.resolve({ allow: true, offer: "outside" });
  else if (k === "n") ask.resolve({ allow: false });
}

/**
 * Whether a key that arrives while a permission prompt is open belongs to the composer instead:
 * typed in the prompt's first moments or in a typing burst that began before it, or several
 * characters at once (fast typing, an unbracketed paste), which is never a one-key answer.
 */
export function typedAhead(state: AppState, actions: AppActions, ask: PermissionAsk, ev: InputEvent): boolean {
  if (ask.panel.message !== null || (ask.plan && ask.plan.feedback !== null) || ev.type === "wheel") return false;
  // Ctrl-T only shows the prompt in full: it answers nothing, so it is never held back.
  if (ev.type === "key" && ev.ctrl && ev.name === "t") return false;
  if (ask.guarded && !guardOver(state, actions, ask)) {
    ask.panel.typedAhead = true;
    armAskGuard(state, actions, ask);
    return true;
  }
  if ((ev.type === "text" && [...ev.text].length > 1) || ev.type === "paste") {
    ask.guarded = true;
    ask.panel.armed = false;
    ask.panel.typedAhead = true;
    armAskGuard(state, actions, ask);
    return true;
  }
  return false;
}

function guardOver(state: AppState, actions: AppActions, ask: PermissionAsk): boolean {
  const now = actions.now();
  return now - ask.shownAt >= ASK_GUARD_MS && now - state.lastTypedAt >= BURST_GAP_MS;
}

/** Arms the prompt's keys once the guard time has passed and the typing has paused. */
export function armAskGuard(state: AppState, actions: AppActions, ask: PermissionAsk): void {
  if (state.guardTimer) clearTimeout(state.guardTimer);
  const due = Math.max(ask.shownAt + ASK_GUARD_MS, state.lastTypedAt + BURST_GAP_MS) - actions.now();
  state.guardTimer = setTimeout(() => {
    state.guardTimer = null;
    if (state.ask !== ask) return;
    if (!guardOver(state, actions, ask)) return armAskGuard(state, actions, ask);
    ask.guarded = false;
    ask.panel.armed = true;
    actions.render();
  }, Math.max(1, due + 1));
}

/** The open prompt in full, for the pager (one entry: laid out only while shown, like any other). */
function promptSource(p: PermissionPrompt): PagerSource {
  return { count: () => 1, text: () => [p.summary, p.detail?.text ?? "", p.diff ?? "", p.reason].join("\n"), layout: (_i, width) => renderPermissionFull(p, width) };
}
