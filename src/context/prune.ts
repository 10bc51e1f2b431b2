// The cheap first step of compaction: old tool outputs (beyond the newest ~40k tokens of them) are
// replaced in the model's view by a stub naming where the full output lives. No model call, and
// nothing is lost: the log keeps every output, and large ones are in spill files the model can read.
import type { ConversationView } from "../session/view.ts";
import { contentChars } from "../session/view.ts";
import { estimateTokens } from "./window.ts";

export const PRUNE_KEEP_TOKENS = 40_000;
/** Outputs smaller than this cost less than the stub and a re-run would. */
const MIN_PRUNE_CHARS = 800;

/** tool_use ids whose outputs should be stubbed, oldest first. Pure: the caller records the decision. */
export function planPrune(view: ConversationView, keepTokens = PRUNE_KEEP_TOKENS): string[] {
  const items = view.retained();
  const already = view.pruned();
  let newest = 0;
  const out: string[] = [];
  for (let i = items.length - 1; i >= 0; i--) {
    const e = items[i]!;
    if (e.type !== "tool_result" || already.has(e.toolUseId)) continue;
    const chars = contentChars(e.content);
    if (newest < keepTokens) {
      newest += estimateTokens(chars);
      continue;
    }
    if (chars >= MIN_PRUNE_CHARS) out.push(e.toolUseId);
  }
  return out.reverse();
}
