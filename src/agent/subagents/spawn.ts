// The children of one session: each agent call's child started, tracked while it runs (its cost so
// far counts in the parent's budget), ended with agent_end in the parent's log (its cost then
// joins the parent's), and cancelled with the parent (Esc, close). A background child's result
// waits as a notice for the parent's next step, or wakes the parent when it is idle.
import { relative } from "node:path";
import { newEventId } from "../../events/id.ts";
import type { AgentEffort, EventSink } from "../../events/types.ts";
import { childLogPath, runChild, zeroUsage, type ChildOutcome, type ChildRequest, type ParentParts } from "./child.ts";

export type Settled = { worktree?: { path: string; branch: string }; notice?: string };
export type Spawned<S extends Settled> = { agentId: string; outcome: Promise<ChildOutcome & S> };

export type Children = {
  /** Starts a child; `signal` (the parent's call) cancels it too, unless it runs in the background. */
  /**
   * `settle` runs once the child has ended, before its agent_end and before it stops counting as
   * running (a worktree kept or removed; a background result told to the parent).
   */
  start<S extends Settled>(r: Request, signal: AbortSignal, settle: (o: ChildOutcome) => Promise<S>): Spawned<S>;
  /** Cost of the children still running (the ended ones are in the parent's log). */
  runningCost(): number;
  running(): number;
  /** Cancels every running child (Esc on the parent, the session closing). */
  cancelAll(reason?: unknown): void;
  /** Background children's results not yet told to the parent. */
  takeNotices(): string[];
  /** How many such results wait. */
  pending(): number;
  /** A background child's result for the parent: waits for its next step, and wakes it when idle. */
  notify(text: string): void;
  /** Called when a background child's result is waiting (the mode may wake an idle parent). */
  onNotice(listener: () => void): () => void;
  /** Resolves when no child runs. */
  idle(): Promise<void>;
  /**
   * An agent of this session by its id or its first call's, for SendMessage: a running one with its message queue, an
   * ended one with the request it was started with (to go on from its log); null if unknown.
   */
  find(agentId: string): { running: true; send(message: string): void } | { running: false; request: ChildRequest & { effort?: AgentEffort; background: boolean; worktree?: string } } | null;
  /** Ids of this session's agents, for an unknown one's error. */
  ids(): string[];
};

type Request = ChildRequest & { effort?: AgentEffort; background: boolean; worktree?: string };
type Running = { controller: AbortController; cost: number; inbox: string[] };

export function createChildren(parent: ParentParts, emit: EventSink): Children {
  const running = new Map<string, Running>();
  const ended = new Map<string, Request>();
  /** The agent each agent call started, by the call's id. */
  const startedBy = new Map<string, string>();
  const notices: string[] = [];
  const listeners = new Set<() => void>();
  let waiters: Array<() => void> = [];
  const notify = (text: string) => {
    notices.push(text);
    for (const l of listeners) l();
  };
  const wakeWaiters = () => {
    if (running.size > 0) return;
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  return {
    start(r, signal, settle) {
      const controller = new AbortController();
      if (!r.background) {
        const follow = () => controller.abort(signal.reason);
        if (signal.aborted) follow();
        else signal.addEventListener("abort", follow, { once: true });
      }
      const entry: Running = { controller, cost: 0, inbox: [] };
      running.set(r.agentId, entry);
      ended.delete(r.agentId);
      if (!startedBy.has(r.toolUseId)) startedBy.set(r.toolUseId, r.agentId);
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
      const outcome = runChild(parent, { ...r, takeMessages: () => entry.inbox.splice(0) }, controller.signal, (c) => void (entry.cost += c))
        .catch((e: unknown): ChildOutcome => ({ status: "failed", text: e instanceof Error ? e.message : String(e), costUsd: entry.cost, usage: zeroUsage(), durationMs: 0, steps: 0, logPath }))
        .then(async (o) => ({ ...o, ...(await settle(o)) }))
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
            ...(o.worktree ? { worktree: o.worktree } : {}),
          });
          running.delete(r.agentId);
          // What SendMessage goes on from: its log has the conversation, not its first prompt.
          const { history: _h, takeMessages: _t, ...rest } = r;
          ended.set(r.agentId, rest);
          if (o.notice) notify(o.notice);
          wakeWaiters();
          return o;
        });
      return { agentId: r.agentId, outcome };
    },
    runningCost: () => [...running.values()].reduce((a, r) => a + r.cost, 0),
    running: () => running.size,
    cancelAll(reason) {
      for (const r of running.values()) r.controller.abort(reason);
    },
    takeNotices: () => notices.splice(0),
    pending: () => notices.length,
    onNotice(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    idle: () => (running.size === 0 ? Promise.resolve() : new Promise<void>((res) => waiters.push(res))),
    find(to) {
      // By its id, or by the call that started it (the id a scripted or careful model has at hand).
      const id = running.has(to) || ended.has(to) ? to : (startedBy.get(to) ?? to);
      const r = running.get(id);
      if (r) return { running: true, send: (m) => void r.inbox.push(m) };
      const e = ended.get(id);
      return e ? { running: false, request: e } : null;
    },
    ids: () => [...running.keys(), ...ended.keys()],
    notify,
  };
}
