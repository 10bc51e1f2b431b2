// Where the prompt-cache breakpoints go. The API caches the prefix up to each block marked with
// cache_control, allows at most 4 marks per request, and on lookup walks back at most 20 blocks from
// a mark. So: the system prompt keeps its own marks (the static block: tools + identity, shared by
// every session), the newest message gets one (this turn writes the whole conversation), and the
// newest message of the previous request gets one (this turn reads exactly what the last turn
// wrote, even when a turn added more than 20 blocks).
import type { AssistantBlock, CacheControl, Message, SystemBlock, UserBlock } from "./types.ts";

export const MAX_CACHE_BREAKPOINTS = 4;
const EPHEMERAL: CacheControl = { type: "ephemeral" };

/** A message as sent: its blocks may carry cache_control (the API accepts it on any content block but thinking). */
export type WireBlock = (UserBlock | AssistantBlock) & { cache_control?: CacheControl };
export type WireMessage = { role: Message["role"]; content: string | WireBlock[] };

/**
 * Returns copies with breakpoints placed; the caller's arrays and blocks are never mutated.
 * System marks are kept (trimmed to the budget, oldest first) and messages get the rest, newest first.
 */
export function applyCacheControl(system: SystemBlock[], messages: Message[]): { system: SystemBlock[]; messages: WireMessage[] } {
  let budget = MAX_CACHE_BREAKPOINTS;
  const sys = system.map((b) => {
    if (!b.cache_control) return b;
    if (budget > 0) {
      budget--;
      return b;
    }
    const { cache_control: _, ...rest } = b;
    return rest;
  });
  const out: WireMessage[] = messages.slice();
  for (const i of breakpointMessages(messages).slice(0, Math.min(budget, 2))) out[i] = markLastBlock(messages[i]!);
  return { system: sys, messages: out };
}

/** Newest message, then the newest user message before the newest assistant message (the previous request's end). */
function breakpointMessages(messages: Message[]): number[] {
  const last = messages.length - 1;
  if (last < 0) return [];
  const out = [last];
  let lastAssistant = -1;
  for (let i = last; i >= 0; i--)
    if (messages[i]!.role === "assistant") {
      lastAssistant = i;
      break;
    }
  for (let i = lastAssistant - 1; i >= 0; i--)
    if (messages[i]!.role === "user") {
      if (i !== last) out.push(i);
      break;
    }
  return out;
}

function markLastBlock(m: Message): WireMessage {
  if (typeof m.content === "string") return { role: m.role, content: [{ type: "text", text: m.content, cache_control: EPHEMERAL }] };
  const blocks: WireBlock[] = m.content.slice();
  // Thinking blocks cannot carry cache_control; mark the last block that can.
  for (let j = blocks.length - 1; j >= 0; j--) {
    const b = blocks[j]!;
    if (b.type === "thinking" || b.type === "redacted_thinking") continue;
    if (b.type === "text" && b.text === "") continue;
    blocks[j] = { ...b, cache_control: EPHEMERAL };
    break;
  }
  return { role: m.role, content: blocks };
}
