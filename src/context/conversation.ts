// The ConversationContext the kernel talks to: the session's view of the conversation, its token
// budget, and compaction (prune first, then summarise), recorded as compaction events.
import { newEventId } from "../events/id.ts";
import type { AgentEvent, CompactionEvent, DurableEvent } from "../events/types.ts";
import type { ConversationContext } from "../kernel/types.ts";
import { costUsd } from "../model/models.ts";
import { ModelError, type Message, type ModelClient, type Usage } from "../model/types.ts";
import { createConversationView, type ConversationView } from "../session/view.ts";
import { summarise } from "./checkpoint.ts";
import { chooseCut, isRealUserMessage } from "./cut.ts";
import { planPrune, PRUNE_KEEP_TOKENS } from "./prune.ts";
import { contextWindowFor, estimateTokens } from "./window.ts";

export type ConversationContextOptions = {
  client: ModelClient;
  /** What a call costs (the provider's prices); Anthropic's list prices by default. */
  costOf?: (model: string, usage: Usage) => number | null;
  /** The session's current model (it can change mid-session). */
  model: () => string;
  /**
   * Where compaction events (and the breaker's error) go: the session's event bus, which writes
   * them to the log. Applying them back here is harmless: the view ignores an event it has seen.
   */
  emit: (e: AgentEvent) => void;
  /** The session's events so far (a resume); or pass `view` already built by replaySession. */
  events?: DurableEvent[];
  view?: ConversationView;
  /** Overrides the model table (tests, unknown models). */
  contextWindow?: number;
  /** Compaction starts when the view passes the window minus this. */
  reserveTokens?: number;
  /** Newest tool output (in tokens) that pruning never touches. */
  pruneKeepTokens?: number;
  /** Verbatim tail (in tokens) a summarising compaction keeps. */
  keepTailTokens?: number;
};

export type SessionContext = ConversationContext & {
  apply(e: DurableEvent): void;
  /** Shrink the view now; `instructions` steer the checkpoint (`/compact <instructions>`). */
  compact(trigger: CompactionEvent["trigger"], signal?: AbortSignal, instructions?: string): Promise<boolean>;
  /** Estimated tokens of the next request (system + tools + messages). */
  tokens(): number;
  contextWindow(): number;
  readonly view: ConversationView;
};

export const RESERVE_TOKENS = 20_000;
const BREAKER_LIMIT = 3;
/** Before the last response is measured: a guess for the system prompt and tool definitions. */
const DEFAULT_OVERHEAD_TOKENS = 6_000;

export function createConversationContext(opts: ConversationContextOptions): SessionContext {
  const view = opts.view ?? createConversationView();
  const reserve = opts.reserveTokens ?? RESERVE_TOKENS;
  const windowOf = () => opts.contextWindow ?? contextWindowFor(opts.model());
  const threshold = () => windowOf() - reserve;
  // "Enough" leaves room for a few more turns; a compaction that lands just under the threshold
  // would only trigger the next one.
  const target = () => Math.floor(threshold() * 0.75);
  const keepTail = () => opts.keepTailTokens ?? Math.min(20_000, Math.floor(windowOf() * 0.1));

  // Token accounting: the API's count for everything up to the last response, plus an estimate
  // of what the view gained since. `overhead` is what the count includes beyond the messages.
  let anchor: { tokens: number; chars: number } | null = null;
  let overhead = DEFAULT_OVERHEAD_TOKENS;
  let failedInARow = 0;
  let breakerMessage: string | null = null;

  const apply = (e: DurableEvent) => {
    view.apply(e);
    if (e.type === "assistant_message") {
      const u = e.message.usage;
      const total = u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens + u.output_tokens;
      if (total > 0) {
        anchor = { tokens: total, chars: view.chars() };
        overhead = Math.max(0, total - estimateTokens(view.chars()));
      }
    } else if (e.type === "compaction" || e.type === "rewind") anchor = null;
  };
  for (const e of opts.events ?? []) apply(e);

  const tokens = () => (anchor ? anchor.tokens + estimateTokens(Math.max(0, view.chars() - anchor.chars)) : overhead + estimateTokens(view.chars()));

  /** Tokens the view would have after `event`, measured on a scratch copy. */
  const tokensAfter = (event: CompactionEvent): number => {
    const scratch = createConversationView();
    if (view.summary()) scratch.apply({ ...event, id: `${event.id}-prev`, summary: view.summary(), firstKeptEventId: view.retained()[0]?.id ?? "" });
    for (const e of view.retained()) scratch.apply(e);
    scratch.apply({ ...event, prunedToolUseIds: [...view.pruned(), ...(event.prunedToolUseIds ?? [])] });
    return overhead + estimateTokens(scratch.chars());
  };

  const record = (e: CompactionEvent) => {
    apply(e);
    opts.emit(e);
  };

  const trip = (before: number, after: number) => {
    failedInARow++;
    if (failedInARow < BREAKER_LIMIT) return;
    breakerMessage = `Compaction ran ${failedInARow} times in a row without bringing the conversation under the context window (${after.toLocaleString("en-US")} of ${windowOf().toLocaleString("en-US")} tokens, from ${before.toLocaleString("en-US")}). Start a new session, or run /compact with instructions to keep less.`;
    opts.emit({ type: "error", id: newEventId(), ts: Date.now(), kind: "compaction_breaker", message: breakerMessage });
  };

  /** Records a compaction, measured; one that did not get under the target counts toward the breaker. */
  const settle = (e: CompactionEvent, before: number): number => {
    const after = tokensAfter(e);
    record({ ...e, tokensAfter: after });
    if (after <= target()) failedInARow = 0;
    else trip(before, after);
    return after;
  };

  async function compact(trigger: CompactionEvent["trigger"], signal?: AbortSignal, instructions?: string): Promise<boolean> {
    if (trigger === "manual") {
      failedInARow = 0;
      breakerMessage = null;
    }
    if (breakerMessage) return false;
    opts.emit({ type: "compacting", trigger });
    const before = tokens();
    const base = {
      type: "compaction" as const,
      trigger,
      tokensBefore: before,
      summary: view.summary(),
      firstKeptEventId: view.retained()[0]?.id ?? "",
    };

    // 1. Prune: enough on its own for an automatic compaction when it gets under the target.
    const prunable = planPrune(view, opts.pruneKeepTokens ?? PRUNE_KEEP_TOKENS);
    if (trigger === "auto" && prunable.length > 0) {
      const draft: CompactionEvent = { ...base, id: newEventId(), ts: Date.now(), prunedToolUseIds: prunable, tokensAfter: 0 };
      const after = tokensAfter(draft);
      if (after <= target()) {
        record({ ...draft, tokensAfter: after });
        failedInARow = 0;
        return true;
      }
    }

    // 2. Summarise everything before a verbatim tail.
    const items = view.retained();
    // /compact asks to shrink now: keep only the current turn verbatim, summarise the rest.
    const cut = chooseCut(items, trigger === "manual" ? 0 : keepTail());
    if (cut === null) {
      if (prunable.length === 0) {
        trip(before, before);
        return false;
      }
      return settle({ ...base, id: newEventId(), ts: Date.now(), prunedToolUseIds: prunable, tokensAfter: 0 }, before) < before;
    }

    const checkpoint = await summariseBefore(opts, view, cut, windowOf(), instructions, signal);
    if (checkpoint === null) return false;
    const { summary, call } = checkpoint;
    const e: CompactionEvent = {
      ...base,
      id: newEventId(),
      ts: Date.now(),
      summary,
      firstKeptEventId: items[cut]!.id,
      prunedToolUseIds: prunable,
      tokensAfter: 0,
      ...call,
    };
    const after = settle(e, before);
    // A short conversation can grow by its summary; /compact still did what it was asked.
    return trigger === "manual" || after < before;
  }

  return {
    view,
    apply,
    messages: (): Message[] => view.messages(),
    needsCompaction: () => {
      const t = tokens();
      if (breakerMessage && t <= threshold()) {
        // The conversation shrank by other means (a new session state, a smaller model switch back).
        breakerMessage = null;
        failedInARow = 0;
      }
      return !breakerMessage && t > threshold();
    },
    compact,
    tokens,
    contextWindow: windowOf,
  };
}

/**
 * The checkpoint that replaces the events before `cut`, and what it cost; null when the user
 * aborted it. The newest thing the user asked is never paraphrased: it follows the summary verbatim.
 */
async function summariseBefore(
  opts: ConversationContextOptions,
  view: ConversationView,
  cut: number,
  contextWindow: number,
  instructions: string | undefined,
  signal: AbortSignal | undefined,
): Promise<{ summary: string; call: { usage: Usage; costUsd: number | null } } | null> {
  let summary: string;
  let call: { usage: Usage; costUsd: number | null };
  try {
    const r = await summarise({
      client: opts.client,
      model: opts.model(),
      messages: messagesBefore(view, cut),
      contextWindow,
      instructions,
      signal,
      onRetry: (ev) => opts.emit({ type: "api_retry", attempt: ev.attempt, maxRetries: ev.maxRetries, delayMs: ev.delayMs, status: ev.status, message: ev.message }),
    });
    summary = r.text;
    // The checkpoint costs money like any other call: it is billed in the session's totals.
    call = { usage: r.usage, costUsd: (opts.costOf ?? costUsd)(r.model, r.usage) };
  } catch (err) {
    if (err instanceof ModelError && err.kind === "aborted") return null;
    throw err;
  }
  const items = view.retained();
  const lastUser = findLastIndex(items, isRealUserMessage);
  if (lastUser >= 0 && lastUser < cut) {
    const u = items[lastUser]!;
    if (u.type === "user_message") summary += `\n\n## The user's latest message (verbatim)\n\n${textOf(u.content)}`;
  }
  return { summary, call };
}

/** The messages of the events before `cut` (what the checkpoint replaces), built by the same rules as the view. */
function messagesBefore(view: ConversationView, cut: number): Message[] {
  const scratch = createConversationView();
  if (view.summary()) scratch.apply({ type: "compaction", id: "prev", ts: 0, summary: view.summary(), firstKeptEventId: "", tokensBefore: 0, tokensAfter: 0, trigger: "auto" });
  const items = view.retained();
  for (let i = 0; i < cut; i++) scratch.apply(items[i]!);
  return scratch.messages();
}

const textOf = (c: string | Array<{ type: string; text?: string }>): string =>
  typeof c === "string" ? c : c.map((b) => (b.type === "text" ? (b.text ?? "") : "[image]")).join("\n");

function findLastIndex<T>(xs: readonly T[], p: (x: T) => boolean): number {
  for (let i = xs.length - 1; i >= 0; i--) if (p(xs[i]!)) return i;
  return -1;
}

