// The model-facing data: plain mirrors of the Messages API wire shapes, so the kernel, the
// session log and the fake server share one vocabulary without importing the SDK.

export type TextBlock = { type: "text"; text: string };
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

/** The API running one of its own tools (tool search): kept and sent back as it came. */
export type ServerToolUseBlock = { type: "server_tool_use"; id: string; name: string; input: unknown };
/** What the API's tool search found (tool_reference blocks naming deferred tools): kept as it came. */
export type ToolSearchResultBlock = { type: "tool_search_tool_result"; tool_use_id: string; content: unknown };

export type AssistantBlock = TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ServerToolUseBlock | ToolSearchResultBlock;
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
};

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
export type CustomToolSpec = {
  name: string;
  description: string;
  input_schema: JsonSchema;
  /** Left out of the prompt; the model finds it through the tool search tool when it needs it. */
  defer_loading?: boolean;
};
/** The API's own tool search, offered when MCP servers' tool definitions are too big to send whole. */
export type ToolSearchSpec = { type: "tool_search_tool_regex_20251119"; name: "tool_search_tool_regex" };
export type ToolSpec = CustomToolSpec | ToolSearchSpec;

export type ModelRequest = {
  model: string;
  system: SystemBlock[];
  messages: Message[];
  tools: ToolSpec[];
  maxTokens?: number;
  /** Extended thinking budget; omitted means thinking off. */
  thinkingBudget?: number;
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

export interface ModelClient {
  stream(req: ModelRequest): AsyncIterable<ModelEvent>;
}
