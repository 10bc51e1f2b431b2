// The session's state as the log records it. The log hears every event first, so nothing is shown
// that is not on disk; the model's view and the session's model, mode and cost follow from what
// was written. A turn whose own message could not be saved is given up whole: none of it goes to
// the log or the model, and the app gives the message back to be sent again.
import type { EventBus } from "../events/bus.ts";
import { isDurable, type AgentEvent, type DurableEvent } from "../events/types.ts";
import type { PermissionEngine } from "../permissions/index.ts";
import type { SessionWriter } from "../session/log.ts";

export type SessionRecord = {
  model(): string;
  /** Set for this turn only (a command's model); the log keeps the session's. */
  overrideModel(model: string): void;
  /** What the whole session has cost, earlier runs included. */
  cost(): number;
  /** What this run has spent (--max-budget-usd limits that, not what earlier runs spent). */
  costSinceOpen(): number;
  /** Something was said: closing the session keeps it. */
  spoke(): boolean;
  /** The turn in flight is being given up (its message could not be saved). */
  discarding(): boolean;
  /** The turn is over: the next one is recorded again. */
  endTurn(): void;
};

export type RecordOptions = {
  bus: EventBus;
  writer: SessionWriter;
  /** The model's view: it hears what the log wrote. */
  context: { apply(e: DurableEvent): void };
  engine: Pick<PermissionEngine, "setMode">;
  model: string;
  /** What earlier runs of a resumed session cost. */
  cost: number;
  /** A resumed or forked session was spoken in already. */
  spoke: boolean;
};

/** Subscribes first on the bus: call before anything else subscribes. */
export function recordSession(o: RecordOptions): SessionRecord {
  let model = o.model;
  let cost = o.cost;
  const costAtOpen = cost;
  let spoke = o.spoke;
  let discarding = false;
  o.bus.subscribe((e: AgentEvent) => {
    if (e.type === "user_message") spoke = true;
    if (!isDurable(e) || discarding) return;
    const failedBefore = o.writer.failure !== null;
    o.writer.append(e);
    if (!failedBefore && o.writer.failure && e.type === "user_message" && !e.steering && !e.synthetic) {
      o.writer.discardPending();
      discarding = true;
      return;
    }
    o.context.apply(e);
    // A subagent's cost joins the parent's when it ends (agent_end): what it spent runs up the budget.
    if ((e.type === "assistant_message" || e.type === "compaction" || e.type === "agent_end") && e.costUsd) cost += e.costUsd;
    if (e.type === "setting_change") {
      if (e.model) model = e.model;
      if (e.permissionMode) o.engine.setMode(e.permissionMode);
    }
  });
  return {
    model: () => model,
    overrideModel: (m) => void (model = m),
    cost: () => cost,
    costSinceOpen: () => cost - costAtOpen,
    spoke: () => spoke,
    discarding: () => discarding,
    endTurn: () => void (discarding = false),
  };
}
