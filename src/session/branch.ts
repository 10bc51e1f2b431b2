// The current branch of a session's log: what its rewinds left in effect. The log is append-only,
// so a rewind of the conversation is an event; every replay (the model's view, the app's resumed
// transcript and pager, ACP's session/load, export, a fork's seed) projects the log through this
// one function, so none of them shows the branch a rewind left behind (the log still keeps it).
//
// A rewind keeps the events before its target ("before") or through it ("through") and then stands
// itself at the end of what it kept (it has a notice to give). A target that is not on the branch
// (rewound away earlier, or cut from a fork's seed) cuts nothing: projecting a projected log gives
// the same events.
import type { DurableEvent, RewindEvent } from "../events/types.ts";

/** A rewind that moves the conversation (one of the code only is an ordinary event). */
export const cutsConversation = (e: { type: string }): e is RewindEvent => e.type === "rewind" && (e as RewindEvent).conversation;

/** `kept` (a branch so far) after rewind `r`: cut at its target, the rewind itself last. A fresh array. */
export function afterRewind<T extends { id: string }>(kept: readonly T[], r: RewindEvent & T): T[] {
  const at = kept.findIndex((e) => e.id === r.to);
  const cut = at < 0 ? kept.slice() : kept.slice(0, r.keep === "through" ? at + 1 : at);
  cut.push(r);
  return cut;
}

/** The events of a log on its current branch, in log order. */
export function currentBranch(events: readonly DurableEvent[]): DurableEvent[] {
  let kept: DurableEvent[] = [];
  for (const e of events) {
    if (cutsConversation(e)) kept = afterRewind(kept, e);
    else kept.push(e);
  }
  return kept;
}

/**
 * The current branch up to message `id` (through it, or to just before it): a fork's seed.
 * Null when `id` is not on the branch.
 */
export function branchUpTo(events: readonly DurableEvent[], id: string, keep: RewindEvent["keep"]): DurableEvent[] | null {
  const branch = currentBranch(events);
  const at = branch.findIndex((e) => e.id === id);
  return at < 0 ? null : branch.slice(0, keep === "through" ? at + 1 : at);
}
