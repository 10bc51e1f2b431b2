// Rewind from the app (Esc Esc on an empty prompt, or /rewind): the conversation's user messages,
// newest first, in a chooser; then what to restore, or a fork from there (a new session, this one
// kept as it is). The picked message comes back into the prompt to be edited and sent again. The session does the work (AgentSession.rewind) and logs it as an
// event, which the transcript shows with the files put back and those left as the user has them.
import type { RewindPoint } from "../../agent/types.ts";
import type { AppActions } from "./actions.ts";
import { sessionOf, type AppState } from "./state.ts";

/** Two Esc presses this close together on an empty prompt open the chooser. */
export const DOUBLE_ESC_MS = 800;

const CHOICES = {
  both: { conversation: true, code: true },
  conversation: { conversation: true, code: false },
  code: { conversation: false, code: true },
} as const;

/** "14:03" today, "Mar 4 14:03" before. */
function when(ts: number, now: number): string {
  const d = new Date(ts);
  const hm = `${String(d.getHours()).padStart(2, "0")}:${String(d.getMinutes()).padStart(2, "0")}`;
  return new Date(now).toDateString() === d.toDateString() ? hm : `${d.toLocaleString("en-US", { month: "short" })} ${d.getDate()} ${hm}`;
}

/** A message in one line: its first line, clipped, and how many images went with it. */
function oneLine(p: RewindPoint): string {
  const lines = p.text.split("\n");
  let line = (lines.find((l) => l.trim() !== "") ?? "").trim();
  if (line.length > 72) line = `${line.slice(0, 71)}…`;
  const more = lines.filter((l) => l.trim() !== "").length > 1 ? " …" : "";
  const images = p.images > 0 ? ` [${p.images} image${p.images === 1 ? "" : "s"}]` : "";
  return `${line || "(no text)"}${more}${images}`;
}

export function openRewind(state: AppState, actions: AppActions): void {
  if (state.busy) {
    actions.flash("rewind once the agent is done (Esc stops it)");
    return;
  }
  const points = sessionOf(state).rewind.points();
  if (points.length === 0) {
    state.transcript.notice("Nothing to rewind to: no message in this conversation yet.");
    actions.render();
    return;
  }
  const now = actions.now();
  state.hint = null; // "Esc again to rewind" has been done
  actions.choose(
    "Rewind to before which message? (newest first · ↑↓ move · Enter picks · Esc closes)",
    points.map((p) => ({ label: oneLine(p), detail: when(p.ts, now), value: p.id })),
    (id) => chooseWhat(state, actions, points.find((p) => p.id === id)!),
  );
}

function chooseWhat(state: AppState, actions: AppActions, point: RewindPoint): void {
  const off = sessionOf(state).snapshots.off();
  const codeNote = off ? `snapshots are off: ${off}` : "files the agent changed since, bash included; yours are left";
  actions.choose(
    `Rewind to before "${oneLine(point)}": restore what?`,
    [
      { label: "Restore code and conversation", detail: codeNote, value: "both" },
      { label: "Restore conversation", detail: "the files stay as they are", value: "conversation" },
      { label: "Restore code", detail: "the conversation goes on", value: "code" },
      { label: "Fork from here", detail: "a new session with the conversation before it; this one stays as it is", value: "fork" },
      { label: "Cancel", detail: "nothing changes", value: "cancel" },
    ],
    (v) => {
      if (v === "both" || v === "conversation" || v === "code") void rewindTo(state, actions, point, v);
      else if (v === "fork") void forkFrom(state, actions, point);
    },
  );
}

/** A new session from before the message (the files as they are); the message comes back into the prompt there. */
async function forkFrom(state: AppState, actions: AppActions, point: RewindPoint): Promise<void> {
  if (!(await actions.forkFrom(point.id))) return;
  putBack(state, point.text);
  actions.render();
}

/** The message back into the prompt, to be edited and sent again (what was typed meanwhile stays after it). */
function putBack(state: AppState, text: string): void {
  const c = state.composer;
  const typed = c.text;
  c.setText(text);
  if (typed.trim()) {
    c.newline();
    c.insert(typed);
  }
}

async function rewindTo(state: AppState, actions: AppActions, point: RewindPoint, what: keyof typeof CHOICES): Promise<void> {
  const t = state.transcript;
  await actions.runBusy("command", async () => {
    try {
      const out = await sessionOf(state).rewind.to(point.id, CHOICES[what]);
      for (const note of out.notes) t.notice(`Rewind: ${note}.`, "warn");
      if (out.conversation) putBack(state, out.text);
    } catch (e) {
      t.notice(`Rewind failed, nothing changed: ${e instanceof Error ? e.message : String(e)}`, "warn");
    }
  });
}
