// Rewind: back to an earlier user message of this session, the conversation, the code or both.
// A rewind is an event in the log (the model's view is projected without what it dropped, and the
// abandoned branch stays in the log); the code comes back from the session's own snapshots, bash
// changes included, never over what the user changed after the agent.
import type { EventBus } from "../events/bus.ts";
import { newEventId } from "../events/id.ts";
import type { DurableEvent, RewindEvent, UserMessageEvent } from "../events/types.ts";
import type { ConversationView } from "../session/view.ts";
import type { GitProtection } from "../workspace/git/index.ts";
import type { RewindOutcome, RewindPoint } from "./types.ts";

/** The target is not a message of the conversation as it stands (rewound away, or never in it). */
export class RewindTargetError extends Error {}

export type RewindDeps = {
  bus: EventBus;
  view: ConversationView;
  git: Pick<GitProtection, "unavailable" | "rewind">;
  /** A turn is running: the conversation cannot move under it. */
  busy(): boolean;
};

const isTyped = (e: DurableEvent): e is UserMessageEvent => e.type === "user_message" && !e.steering && !e.synthetic;

export function textOf(content: UserMessageEvent["content"]): string {
  return typeof content === "string" ? content : content.flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
}

export function createRewind(d: RewindDeps) {
  const emit = (e: Omit<RewindEvent, "id" | "ts" | "type">) => d.bus.emit({ ...e, type: "rewind", id: newEventId(), ts: Date.now() });
  const notInConversation = (id: string) =>
    new RewindTargetError(`message ${id} is not in this session's conversation (it was rewound away earlier, or belongs to another session); nothing was changed`);

  return {
    points(): RewindPoint[] {
      return d.view
        .history()
        .filter(isTyped)
        .map((e) => ({ id: e.id, ts: e.ts, text: e.display ?? textOf(e.content), images: typeof e.content === "string" ? 0 : e.content.filter((b) => b.type === "image").length }))
        .reverse();
    },

    async to(id: string, choice: { conversation: boolean; code: boolean }): Promise<RewindOutcome> {
      if (d.busy()) throw new Error("a turn is running: rewind once it has ended (Esc stops it)");
      const history = d.view.history();
      const at = history.findIndex((e) => e.id === id);
      const target = history[at];
      if (!target || !isTyped(target)) throw notInConversation(id);
      const notes: string[] = [];
      let code: RewindOutcome["code"] = null;
      if (choice.code) {
        if (d.git.unavailable) notes.push(`the files were not restored: snapshots are off (${d.git.unavailable})`);
        else {
          // Every message logged from the target on, abandoned branches too: their turns came later.
          const applied = d.view.applied();
          const from = applied.findIndex((e) => e.id === id);
          code = await d.git.rewind(applied.slice(from).filter(isTyped).map((e) => e.id));
          if (!code) notes.push("no file had changed since that message");
        }
      }
      if (choice.conversation && history.slice(at).some((e) => e.type === "compaction"))
        notes.push("the conversation was compacted after that message: the summary is dropped and the earlier messages are sent verbatim again (the next request compacts anew if they no longer fit)");
      // Conversation only: the files may hold what the dropped messages did; the model is told so.
      const filesKept = choice.conversation && !choice.code;
      if (choice.conversation || code) emit({ to: id, keep: "before", conversation: choice.conversation, ...(code ? { code } : {}), ...(filesKept ? { filesKept } : {}) });
      return { text: target.display ?? textOf(target.content), conversation: choice.conversation, code, notes };
    },

    /** --resume-session-at: the conversation continues from `id`, any message still in it. */
    continueAt(id: string): void {
      if (!d.view.history().some((e) => e.id === id && e.type !== "compaction" && e.type !== "rewind")) throw notInConversation(id);
      emit({ to: id, keep: "through", conversation: true });
    },
  };
}
