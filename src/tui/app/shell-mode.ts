// Shell mode: `!` typed on an empty prompt turns it on (the marker becomes `!`) and, typed again on
// an empty prompt, off; Backspace on an empty prompt and Esc leave it too. While it is on, what is
// sent runs in the user's shell as a `!` command (the app's submit). A typed burst that starts
// with `!` ("!ls" arriving in one read) turns it on with the rest as the command.
import type { AppActions } from "./actions.ts";
import type { Key } from "./app-input.ts";
import { sessionOf, type AppState } from "./state.ts";

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

/** `!command`: the user's own command in their shell, its output shown and kept for the model's next message. */
export function runShellCommand(st: AppState, app: Pick<AppActions, "flash" | "runBusy"> & { renderNow(): void }, command: string, images?: readonly unknown[]): void {
  if (command === "") return;
  if (images?.length) {
    st.transcript.notice("A shell command does not take images: remove the image chips to run it.", "warn");
    app.renderNow();
    return;
  }
  if (st.busy) {
    // It would land in the middle of the agent's turn: it waits in the prompt instead.
    if (st.composer.isEmpty()) {
      st.composer.setText(command);
      st.shellMode = true;
    }
    app.flash("the agent is working: run the command once it is done (or Esc to interrupt)");
    return;
  }
  const session = sessionOf(st);
  void app.runBusy("command", async (signal) => {
    const r = await session.runShell(command, signal);
    if (!r.ran) st.transcript.notice(`Not run: ${r.reason}`, "warn");
  });
}
