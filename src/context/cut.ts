// Where a summarising compaction cuts: keep a verbatim tail of recent events (about keepTokens),
// starting at an event where no tool_use/tool_result pair is split, and preferring to keep the
// whole current turn when it fits.
import { isSafeCut, type ViewEvent } from "../session/view.ts";
import { blockChars, contentChars } from "../session/view.ts";
import { estimateTokens } from "./window.ts";

export function eventChars(e: ViewEvent): number {
  switch (e.type) {
    case "user_message":
      return typeof e.content === "string" ? e.content.length : e.content.reduce((n, b) => n + blockChars(b), 0);
    case "assistant_message":
      return e.message.content.reduce((n, b) => n + blockChars(b), 0);
    case "tool_result":
      return contentChars(e.content);
    default:
      return 60;
  }
}

export const isRealUserMessage = (e: ViewEvent): boolean => e.type === "user_message" && !e.steering && !e.synthetic;

/** Index of the first kept event, in 1..items.length-1; null when no cut removes anything. */
export function chooseCut(items: readonly ViewEvent[], keepTokens: number): number | null {
  if (items.length < 2) return null;
  // The earliest start whose tail fits the budget.
  let start = items.length - 1;
  let tail = estimateTokens(eventChars(items[start]!));
  while (start > 1) {
    const t = estimateTokens(eventChars(items[start - 1]!));
    if (tail + t > keepTokens) break;
    tail += t;
    start--;
  }
  const lastUser = findLastIndex(items, isRealUserMessage);
  if (lastUser > 0 && lastUser >= start && isSafeCut(items, lastUser)) return lastUser;
  for (let k = start; k < items.length; k++) if (isSafeCut(items, k)) return k;
  for (let k = start - 1; k > 0; k--) if (isSafeCut(items, k)) return k;
  return null;
}

function findLastIndex<T>(xs: readonly T[], p: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (p(xs[i]!)) return i;
  return -1;
}
