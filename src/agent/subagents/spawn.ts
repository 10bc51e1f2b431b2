// The children of one session: each agent call's child started, tracked while it runs (its cost so
// far counts in the parent's budget), ended with agent_end in the parent's log (its cost then
// joins the parent's), and cancelled with the parent (Esc, close). A background child's result
// waits as a notice for the parent's next step, or wakes the parent when it is idle.
import { relative } from "node:path";
import { newEventId } from "../../events/id.ts";
import type { AgentEffort, EventSink } from "../../events/types.ts";
import { childLogPath, runChild, zeroUsage, type ChildOutcome, type ChildRequest, type ParentParts } from "./child.ts";

export type Spawned = { agentId: string; outcome: Promise<ChildOutcome> };

export type Children = {
  /** Starts a child; `signal` (the parent's call) cancels it too, unless it runs in the background. */
  start(r: ChildRequest & { effort?: AgentEffort; background: boolean; worktree?: string }, signal: AbortSignal): Spawned;
  /** Cost of the children still running (the ended ones are in the parent's log). */
  runningCost(): number;
  running(): number;
  /** Cancels every running child (Esc on the parent, the session closing). */
  cancelAll(reason?: unknown): void;
  /** Background children's results not yet told to the parent. */
  takeNotices(): string[];
  /** A background child's result for the parent: waits for its next step, and wakes it when idle. */
  notify(text: string): void;
  /** Called when a background child's result is waiting (the mode may wake an idle parent). */
  onNotice(listener: () => void): () => void;
  /** Resolves when no child runs. */
  idle(): Promise<void>;
};

type Running = { controller: AbortController; cost: number; outcome: Promise<ChildOutcome> };

export function createChildren(parent: ParentParts, emit: EventSink): Children {
  const running = new Map<string, Running>();
  const notices: string[] = [];
  const listeners = new Set<() => void>();
  let waiters: Array<() => void> = [];
  const settle = () => {
    if (running.size > 0) return;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  return {
    start(r, signal) {
      const controller = new AbortController();
      if (!r.background) {
        const follow = () => controller.abort(signal.reason);
        if (signal.aborted) follow();
        else signal.addEventListener("abort", follow, { once: true });
      }
      const entry: Running = { controller, cost: 0, outcome: Promise.resolve(null as unknown as ChildOutcome) };
      running.set(r.agentId, entry);
      const logPath = childLogPath(parent, r.agentId);
      emit({
        type: "agent_start",
        agentId: r.agentId,
        toolUseId: r.toolUseId,
        agentType: r.agentType,
        description: r.description,
        model: r.model,
        ...(r.effort ? { effort: r.effort } : {}),
        background: r.background,
        logPath,
        ...(r.worktree ? { worktree: r.worktree } : {}),
      });
      entry.outcome = runChild(parent, r, controller.signal, (c) => void (entry.cost += c))
        .catch((e: unknown): ChildOutcome => ({ status: "failed", text: e instanceof Error ? e.message : String(e), costUsd: entry.cost, usage: zeroUsage(), durationMs: 0, steps: 0, logPath }))
        .then((o) => {
          // Durable, then gone from the running: the parent's cost counts it exactly once.
          emit({
            type: "agent_end",
            id: newEventId(),
            ts: Date.now(),
            agentId: r.agentId,
            toolUseId: r.toolUseId,
            agentType: r.agentType,
            status: o.status,
            costUsd: o.costUsd,
            usage: o.usage,
            durationMs: o.durationMs,
            log: relative(parent.logDir, o.logPath),
            ...(r.background ? { background: true } : {}),
          });
          running.delete(r.agentId);
          settle();
          return o;
        });
      return { agentId: r.agentId, outcome: entry.outcome };
    },
    runningCost: () => [...running.values()].reduce((a, r) => a + r.cost, 0),
    running: () => running.size,
    cancelAll(reason) {
      for (const r of running.values()) r.controller.abort(reason);
    },
    takeNotices: () => notices.splice(0),
    onNotice(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    idle: () => (running.size === 0 ? Promise.resolve() : new Promise<void>((res) => waiters.push(res))),
    notify(text) {
      notices.push(text);
      for (const l of listeners) l();
    },
  };
}
