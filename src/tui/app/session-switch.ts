// /clear and /resume: the next session opens first (the old one goes on when it cannot), then the
// old one ends, then the next one starts. What they say uses short ids (the first 8 characters,
// which --resume accepts as a prefix) and the session's title where it has one, not full UUIDs.
import type { AgentSession, PlanHandoff } from "../../agent/types.ts";
import type { PermissionMode } from "../../events/types.ts";
import { listSessions } from "../../session/store.ts";
import type { Row, Style } from "../render/style.ts";
import type { Screen } from "../screen/screen.ts";
import { cleanText, proseRows, span } from "../views/text.ts";
import { ui } from "../views/theme.ts";
import type { AppDeps } from "./app-deps.ts";
import { homeShort } from "./ask-permission.ts";
import { sessionOf, type AppState } from "./state.ts";
import { runningProcessLines } from "./stopped-processes.ts";

export type SessionSwap = {
  /** The next session is a fork of `resume` (rewind's "fork from here"), not `resume` itself. */
  forked?: boolean;
  /** Opens the next session (/clear: keeping the old one's model and mode). */
  reopen(old: AgentSession): Promise<AgentSession>;
  /** The old session's events stop reaching the app. */
  detach(): void;
  attach(next: AgentSession): void;
};

/** What App lends the switches: its state and screen, and the few of its acts they need. */
export type SwitchHost = {
  state: AppState;
  screen: Screen;
  reopen: AppDeps["reopen"];
  flash(text: string): void;
  runBusy(kind: "command", work: (signal: AbortSignal) => Promise<void>): Promise<void>;
  renderNow(): void;
  /** The current session's events stop reaching the app. */
  detach(): void;
  attach(next: AgentSession): void;
  exiting(): boolean;
  runTurn(text: string): void;
};

const BUSY = "the agent is working: press Esc to interrupt it first";

/** /clear (no `resume`) and /resume. */
export async function switchSession(h: SwitchHost, resume: string | null): Promise<void> {
  if (h.state.busy) return h.flash(BUSY);
  // /clear starts over in the conversation, not in the settings: the model and mode chosen stay.
  await swapSession(h, resume, (old) => (resume ? undefined : { model: old.model(), permissionMode: old.permissionMode() }));
}

/** Rewind's "fork from here": true when the app now shows the fork. */
export async function forkSession(h: SwitchHost, id: string): Promise<boolean> {
  if (h.state.busy) {
    h.flash(BUSY);
    return false;
  }
  const from = sessionOf(h.state).sessionId;
  // The fork goes on with this run's model and mode; its log starts with the conversation before the message.
  await swapSession(h, from, (old) => ({ model: old.model(), permissionMode: old.permissionMode() }), { before: id });
  return h.state.session?.sessionId !== from;
}

/**
 * "Approve, clear the context and implement": a new session (the planning one kept, resumable),
 * accepting edits, whose first prompt is the user's request and the approved plan.
 */
export async function implementPlan(h: SwitchHost, plan: PlanHandoff): Promise<void> {
  const before = sessionOf(h.state).sessionId;
  await swapSession(h, null, (old) => ({ model: old.model(), permissionMode: "acceptEdits" }));
  if (h.state.session?.sessionId === before || h.exiting()) return;
  h.state.transcript.notice(`Implementing the approved plan (${homeShort(plan.planFile)}) in a new session with a clean context.`, "info");
  h.runTurn(plan.prompt);
}

async function swapSession(
  h: SwitchHost,
  resume: string | null,
  keep: (old: AgentSession) => { model: string; permissionMode: PermissionMode } | undefined,
  fork?: { before: string },
): Promise<void> {
  // Busy for the whole switch (SessionEnd and SessionStart hooks may take a minute each): a
  // prompt typed meanwhile must not run unseen in a session on its way out.
  await h.runBusy("command", () =>
    replaceSession(h.state, h.screen, sessionOf(h.state), resume, {
      forked: fork !== undefined,
      reopen: (old) => h.reopen(resume, keep(old), fork),
      detach: () => h.detach(),
      attach: (next) => h.attach(next),
    }),
  );
  h.renderNow();
}

export async function replaceSession(st: AppState, screen: Screen, old: AgentSession, resume: string | null, swap: SessionSwap): Promise<void> {
  let next: AgentSession;
  try {
    next = await swap.reopen(old);
  } catch (e) {
    // The old session goes on, its SessionEnd hooks not run: it has not ended.
    st.transcript.notice(`Could not open the session: ${e instanceof Error ? e.message : String(e)}`, "error");
    return;
  }
  swap.detach();
  const stopped = runningProcessLines(old);
  // A session nobody spoke in is removed as it closes: there is nothing to point back to.
  const oldKept = !old.isEmpty();
  // Claude Code's order: the old session's SessionEnd hooks ("clear") run before the next one's SessionStart.
  await old.close(resume ? "other" : "clear");
  await next.start();
  st.queued = [];
  // Between words as the "wrap" setting says; a long line (a path) fills to the edge in soft rows, so it copies as one line.
  const rows = (lines: string[], style: Style): Row[] => lines.flatMap((line) => proseRows([span(cleanText(line), style)], st.width, [], [], st.committer.wordWrap));
  screen.commit([{ spans: [] }, ...rows(stopped, ui.warn), ...rows(sessionSwitchLines(old.cwd, { oldId: old.sessionId, oldKept, newId: next.sessionId, resumed: resume !== null && !swap.forked, forked: swap.forked === true }), ui.accent)]);
  swap.attach(next);
}

export const shortId = (id: string): string => id.slice(0, 8);

export type SessionSwitch = {
  oldId: string;
  /** False when the old session was empty: closing it removed it, so it cannot be resumed. */
  oldKept: boolean;
  newId: string;
  resumed: boolean;
  /** The new session is a fork of the old one from an earlier message. */
  forked?: boolean;
};

export function sessionSwitchLines(cwd: string, s: SessionSwitch): string[] {
  let titles = new Map<string, string>();
  try {
    titles = new Map(listSessions(cwd).map((x) => [x.id, x.title]));
  } catch {
    // Titles are a nicety: the ids say enough.
  }
  const named = (id: string) => {
    const title = titles.get(id);
    return title ? `${shortId(id)} (${title})` : shortId(id);
  };
  if (s.resumed) return [`Resumed session ${named(s.newId)}`];
  if (s.forked) return [`Forked: new session ${shortId(s.newId)}, from before that message. The original, ${named(s.oldId)}, stays as it was, resumable with:`, `khaelor --resume ${shortId(s.oldId)}`];
  if (!s.oldKept) return [`New session ${shortId(s.newId)}. Nothing was said in the previous one, so it was not kept.`];
  return [`New session ${shortId(s.newId)}. The previous one, ${named(s.oldId)}, stays resumable with:`, `khaelor --resume ${shortId(s.oldId)}`];
}
