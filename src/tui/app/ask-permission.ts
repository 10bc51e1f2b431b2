// The permission panel as the session's Asker: the question waits in the state until a key answers
// it or the turn is cancelled; nothing moves on screen meanwhile (no spinner: live-zone.ts), and keys
// typed just before it showed cannot answer it (the guard in permission-keys.ts).
import { homedir } from "node:os";
import type { AskAnswer, AskRequest } from "../../agent/types.ts";
import type { AppActions } from "./actions.ts";
import { armAskGuard } from "./permission-keys.ts";
import { buildPermissionPrompt } from "./permission-prompt.ts";
import type { AppState } from "./state.ts";

export type AskExtras = {
  cwd: string;
  /** Tells a user away in another window. */
  notifyAway(what: string): void;
};

export function askInPanel(app: AppActions & { readonly state: AppState; renderNow(): void }, req: AskRequest, signal: AbortSignal, extra: AskExtras): Promise<AskAnswer> {
  const st = app.state;
  return new Promise<AskAnswer>((resolve) => {
    const prompt = buildPermissionPrompt(req, extra.cwd);
    const offer = req.sandboxOffer;
    if (offer) Object.assign(prompt, { alwaysRule: "", offer: { grant: offer.grant, outside: offer.outside } });
    const finish = (a: AskAnswer) => {
      if (st.ask?.resolve !== finish) return;
      st.ask = null;
      signal.removeEventListener("abort", onAbort);
      if (st.guardTimer) clearTimeout(st.guardTimer);
      st.guardTimer = null;
      if (st.pager?.ofPrompt) app.closePager();
      st.transcript.restartClock(req.call.id, app.now());
      resolve(a);
      app.renderNow();
    };
    const onAbort = () => finish({ allow: false });
    signal.addEventListener("abort", onAbort, { once: true });
    const plan = req.preview?.plan;
    st.ask = {
      panel: { prompt, message: null, armed: false },
      resolve: finish,
      toolUseId: req.call.id,
      suggestion: !!req.suggestion,
      shownAt: app.now(),
      guarded: true,
      ...(offer ? { offer: { outside: offer.outside } } : {}),
      ...(plan ? { plan: { plan: plan.text, file: homeShort(plan.file), selected: 0, feedback: null } } : {}),
    };
    if (st.pager) app.closePager();
    armAskGuard(st, app, st.ask);
    app.renderNow();
    extra.notifyAway(plan ? "a plan is ready for your review" : offer ? "the sandbox blocked a command" : "waiting for your permission");
  });
}

/** A path with ~ for the home directory, as the user types it. */
export function homeShort(path: string, home = homedir()): string {
  return path.startsWith(home + "/") ? `~/${path.slice(home.length + 1)}` : path;
}
