// ModelClient over @anthropic-ai/sdk streaming. We own the retry policy (the SDK's is off), so
// every retry is a visible `retry` event and none is doubled.
//
// Retries and partial output: a retryable failure can happen after deltas were yielded (a stream
// cut or an `error` event mid-message). We then yield `{type: "retry", partialDiscarded: true}` and
// start over; the consumer must drop everything it got since the last `message_start`. The
// finished message (`message_done`) only ever holds the blocks of the attempt that completed.
import type { MessageCreateParamsStreaming, RawMessageStreamEvent } from "@anthropic-ai/sdk/resources/messages/messages";
import { applyCacheControl, type WireMessage } from "./cache-control.ts";
import { classifyError } from "./classify-error.ts";
import { MessageAssembler } from "./message-assembler.ts";
import { effortFor } from "./effort.ts";
import { maxTokensFor, modelInfo } from "./models.ts";
import { ModelError, type CountRequest, type ModelClient, type ModelEvent, type ModelRequest } from "./types.ts";
import { ANTHROPIC_HINTS, anthropicConnection } from "./providers/anthropic.ts";
import type { Connection, SdkClient } from "./providers/types.ts";
import { ABORTED, IDLE, StreamGuard } from "./stream-guard.ts";

export type RetryOptions = {
  maxRetries?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** The longest Retry-After we wait out; past it the turn stops with the server's hint. */
  maxRetryAfterMs?: number;
};

export type AnthropicClientOptions = {
  /** Defaults to ANTHROPIC_API_KEY; ANTHROPIC_AUTH_TOKEN is used when neither is set. */
  apiKey?: string;
  /** Defaults to ANTHROPIC_BASE_URL, then https://api.anthropic.com. */
  baseURL?: string;
  retry?: RetryOptions;
  /** A stream silent for this long (no event, not even a ping) is treated as cut. Default 120 s. */
  idleTimeoutMs?: number;
  /** The provider to send to (src/model/providers); without it, Anthropic's API with the key above. */
  connection?: Connection;
};

const DEFAULT_RETRY: Required<RetryOptions> = { maxRetries: 8, baseDelayMs: 500, maxDelayMs: 32_000, maxRetryAfterMs: 120_000 };

/** setTimeout's limit (a signed 32-bit ms count): longer delays fire at once, with a warning. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** "in 58 minutes (at 15:04)": a server's wait, readable. */
function describeWait(ms: number): string {
  const at = new Date(Date.now() + ms);
  const mins = Math.round(ms / 60_000);
  const span = ms < 90_000 ? `${Math.round(ms / 1000)} s` : mins < 90 ? `${mins} minutes` : `${Math.round(mins / 60)} hours`;
  return `in ${span} (at ${at.toTimeString().slice(0, 5)})`;
}

/** Exponential backoff with up to 25% jitter below the capped value; the server's retry-after wins when given. */
export function retryDelayMs(attempt: number, retry: Required<RetryOptions>, retryAfterMs: number | null): number {
  if (retryAfterMs !== null) return retryAfterMs;
  const capped = Math.min(retry.maxDelayMs, retry.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(capped * (1 - Math.random() * 0.25));
}

export function createAnthropicClient(opts: AnthropicClientOptions = {}): ModelClient {
  const retry = { ...DEFAULT_RETRY, ...opts.retry };
  const idleTimeoutMs = opts.idleTimeoutMs ?? 120_000;
  const connection = opts.connection ?? firstParty(opts);
  const baseURL = connection.baseURL;

  async function* stream(req: ModelRequest): AsyncGenerator<ModelEvent> {
    let params = { ...requestParams(req), model: connection.wireModel(req.model) };
    const ctx = { model: req.model, baseURL, hints: connection.hints, kind: connection.kind };
    let renew = false;
    let renewed = false;
    let overloads = 0;
    for (let attempt = 0; ; attempt++) {
      const asm = new MessageAssembler();
      try {
        const sdk = await connection.sdk(renew);
        renew = false;
        yield* streamOnce(sdk, params, asm, req.signal, idleTimeoutMs);
        return;
      } catch (e) {
        if (req.signal?.aborted) throw new ModelError("aborted", "Interrupted by the user.", null, asm.partial(), null, asm.usageSoFar());
        const { error, retryAfterMs } = classifyError(e, ctx);
        // A refused key from a helper is worth one more try with a fresh one (it may have rotated).
        if (error.status === 401 && connection.renewable && !renewed && !asm.yieldedDelta) {
          renew = renewed = true;
          attempt--;
          continue;
        }
        if (error.kind !== "retryable") throw error;
        if (attempt >= retry.maxRetries)
          throw new ModelError("retryable", `${error.message} Gave up after ${retry.maxRetries} retries; try again later.`, error.status);
        // A wait longer than anyone watches (Retry-After: 3600) is the server's answer, not a retry.
        if (retryAfterMs !== null && retryAfterMs > retry.maxRetryAfterMs)
          throw new ModelError("retryable", `${error.message} The server asks to retry ${describeWait(retryAfterMs)}, longer than KHAELOR waits (${Math.round(retry.maxRetryAfterMs / 1000)} s): try again then.`, error.status);
        const delayMs = retryDelayMs(attempt + 1, retry, retryAfterMs);
        overloads = error.status === 529 ? overloads + 1 : 0;
        let message = error.message;
        // As Claude Code: three overload errors in a row, and the next attempt goes to the fallback.
        if (req.fallbackModel && ctx.model !== req.fallbackModel && overloads >= FALLBACK_AFTER_OVERLOADS) {
          ctx.model = req.fallbackModel;
          params = { ...requestParams({ ...req, model: req.fallbackModel }), model: connection.wireModel(req.fallbackModel) };
          message = `${message} ${req.model} was overloaded ${FALLBACK_AFTER_OVERLOADS} times in a row: the next attempt uses ${req.fallbackModel} (--fallback-model).`;
        }
        yield { type: "retry", attempt: attempt + 1, maxRetries: retry.maxRetries, delayMs, status: error.status, message, partialDiscarded: asm.yieldedDelta };
        if (!(await sleep(delayMs, req.signal))) throw new ModelError("aborted", "Interrupted by the user.", null, []);
      }
    }
  }

  /** One try: /context asks while the user waits, and a retry loop would only keep them waiting. */
  async function countTokens(req: CountRequest): Promise<number> {
    const sdk = await connection.sdk(false);
    if (!sdk.messages.countTokens) throw new Error(`${connection.hints.name} has no token counting endpoint`);
    const { stream: _stream, max_tokens: _max, ...params } = { ...requestParams({ ...req, maxTokens: 1 }), model: connection.wireModel(req.model) };
    try {
      const r = await sdk.messages.countTokens(params as Parameters<NonNullable<SdkClient["messages"]["countTokens"]>>[0], { signal: req.signal });
      return r.input_tokens;
    } catch (e) {
      throw classifyError(e, { model: req.model, baseURL, hints: connection.hints, kind: connection.kind }).error;
    }
  }

  return { stream, countTokens };
}

/** Anthropic's API with the given key (or the environment's), as before providers: tests and --demo use it directly. */
function firstParty(opts: AnthropicClientOptions): Connection {
  const baseURL = opts.baseURL || process.env.ANTHROPIC_BASE_URL || "https://api.anthropic.com";
  // The key is read at the first request, as it always was.
  let inner: Connection | null = null;
  const connect = (): Connection => {
    if (inner) return inner;
    const apiKey = opts.apiKey || process.env.ANTHROPIC_API_KEY || undefined;
    const authToken = apiKey ? undefined : process.env.ANTHROPIC_AUTH_TOKEN || undefined;
    const auth = apiKey ? { type: "apiKey" as const, key: apiKey } : authToken ? { type: "authToken" as const, token: authToken } : { type: "none" as const };
    return (inner = anthropicConnection({ baseURL, auth, headers: {}, wireModel: (m) => m }));
  };
  return { ...ANTHROPIC_DEFAULTS, baseURL, sdk: (renew) => connect().sdk(renew) };
}

const ANTHROPIC_DEFAULTS = { kind: "anthropic", renewable: false, wireModel: (m: string) => m, hints: ANTHROPIC_HINTS } as const;

const MIN_THINKING_BUDGET = 1024;
/** Claude Code's count of consecutive 529s before --fallback-model takes over. */
const FALLBACK_AFTER_OVERLOADS = 3;

function requestParams(req: ModelRequest): MessageCreateParamsStreaming {
  const { system, messages } = applyCacheControl(req.system, req.messages);
  let maxTokens = req.maxTokens ?? maxTokensFor(req.model);
  const params: MessageCreateParamsStreaming = {
    model: req.model,
    max_tokens: maxTokens,
    // Our block types mirror the SDK's params structurally; the cast only bridges the nominal gap.
    system: system as MessageCreateParamsStreaming["system"],
    messages: messages.map(unwrapUnknown) as MessageCreateParamsStreaming["messages"],
    stream: true,
  };
  const tools = [...req.tools, ...(req.serverTools ?? [])];
  if (tools.length > 0) params.tools = tools as MessageCreateParamsStreaming["tools"];
  const effort = req.effort ? effortFor(req.model, req.effort) : null;
  if (effort) {
    params.output_config = { ...params.output_config, effort };
    // As Claude Code: an effort level on a model that thinks adaptively turns its thinking on.
    if (modelInfo(req.model)?.thinking === "adaptive") params.thinking = { type: "adaptive" };
  }
  if (req.thinkingBudget !== undefined) {
    if (modelInfo(req.model)?.thinking === "adaptive") {
      // These models choose their own thinking length and reject a manual budget.
      params.thinking = { type: "adaptive" };
    } else {
      // The API refuses a budget under 1024 and requires max_tokens > budget_tokens: a smaller
      // budget (a host's set_max_thinking_tokens, --max-thinking-tokens 500) means the least there
      // is, and max_tokens makes room, rather than every later request failing.
      const budget = Math.max(MIN_THINKING_BUDGET, req.thinkingBudget);
      if (maxTokens <= budget) params.max_tokens = maxTokens = budget + 4096;
      params.thinking = { type: "enabled", budget_tokens: budget };
    }
  }
  return params;
}

/** Blocks of a type this version does not know go back exactly as they came. */
function unwrapUnknown(m: WireMessage): WireMessage | { role: "assistant"; content: object[] } {
  if (typeof m.content === "string" || !m.content.some((b) => b.type === "unknown_block")) return m;
  return { role: "assistant", content: m.content.map((b) => (b.type === "unknown_block" ? { ...b.block, ...(b.cache_control ? { cache_control: b.cache_control } : {}) } : b)) };
}

/** One attempt. Throws on any failure; the caller decides whether to retry. */
async function* streamOnce(
  sdk: SdkClient,
  params: MessageCreateParamsStreaming,
  asm: MessageAssembler,
  signal: AbortSignal | undefined,
  idleTimeoutMs: number,
): AsyncGenerator<ModelEvent> {
  // Our own controller, so a consumer that stops iterating also cancels the HTTP request.
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) controller.abort();
  const guard = new StreamGuard(controller.signal, idleTimeoutMs);
  try {
    const response = await guard.promptly(createQuietly(sdk, params, controller.signal));
    const it = response[Symbol.asyncIterator]();
    try {
      for (;;) {
        const next = await guard.promptly(it.next());
        if (next.done) break;
        for (const ev of asm.push(next.value as RawMessageStreamEvent)) yield ev;
        if (asm.stopped) return;
      }
    } finally {
      void it.return?.().catch(() => {});
    }
    // The SDK ends quietly when its request is aborted; anything else without message_stop is a cut.
    if (controller.signal.aborted) throw ABORTED;
    throw new Error("the stream ended before message_stop");
  } catch (e) {
    if (e === IDLE) throw new Error(`no data for ${idleTimeoutMs} ms`);
    throw e;
  } finally {
    signal?.removeEventListener("abort", onAbort);
    controller.abort();
    guard.close();
  }
}

/**
 * The SDK prints model-deprecation notices straight to console.warn inside create(), which would
 * land in the middle of the TUI. create() warns synchronously, so muting it for that call alone is
 * enough; `deprecationNotice()` in models.ts gives callers the same news to show properly.
 */
function createQuietly(sdk: SdkClient, params: MessageCreateParamsStreaming, signal: AbortSignal) {
  const warn = console.warn;
  console.warn = () => {};
  try {
    return sdk.messages.create(params, { signal });
  } finally {
    console.warn = warn;
  }
}

/** Resolves true after `ms`, or false as soon as `signal` aborts. */
function sleep(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  if (signal?.aborted) return Promise.resolve(false);
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve(true);
    }, Math.min(Math.max(0, ms), MAX_TIMER_MS));
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
