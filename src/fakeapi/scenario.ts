// The script a fake Messages API follows. Plain JSON so a scenario can live in a file and be run
// from the CLI (`bun src/fakeapi/cli.ts --scenario x.json`); zod-checked where it enters.
import { z } from "zod";

const StopReason = z.enum(["end_turn", "max_tokens", "tool_use", "stop_sequence", "pause_turn", "refusal"]);

const Obj = z.record(z.string(), z.unknown());

export const ScenarioBlock = z.discriminatedUnion("type", [
  z.object({
    type: z.literal("text"),
    text: z.string(),
    /** Sent as citations_delta events before the text (web_search_result_location, ...). */
    citations: z.array(z.looseObject({ type: z.string() })).optional(),
  }),
  z.object({
    type: z.literal("thinking"),
    thinking: z.string(),
    /** Defaults to a fake signature derived from the text. */
    signature: z.string().optional(),
  }),
  z.object({ type: z.literal("redacted_thinking"), data: z.string() }),
  z.object({
    type: z.literal("tool_use"),
    name: z.string(),
    input: z.record(z.string(), z.unknown()),
    /** Generated (`toolu_fake_<server>_<turn>_<n>`, unique per server) when omitted. */
    id: z.string().optional(),
  }),
  /** A call of the API's own tool (web_search, web_fetch): its input streams as input_json_delta. */
  z.object({
    type: z.literal("server_tool_use"),
    name: z.string(),
    input: Obj,
    /** Generated (`srvtoolu_fake_<server>_<turn>_<n>`) when omitted. */
    id: z.string().optional(),
  }),
  /** Results arrive whole in content_block_start. tool_use_id defaults to the last server_tool_use's. */
  z.object({ type: z.literal("web_search_tool_result"), content: z.union([z.array(Obj), Obj]), tool_use_id: z.string().optional() }),
  z.object({ type: z.literal("web_fetch_tool_result"), content: Obj, tool_use_id: z.string().optional() }),
  /** Any block, served exactly as given (a type the client may not know). "$last_server_tool_use" in it is replaced by that id. */
  z.object({ type: z.literal("raw"), block: z.looseObject({ type: z.string() }) }),
]);
export type ScenarioBlock = z.infer<typeof ScenarioBlock>;

/**
 * A failure served instead of the turn. Each fault consumes one request (attempt) and leaves the
 * turn in place, so a client that retries gets the turn on its next attempt.
 */
export const Fault = z.discriminatedUnion("type", [
  /** 429 rate_limit_error with `retry-after` (seconds, or `retryAfterRaw` as sent) and/or `retry-after-ms`. */
  z.object({ type: z.literal("rate_limit"), retryAfterSeconds: z.number().optional(), retryAfterMs: z.number().optional(), retryAfterRaw: z.string().optional() }),
  /** 529 overloaded_error, with `retry-after-ms` when given (a test that must not wait out backoff). */
  z.object({ type: z.literal("overloaded"), retryAfterMs: z.number().optional() }),
  /** 5xx api_error (500 unless told). */
  z.object({ type: z.literal("server_error"), status: z.number().int().min(500).max(599).default(500) }),
  /** A 200 stream that sends `afterEvents` SSE events of the turn, then an `error` event, then ends. */
  z.object({
    type: z.literal("stream_error"),
    afterEvents: z.number().int().min(0).default(4),
    errorType: z.string().default("overloaded_error"),
    message: z.string().default("Overloaded"),
  }),
  /** A 200 stream that sends `afterEvents` SSE events of the turn, then drops the connection. */
  z.object({ type: z.literal("cut"), afterEvents: z.number().int().min(0).default(4) }),
  /** 400 invalid_request_error "prompt is too long: N tokens > M maximum". */
  z.object({ type: z.literal("prompt_too_long"), tokens: z.number().int(), maximum: z.number().int() }),
  /** Any other error response, e.g. 401 authentication_error or 404 not_found_error. */
  z.object({ type: z.literal("status"), status: z.number().int(), errorType: z.string(), message: z.string() }),
]);
export type Fault = z.infer<typeof Fault>;

/** How the SSE stream is paced and split. Defaults: no delays, modest chunks. */
export const Pacing = z.object({
  /** Characters (code points) per text/thinking delta. */
  textChunk: z.number().int().min(1).default(12),
  /** Characters (code points) per input_json_delta; 0 sends the whole JSON in one delta. */
  jsonChunk: z.number().int().min(0).default(7),
  /** Milliseconds between bursts of SSE events (0: write everything at once). */
  delayMs: z.number().min(0).default(0),
  /** SSE events per burst. */
  burst: z.number().int().min(1).default(1),
  /** Write the body in slices of this many bytes, cutting through events and UTF-8 sequences (0: whole events). */
  byteChunk: z.number().int().min(0).default(0),
  /** Send a `ping` event after message_start and then every N events (0: only the first). */
  pingEvery: z.number().int().min(0).default(0),
});
export type Pacing = z.infer<typeof Pacing>;

/** Assertions on the request that asks for this turn. A failed check answers 400 and is recorded. */
export const Check = z.object({
  /** The last message is a user message holding a tool_result (with this is_error, when given). */
  lastHasToolResult: z.object({ isError: z.boolean().optional(), contentMatches: z.string().optional() }).optional(),
  /** Some text in the last message (text blocks and tool_result contents) matches this regex. */
  lastTextMatches: z.string().optional(),
  /** The system prompt (all blocks joined) matches this regex. */
  systemMatches: z.string().optional(),
  /** These tool names are offered in `tools`. */
  toolsInclude: z.array(z.string()).optional(),
  /** None of these tool names is offered. */
  toolsExclude: z.array(z.string()).optional(),
  /** Exactly this many messages. */
  messageCount: z.number().int().optional(),
});
export type Check = z.infer<typeof Check>;

export const Usage = z.object({
  input_tokens: z.number().int().min(0).optional(),
  output_tokens: z.number().int().min(0).optional(),
  cache_creation_input_tokens: z.number().int().min(0).optional(),
  cache_read_input_tokens: z.number().int().min(0).optional(),
  server_tool_use: z.object({ web_search_requests: z.number().int().min(0), web_fetch_requests: z.number().int().min(0) }).optional(),
});

export const Turn = z.object({
  content: z.array(ScenarioBlock).min(1),
  /** Defaults to tool_use when the turn has a tool_use block, else end_turn. */
  stop_reason: StopReason.optional(),
  /** Overrides the usage the server would compute (estimates from request size and its cache model). */
  usage: Usage.optional(),
  faults: z.array(Fault).default([]),
  pacing: Pacing.partial().optional(),
  expect: Check.optional(),
});
export type Turn = z.infer<typeof Turn>;
export type TurnInput = z.input<typeof Turn>;

/**
 * A conversation of its own inside the scenario (a subagent's): a request whose first user message
 * matches `firstMessage` (a regex over its text) is answered from these turns, in their own order.
 */
export const Route = z
  .object({
    firstMessage: z.string().optional(),
    /** Or: any user message's text matches (a fork's first user message is its parent's). */
    anyUserMessage: z.string().optional(),
    turns: z.array(Turn),
  })
  .refine((r) => r.firstMessage !== undefined || r.anyUserMessage !== undefined, { message: "a route needs firstMessage or anyUserMessage" });

export const Scenario = z.object({
  name: z.string().default("scenario"),
  turns: z.array(Turn),
  /** Checked in order before `turns`; a request no route matches takes the next of `turns`. */
  routes: z.array(Route).default([]),
  /** Pacing for every turn (a turn's own pacing overrides field by field). */
  pacing: Pacing.partial().optional(),
  /** When every turn has been served: answer a short final text, or fail the request. */
  whenDone: z
    .discriminatedUnion("type", [
      z.object({ type: z.literal("text"), text: z.string() }),
      z.object({ type: z.literal("error"), status: z.number().int(), errorType: z.string(), message: z.string() }),
    ])
    .default({ type: "text", text: "(The scripted scenario has no more turns.)" }),
  /** When set, requests must carry this key (x-api-key or Bearer); otherwise any key is accepted. */
  apiKey: z.string().optional(),
});
export type Scenario = z.infer<typeof Scenario>;
/** What a scenario author writes: defaults may be left out. */
export type ScenarioInput = z.input<typeof Scenario>;

/** Parse a scenario from untrusted JSON; the error names the offending path. */
export function parseScenario(data: unknown): Scenario {
  const r = Scenario.safeParse(data);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
  throw new Error(`invalid scenario: ${issues}`);
}
