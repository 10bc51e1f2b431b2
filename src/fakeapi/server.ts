// A fake Anthropic Messages API on 127.0.0.1 that follows a scenario: the engine of `khaelor --demo`
// and of every test that talks to "the API" over real HTTP through the real SDK.
import type { AssistantBlock, StopReason, Usage } from "../model/types.ts";
import { checkRequest } from "./check-request.ts";
import { PromptCache, estimateTokens } from "./prompt-cache.ts";
import { Pacing, parseScenario, type Fault, type Scenario, type ScenarioInput, type Turn } from "./scenario.ts";
import { validateMessagesRequest } from "./validate-request.ts";
import { errorBody, errorEvent, messageBody, streamEvents, type WireMessage } from "./wire.ts";

export type RecordedRequest = {
  /** 0-based arrival order. */
  seq: number;
  /** Arrival time, `performance.now()` of the server's process. */
  at: number;
  method: string;
  path: string;
  /** Lower-case names; credentials redacted. */
  headers: Record<string, string>;
  body: unknown;
  /** Which of the scenario's routes answered it (absent: its own turns). */
  route?: number;
  /** The scenario turn this request was answered with (or asked for, when it failed); null once the scenario ran out. */
  turn: number | null;
  outcome: "served" | "fault" | "invalid" | "check_failed" | "done" | "count_tokens" | "rejected";
  fault?: Fault["type"];
  status: number;
  /** The error message sent, for non-200 answers and in-stream faults. */
  error?: string;
};

export type FakeApi = {
  url: string;
  requests: RecordedRequest[];
  /** Failed `expect` checks, in order; a test should assert this is empty. */
  checkFailures: string[];
  /** Turns fully served so far. */
  turnsServed(): number;
  close(): Promise<void>;
};

export type FakeApiOptions = {
  scenario: ScenarioInput;
  port?: number;
  host?: string;
  /** Called after each request is recorded (the CLI writes them to a file). */
  onRequest?: (r: RecordedRequest) => void;
  /** Called when a streamed answer's last byte is handed to the socket (benches time what follows). */
  onStreamEnd?: () => void;
};

const DEFAULT_PACING = Pacing.parse({});

export async function startFakeApi(opts: FakeApiOptions): Promise<FakeApi> {
  // Generated tool ids are unique across servers too: a session resumed against a new server
  // (a new run of the CLI, a new test) must never see an id twice.
  const serverTag = Math.random().toString(36).slice(2, 8);
  const scenario: Scenario = parseScenario(opts.scenario);
  const requests: RecordedRequest[] = [];
  const checkFailures: string[] = [];
  const cache = new PromptCache();
  // One track per conversation: the scenario's own turns, and each route's.
  type Track = { turns: Turn[]; cursor: number; faultCursor: number; route: number | null };
  const main: Track = { turns: scenario.turns, cursor: 0, faultCursor: 0, route: null };
  const tracks: Track[] = scenario.routes.map((r, i) => ({ turns: r.turns, cursor: 0, faultCursor: 0, route: i }));
  const routes = scenario.routes.map((r) => ({ first: r.firstMessage !== undefined ? new RegExp(r.firstMessage) : null, any: r.anyUserMessage !== undefined ? new RegExp(r.anyUserMessage) : null }));
  const trackOf = (b: Record<string, unknown>): Track => {
    const first = firstUserText(b);
    const all = userTexts(b);
    const i = routes.findIndex((r) => (r.first ? r.first.test(first) : false) || (r.any ? all.some((t) => r.any!.test(t)) : false));
    return i >= 0 ? tracks[i]! : main;
  };
  let seq = 0;
  let requestCounter = 0;
  /**
   * A served turn whose stream the client dropped before the end. The same request again is a
   * retry (the client gave up on a stalled stream), and the real API would answer it afresh, so
   * the turn is served again instead of the next one.
   */
  let abandoned: { turnIndex: number; body: string } | null = null;

  const record = (r: Omit<RecordedRequest, "seq" | "at">, at: number): RecordedRequest => {
    const full = { seq: seq++, at, ...r };
    requests.push(full);
    opts.onRequest?.(full);
    return full;
  };

  const server = Bun.serve({
    hostname: opts.host ?? "127.0.0.1",
    port: opts.port ?? 0,
    idleTimeout: 120,
    fetch: async (req) => {
      const at = performance.now();
      const url = new URL(req.url);
      const headers = redact(req.headers);
      const base = { method: req.method, path: url.pathname, headers };
      const requestId = `req_fake_${requestCounter++}`;
      const fail = (status: number, type: string, message: string, extra: Partial<RecordedRequest> & { body: unknown }) => {
        record({ ...base, turn: null, outcome: "rejected", status, error: message, ...extra }, at);
        return Response.json(errorBody(type, message, requestId), { status, headers: { "request-id": requestId } });
      };

      const isMessages = url.pathname === "/v1/messages";
      const isCount = url.pathname === "/v1/messages/count_tokens";
      if (req.method !== "POST" || (!isMessages && !isCount))
        return fail(404, "not_found_error", `Not found: ${req.method} ${url.pathname}`, { body: null });

      const text = await req.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        return fail(400, "invalid_request_error", "There was an error parsing the body of your request as JSON.", { body: text, outcome: "invalid" });
      }
      const key = req.headers.get("x-api-key") ?? req.headers.get("authorization")?.replace(/^Bearer\s+/i, "") ?? null;
      if (!key) return fail(401, "authentication_error", "x-api-key header is required", { body });
      if (scenario.apiKey !== undefined && key !== scenario.apiKey) return fail(401, "authentication_error", "invalid x-api-key", { body });
      if (!req.headers.get("anthropic-version"))
        return fail(400, "invalid_request_error", "anthropic-version: header is required", { body, outcome: "invalid" });

      const invalid = validateMessagesRequest(body, { countTokens: isCount });
      if (invalid) return fail(400, "invalid_request_error", invalid, { body, outcome: "invalid" });
      const b = body as Record<string, unknown>;
      const model = b.model as string;
      if (!model.startsWith("claude-")) return fail(404, "not_found_error", `model: ${model}`, { body });

      if (isCount) {
        const u = cache.account(b, false);
        record({ ...base, body, turn: null, outcome: "count_tokens", status: 200 }, at);
        return Response.json({ input_tokens: u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens });
      }

      const track = trackOf(b);
      const replay = abandoned !== null && abandoned.body === text ? abandoned.turnIndex : null;
      abandoned = null;
      const turnIndex = replay ?? (track.cursor < track.turns.length ? track.cursor : null);
      const turn: Turn = turnIndex !== null ? track.turns[turnIndex]! : afterScenario(scenario);

      if (turn.expect) {
        const problem = checkRequest(b, turn.expect);
        if (problem) {
          const message = `fake API: scenario "${scenario.name}" turn ${turnIndex}: request check failed: ${problem}`;
          checkFailures.push(message);
          record({ ...base, body, turn: turnIndex, outcome: "check_failed", status: 400, error: message }, at);
          return Response.json(errorBody("invalid_request_error", message, requestId), { status: 400, headers: { "request-id": requestId } });
        }
      }

      const pacing: Pacing = { ...DEFAULT_PACING, ...scenario.pacing, ...turn.pacing };
      // After the scenario, its closing fault (if any) answers every request.
      const fault = replay !== null ? undefined : turnIndex === null ? turn.faults[0] : turn.faults[track.faultCursor];
      const message = buildMessage(turn, turnIndex, model, requestId, b, cache, fault === undefined, track.route !== null ? `${serverTag}r${track.route}` : serverTag);
      const stream = b.stream === true;

      if (fault) {
        if (turnIndex !== null) track.faultCursor++;
        const outcome = turnIndex === null ? "done" : "fault";
        const http = httpFault(fault);
        if (http) {
          record({ ...base, body, turn: turnIndex, outcome, fault: fault.type, status: http.status, error: http.message }, at);
          return Response.json(errorBody(http.type, http.message, requestId), {
            status: http.status,
            headers: { "request-id": requestId, ...http.headers },
          });
        }
        const f = fault as Extract<Fault, { type: "stream_error" | "cut" }>;
        if (!stream) {
          // A non-streaming client sees a mid-stream failure as a plain 500.
          record({ ...base, body, turn: turnIndex, outcome, fault: f.type, status: 500, error: "Internal server error" }, at);
          return Response.json(errorBody("api_error", "Internal server error", requestId), { status: 500, headers: { "request-id": requestId } });
        }
        const events = streamEvents(message, pacing).slice(0, f.afterEvents);
        const tail = f.type === "stream_error" ? { error: errorEvent(f.errorType, f.message) } : { cut: true as const };
        const error = f.type === "stream_error" ? f.message : "connection cut";
        record({ ...base, body, turn: turnIndex, outcome, fault: f.type, status: 200, error }, at);
        return sseResponse(events, pacing, tail, requestId);
      }

      track.faultCursor = 0;
      if (turnIndex !== null && replay === null) track.cursor++;
      record({ ...base, body, turn: turnIndex, ...(track.route !== null ? { route: track.route } : {}), outcome: turnIndex === null ? "done" : "served", status: 200 }, at);
      if (!stream) return Response.json(messageBody(message), { headers: { "request-id": requestId } });
      const onAbandon = turnIndex === null ? undefined : () => (abandoned = { turnIndex, body: text });
      return sseResponse(streamEvents(message, pacing), pacing, { onAbandon, onEnd: opts.onStreamEnd }, requestId);
    },
  });

  return {
    url: `http://${server.hostname}:${server.port}`,
    requests,
    checkFailures,
    turnsServed: () => main.cursor,
    close: async () => {
      await server.stop(true);
    },
  };
}

/** The text of a request's first user message (text blocks joined), what a route matches. */
function firstUserText(b: Record<string, unknown>): string {
  return userTexts(b)[0] ?? "";
}

/** The text of each user message (its text blocks; tool results left out), in order. */
function userTexts(b: Record<string, unknown>): string[] {
  const messages = Array.isArray(b.messages) ? (b.messages as Array<{ role?: string; content?: unknown }>) : [];
  return messages
    .filter((m) => m.role === "user")
    .map((m) => (typeof m.content === "string" ? m.content : Array.isArray(m.content) ? (m.content as Array<{ type?: string; text?: string }>).filter((c) => c.type === "text").map((c) => c.text ?? "").join("\n") : ""));
}

/** The turn served, again and again, once every scripted turn has been. */
function afterScenario(scenario: Scenario): Turn {
  const done = scenario.whenDone;
  if (done.type === "text") return { content: [{ type: "text", text: done.text }], faults: [] };
  return { content: [{ type: "text", text: "-" }], faults: [{ type: "status", status: done.status, errorType: done.errorType, message: done.message }] };
}

function httpFault(f: Fault): { status: number; type: string; message: string; headers: Record<string, string> } | null {
  switch (f.type) {
    case "rate_limit": {
      const headers: Record<string, string> = {};
      if (f.retryAfterSeconds !== undefined) headers["retry-after"] = String(f.retryAfterSeconds);
      if (f.retryAfterMs !== undefined) headers["retry-after-ms"] = String(f.retryAfterMs);
      // An HTTP date, or anything else a server may send.
      if (f.retryAfterRaw !== undefined) headers["retry-after"] = f.retryAfterRaw;
      return {
        status: 429,
        type: "rate_limit_error",
        message: "This request would exceed the rate limit for your organization of 50,000 input tokens per minute.",
        headers,
      };
    }
    case "overloaded":
      return { status: 529, type: "overloaded_error", message: "Overloaded", headers: f.retryAfterMs !== undefined ? { "retry-after-ms": String(f.retryAfterMs) } : {} };
    case "server_error":
      return { status: f.status, type: "api_error", message: "Internal server error", headers: {} };
    case "prompt_too_long":
      return {
        status: 400,
        type: "invalid_request_error",
        message: `prompt is too long: ${f.tokens} tokens > ${f.maximum} maximum`,
        headers: {},
      };
    case "status":
      return { status: f.status, type: f.errorType, message: f.message, headers: {} };
    case "stream_error":
    case "cut":
      return null;
  }
}

function buildMessage(
  turn: Turn,
  turnIndex: number | null,
  model: string,
  requestId: string,
  body: Record<string, unknown>,
  cache: PromptCache,
  writeCache: boolean,
  serverTag: string,
): WireMessage {
  let lastServerCall = "";
  const content: AssistantBlock[] = turn.content.map((b, i): AssistantBlock => {
    switch (b.type) {
      case "text":
        return b.citations ? { type: "text", text: b.text, citations: b.citations } : { type: "text", text: b.text };
      case "thinking":
        return { type: "thinking", thinking: b.thinking, signature: b.signature ?? fakeSignature(b.thinking) };
      case "redacted_thinking":
        return { type: "redacted_thinking", data: b.data };
      case "tool_use":
        return { type: "tool_use", id: b.id ?? `toolu_fake_${serverTag}_${turnIndex ?? "done"}_${i}`, name: b.name, input: b.input };
      case "server_tool_use":
        lastServerCall = b.id ?? `srvtoolu_fake_${serverTag}_${turnIndex ?? "done"}_${i}`;
        return { type: "server_tool_use", id: lastServerCall, name: b.name, input: b.input, caller: { type: "direct" } };
      case "web_search_tool_result":
      case "web_fetch_tool_result":
        return { type: b.type, tool_use_id: b.tool_use_id ?? lastServerCall, content: b.content, caller: { type: "direct" } };
      case "raw":
        return { type: "unknown_block", block: JSON.parse(JSON.stringify(b.block).replaceAll("$last_server_tool_use", lastServerCall)) };
    }
  });
  const stop: StopReason = turn.stop_reason ?? (content.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
  const outputText = content
    .map((b) => (b.type === "text" ? b.text : b.type === "thinking" ? b.thinking : b.type === "tool_use" || b.type === "server_tool_use" ? JSON.stringify(b.input) : ""))
    .join("");
  const calls = (name: string) => content.filter((b) => b.type === "server_tool_use" && b.name === name).length;
  const serverToolUse = content.some((b) => b.type === "server_tool_use")
    ? { server_tool_use: { web_search_requests: calls("web_search"), web_fetch_requests: calls("web_fetch") } }
    : {};
  const usage: Usage = {
    ...cache.account(body, writeCache),
    output_tokens: Math.max(1, estimateTokens(outputText)),
    ...serverToolUse,
    ...turn.usage,
  };
  return { id: `msg_fake_${requestId.slice("req_fake_".length)}`, model, content, stop_reason: stop, usage };
}

function fakeSignature(thinking: string): string {
  return Buffer.from(`fake-signature:${Bun.hash(thinking).toString(16)}`).toString("base64");
}

const encoder = new TextEncoder();

/**
 * Streams `events` paced as asked, then either ends normally, sends an error event, or drops the
 * connection (`controller.error(undefined)` makes Bun reset the socket without logging).
 */
function sseResponse(
  events: string[],
  pacing: Pacing,
  tail: { error?: string; cut?: true; onAbandon?: () => void; onEnd?: () => void },
  requestId: string,
): Response {
  const all = tail.error ? [...events, tail.error] : events;
  const pieces: Uint8Array[] = [];
  if (pacing.byteChunk > 0) {
    const bytes = encoder.encode(all.join(""));
    for (let i = 0; i < bytes.length; i += pacing.byteChunk) pieces.push(bytes.subarray(i, i + pacing.byteChunk));
  } else {
    for (let i = 0; i < all.length; i += pacing.burst) pieces.push(encoder.encode(all.slice(i, i + pacing.burst).join("")));
  }
  let i = 0;
  let cancelled = false;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i > 0 && pacing.delayMs > 0) await Bun.sleep(pacing.delayMs);
      if (cancelled) return;
      const piece = pieces[i++];
      if (piece) controller.enqueue(piece);
      if (i >= pieces.length) {
        if (tail.cut) {
          // Let the bytes reach the client first, so it sees a response that breaks mid-way.
          await Bun.sleep(10);
          controller.error(undefined);
        }
        else {
          controller.close();
          tail.onEnd?.();
        }
      }
    },
    cancel() {
      cancelled = true;
      if (i < pieces.length) tail.onAbandon?.();
    },
  });
  return new Response(stream, {
    headers: { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "request-id": requestId },
  });
}

function redact(h: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k] = k === "x-api-key" || k === "authorization" ? `<redacted ${v.length} chars>` : v;
  });
  return out;
}
