// The model-facing data: plain mirrors of the Messages API wire shapes, so the kernel, the
// session log and the fake server share one vocabulary without importing the SDK.

/** How hard the model works on an answer (./effort.ts says what each model takes). */
export type EffortLevel = "low" | "medium" | "high" | "xhigh" | "max";

/** Where a sentence of the answer came from (a web search result, a fetched page): kept as received. */
export type Citation = { type: string; [field: string]: unknown };
export type TextBlock = { type: "text"; text: string; citations?: Citation[] };
export type ThinkingBlock = { type: "thinking"; thinking: string; signature: string };
export type RedactedThinkingBlock = { type: "redacted_thinking"; data: string };
export type ToolUseBlock = { type: "tool_use"; id: string; name: string; input: unknown };
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";
export type ImageBlock = { type: "image"; source: { type: "base64"; media_type: ImageMediaType; data: string } };
export type ToolResultContent = string | Array<TextBlock | ImageBlock>;
export type ToolResultBlock = {
  type: "tool_result";
  tool_use_id: string;
  content: ToolResultContent;
  is_error?: boolean;
};

// The API's own tools (web_search, web_fetch) run on its side: the call and its result both come
// in the assistant message and must be sent back unchanged, so every field is kept, read or not.
export type ServerToolUseBlock = { type: "server_tool_use"; id: string; name: string; input: unknown; [field: string]: unknown };
export type WebSearchResultBlock = { type: "web_search_tool_result"; tool_use_id: string; content: unknown; [field: string]: unknown };
export type WebFetchResultBlock = { type: "web_fetch_tool_result"; tool_use_id: string; content: unknown; [field: string]: unknown };
/** A block type this version does not know (a newer server tool's result): sent back exactly as it came. */
export type UnknownBlock = { type: "unknown_block"; block: { type: string; [field: string]: unknown } };
export type ServerBlock = ServerToolUseBlock | WebSearchResultBlock | WebFetchResultBlock | UnknownBlock;

export type AssistantBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ServerBlock;
export type UserBlock = TextBlock | ImageBlock | ToolResultBlock;

export type CacheControl = { type: "ephemeral" };
export type Message =
  | { role: "user"; content: string | UserBlock[] }
  | { role: "assistant"; content: AssistantBlock[] };

export type SystemBlock = { type: "text"; text: string; cache_control?: CacheControl };

export type Usage = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
  /** Calls of the API's own tools in this message, billed per call (web search) beside the tokens. */
  server_tool_use?: ServerToolUsage;
};
export type ServerToolUsage = { web_search_requests: number; web_fetch_requests: number };

export const zeroUsage = (): Usage => ({
  input_tokens: 0,
  output_tokens: 0,
  cache_read_input_tokens: 0,
  cache_creation_input_tokens: 0,
});

export type StopReason = "end_turn" | "max_tokens" | "tool_use" | "stop_sequence" | "pause_turn" | "refusal";

export type AssistantMessage = {
  id: string;
  model: string;
  content: AssistantBlock[];
  stop_reason: StopReason | null;
  usage: Usage;
};

/** JSON schema as sent in `tools[].input_schema`. */
export type JsonSchema = { type: "object"; properties?: Record<string, unknown>; required?: string[]; [k: string]: unknown };
export type ToolSpec = {
  name: string;
  description: string;
  input_schema: JsonSchema;
  /** Left out of the prompt; the model finds it through the tool search tool when it needs it. */
  defer_loading?: boolean;
};
/** A tool the API runs itself, as its versioned type (web_search_20260318, ...) with its options. */
export type ServerToolSpec = { type: string; name: string; [option: string]: unknown };

export type ModelRequest = {
  model: string;
  system: SystemBlock[];
  messages: Message[];
  tools: ToolSpec[];
  /** The API's own tools offered beside ours (web search and fetch, when the rules allow them). */
  serverTools?: ServerToolSpec[];
  maxTokens?: number;
  /** Extended thinking budget; omitted means thinking off. */
  thinkingBudget?: number;
  /** The effort level (./effort.ts): sent as the API's effort parameter where the model takes it. */
  effort?: EffortLevel;
  /** After three overload errors in a row, the next attempts go to this model (--fallback-model). */
  fallbackModel?: string;
  signal?: AbortSignal;
};

/** What a streaming call yields, in order. `message_done` is always last on success. */
export type ModelEvent =
  | { type: "message_start"; id: string; model: string }
  | { type: "text_delta"; index: number; text: string }
  | { type: "thinking_delta"; index: number; thinking: string }
  | { type: "tool_input_delta"; index: number; id: string; name: string; partialJson: string }
  | { type: "block_done"; index: number; block: AssistantBlock }
  /**
   * The attempt failed and the client will try again after `delayMs`. Everything yielded since the
   * last `message_start` is void: the next attempt starts over with a new `message_start`.
   * `partialDiscarded` is true when deltas had already been yielded (the UI should drop them).
   */
  | { type: "retry"; attempt: number; /** Retries the client makes at most before giving up. */ maxRetries: number; delayMs: number; status: number | null; message: string; partialDiscarded?: boolean }
  | { type: "message_done"; message: AssistantMessage };

export type ModelErrorKind =
  /** Worth retrying; the client already retried up to its cap before throwing this. */
  | "retryable"
  /** 400 "prompt is too long": the caller must shrink the context, never retry as is. */
  | "overflow"
  /** 401, 403, other 400s: retrying cannot help; `message` names the cause and the fix. */
  | "fatal"
  /** The caller's AbortSignal fired. `partial` holds the complete-enough blocks streamed so far. */
  | "aborted";

export class ModelError extends Error {
  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly status: number | null = null,
    /** For "aborted": text/thinking streamed before the abort (tool_use blocks are dropped: their input is incomplete). */
    readonly partial: AssistantBlock[] = [],
    /** For "overflow": the token counts the API reported, when it did. */
    readonly tokens: { actual: number; maximum: number } | null = null,
    /**
     * For "aborted": usage the API reported before the stop (message_start's input and cache
     * counts, output as of the last message_delta). The call is billed even though it was cut.
     */
    readonly usage: Usage | null = null,
  ) {
    super(message);
    this.name = "ModelError";
  }
}

/** What the API's token counting endpoint takes: a request as it would be sent, without max_tokens. */
export type CountRequest = Pick<ModelRequest, "model" | "system" | "messages" | "tools" | "serverTools" | "thinkingBudget" | "signal">;

export interface ModelClient {
  stream(req: ModelRequest): AsyncIterable<ModelEvent>;
  /**
   * The input tokens a request would take, counted by the API (/v1/messages/count_tokens; free, not
   * billed). Absent where the provider has no such endpoint; throws a ModelError when the call fails.
   */
  countTokens?(req: CountRequest): Promise<number>;
}
