// What `khaelor sessions` shows about a session, folded from its events. The writer keeps it
// current as it appends (and caches it beside the log); a listing rescans only logs whose cache
// is stale.
import type { DurableEvent, UserMessageEvent } from "../events/types.ts";

export type SessionSummary = {
  id: string;
  path: string;
  title: string;
  /** ms since the epoch: the time of the last event. */
  lastActivity: number;
  /** User turns (messages the user typed, not steering or policy nudges). */
  turns: number;
  costUsd: number;
  model: string;
  cwd: string;
  forkedFrom?: string;
  /** A newer KHAELOR wrote (part of) this log: why this version cannot continue it. */
  newerFormat?: string;
};

const TITLE_MAX = 80;

/** A session's title: the first thing the user asked, on one line. */
export function titleFrom(content: UserMessageEvent["content"]): string {
  // Context added for the model after the user's words (plan mode's instructions, a hook's) is not a title.
  const text = typeof content === "string" ? content : content.map((b) => (b.type === "text" && !b.text.startsWith("<system-reminder>") ? b.text : "")).join(" ");
  const oneLine = text.trim().replace(/\s+/g, " ");
  return oneLine.length > TITLE_MAX ? `${oneLine.slice(0, TITLE_MAX - 1)}…` : oneLine;
}

export const isUserTurn = (e: DurableEvent): e is UserMessageEvent => e.type === "user_message" && !e.steering && !e.synthetic;

export type SummaryBuilder = { add(e: DurableEvent): void; result(): Omit<SessionSummary, "path">; /** What it has folded so far, to go on from later (the search index keeps it). */ state(): SummaryState };

/** A summary folded up to some point of a log, and whether a /rename set its title (a first message no longer does). */
export type SummaryState = { summary: Omit<SessionSummary, "path">; titleSet: boolean };

export function createSummaryBuilder(fallbackId: string, from?: SummaryState): SummaryBuilder {
  const s: Omit<SessionSummary, "path"> = from ? { ...from.summary } : { id: fallbackId, title: "", lastActivity: 0, turns: 0, costUsd: 0, model: "", cwd: "" };
  let titleSet = from?.titleSet ?? false;
  return {
    add(e) {
      s.lastActivity = Math.max(s.lastActivity, e.ts);
      switch (e.type) {
        case "session_header":
          // The file name is the id (what --resume matches); a copied log keeps its old header.
          s.id ||= e.sessionId;
          s.model = e.model;
          s.cwd = e.cwd;
          if (e.forkedFrom) s.forkedFrom = e.forkedFrom;
          break;
        case "user_message":
          if (!isUserTurn(e)) break;
          s.turns++;
          if (!titleSet && !s.title) s.title = titleFrom(e.display ?? e.content);
          break;
        case "assistant_message":
        case "compaction":
        case "agent_end":
          s.costUsd += e.costUsd ?? 0;
          break;
        case "setting_change":
          if (e.model) s.model = e.model;
          if (e.title !== undefined) {
            s.title = e.title;
            titleSet = true;
          }
          break;
      }
    },
    result: () => ({ ...s }),
    state: () => ({ summary: { ...s }, titleSet }),
  };
}
