// Shell mode: `!` typed on an empty prompt turns it on (the marker becomes `!`) and, typed again on
// an empty prompt, off; Backspace on an empty prompt and Esc leave it too. While it is on, what is
// sent runs in the user's shell as a `!` command (the app's submit). A typed burst that starts
// with `!` ("!ls" arriving in one read) turns it on with the rest as the command.
import type { Key } from "./app-input.ts";
import type { AppState } from "./state.ts";

/** True when the event was shell mode's (it toggled or left the mode). */
export function shellModeInput(state: AppState, ev: { type: "text"; text: string } | { type: "paste"; text: string } | Key): boolean {
  const c = state.composer;
  if (!c.isEmpty() || state.picker?.kind === "choose") return false;
  if (ev.type === "text" && ev.text.startsWith("!") && !(state.vim && state.vim.mode === "normal")) {
    if (ev.text === "!") state.shellMode = !state.shellMode;
    else if (!state.shellMode) {
      state.shellMode = true;
      c.insert(ev.text.slice(1));
    } else return false;
    return true;
  }
  if (ev.type === "key" && ev.name === "backspace" && !ev.ctrl && !ev.alt && state.shellMode) {
    state.shellMode = false;
    return true;
  }
  return false;
}

/** The command of a line sent as `!command` (trimmed), or null when the line is not one. */
export function shellCommandOf(text: string): string | null {
  const t = text.trimStart();
  return t.startsWith("!") ? t.slice(1).trim() : null;
}
