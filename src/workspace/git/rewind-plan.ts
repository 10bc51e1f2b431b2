// Which paths a rewind may put back: only what it can prove is the agent's. A path counts as the
// agent's when an agent turn since the target changed it and the user never did: neither between
// two of those turns (the snapshot at one turn's end against the next one's start) nor after the
// last. A path the user touched is left as it is and reported: a rewind never takes back the
// user's own edits, even those made on top of the agent's.
import type { TreeChange } from "./tree-changes.ts";

/** A turn's snapshots: before it ran, and after (null: it never ended, a crash). */
export type TurnSnapshots = { before: string; after: string | null };

export type RewindPlan = { toCheckout: string[]; toRemove: string[]; skipped: Array<{ path: string; reason: string }> };

type Changes = (from: string, to: string, paths?: string[]) => Promise<TreeChange[]>;

export const USER_CHANGED = "you changed it after the agent did; left as you have it";

/** `turns`: the target's turn and every one after it, oldest first; `now`: the work tree's tree now. */
export async function planRewind(changes: Changes, turns: readonly TurnSnapshots[], now: string): Promise<RewindPlan> {
  const plan: RewindPlan = { toCheckout: [], toRemove: [], skipped: [] };
  const first = turns[0];
  if (!first) return plan;
  // A turn that never ended (a crash) ends where the next began: all of it counts as the agent's.
  const ends = turns.map((t, i) => t.after ?? turns[i + 1]?.before ?? now);
  const agent = new Set<string>();
  for (const [i, t] of turns.entries()) for (const c of await changes(t.before, ends[i]!)) agent.add(c.path);
  if (agent.size === 0) return plan;
  const paths = [...agent];
  const user = new Set<string>();
  for (let i = 0; i + 1 < turns.length; i++) for (const c of await changes(ends[i]!, turns[i + 1]!.before, paths)) user.add(c.path);
  for (const c of await changes(ends.at(-1)!, now, paths)) user.add(c.path);
  // What differs from the target's snapshot now; the rest is already as it was.
  for (const c of await changes(first.before, now, paths)) {
    if (user.has(c.path)) plan.skipped.push({ path: c.path, reason: USER_CHANGED });
    else if (c.before) plan.toCheckout.push(c.path);
    else plan.toRemove.push(c.path);
  }
  return plan;
}
