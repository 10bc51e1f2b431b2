// In-process fan-out of agent events: the session log, the model's view, the UI or print output
// each subscribe; the kernel only emits.
import type { AgentEvent, EventSink } from "./types.ts";

export type EventBus = { emit: EventSink; subscribe(listener: EventSink): () => void };

export function createEventBus(): EventBus {
  const listeners: EventSink[] = [];
  return {
    emit(e) {
      // Listeners run in subscription order: the log is subscribed first, so an event is on
      // disk before any output claims it happened.
      for (const l of listeners) l(e);
    },
    subscribe(listener) {
      listeners.push(listener);
      return () => {
        const i = listeners.indexOf(listener);
        if (i >= 0) listeners.splice(i, 1);
      };
    },
  };
}

export type { AgentEvent };
