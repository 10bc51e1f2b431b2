// The real SDK over real HTTP against the fake Messages API: streams become the right ModelEvents,
// each failure lands in the right kind, retries are visible and honour the server.
import { afterEach, describe, expect, test } from "bun:test";
import { createAnthropicClient, type RetryOptions } from "../../src/model/anthropic-client.ts";
import { ModelError, type Message, type ModelEvent, type ModelRequest } from "../../src/model/types.ts";
import { startFakeApi, type FakeApi, type ScenarioInput } from "../support/fake-api.ts";

const FAST_RETRY: RetryOptions = { maxRetries: 4, baseDelayMs: 1, maxDelayMs: 4 };
let api: FakeApi | null = null;

afterEach(async () => {
  await api?.close();
  api = null;
});

async function setup(scenario: ScenarioInput, retry: RetryOptions = FAST_RETRY) {
  api = await startFakeApi({ scenario });
  return { api, client: createAnthropicClient({ apiKey: "test-key", baseURL: api.url, retry }) };
}

function request(over: Partial<ModelRequest> = {}): ModelRequest {
  return {
    model: "claude-sonnet-5-5",
    system: [{ type: "text", text: "You are a test.", cache_control: { type: "ephemeral" } }],
    messages: [{ role: "user", content: "hello" }],
    tools: [{ name: "read", description: "Read a file", input_schema: { type: "object", properties: { file_path: { type: "string" } } } }],
    ...over,
  };
}

async function collect(it: AsyncIterable<ModelEvent>): Promise<{ events: ModelEvent[]; error: ModelError | null }> {
  const events: ModelEvent[] = [];
  try {
    for await (const ev of it) events.push(ev);
    return { events, error: null };
  } catch (e) {
    if (e instanceof ModelError) return { events, error: e };
    throw e;
  }
}

const done = (events: ModelEvent[]) => {
  const last = events[events.length - 1];
  if (last?.type !== "message_done") throw new Error(`expected message_done last, got ${JSON.stringify(last)}`);
  return last.message;
};

describe("streaming", () => {
  test("thinking, text and tool_use become deltas, finished blocks and a final message with usage", async () => {
    const { client } = await setup({
      turns: [
        {
          content: [
            { type: "thinking", thinking: "Let me look at the file first.", signature: "sig-abc==" },
            { type: "text", text: "I'll read it." },
            { type: "tool_use", name: "read", input: { file_path: "src/a.ts" } },
          ],
          usage: { input_tokens: 120, output_tokens: 45, cache_read_input_tokens: 1000, cache_creation_input_tokens: 30 },
        },
      ],
    });
    const { events, error } = await collect(client.stream(request()));
    expect(error).toBeNull();
    expect(events[0]).toEqual({ type: "message_start", id: expect.any(String), model: "claude-sonnet-5-5" });
    const thinking = events.filter((e) => e.type === "thinking_delta").map((e) => (e.type === "thinking_delta" ? e.thinking : ""));
    expect(thinking.join("")).toBe("Let me look at the file first.");
    expect(thinking.length).toBeGreaterThan(1);
    const text = events.flatMap((e) => (e.type === "text_delta" ? [e.text] : []));
    expect(text.join("")).toBe("I'll read it.");
    const toolDeltas = events.flatMap((e) => (e.type === "tool_input_delta" ? [e] : []));
    expect(toolDeltas.every((d) => d.name === "read" && d.index === 2)).toBe(true);
    expect(JSON.parse(toolDeltas.map((d) => d.partialJson).join(""))).toEqual({ file_path: "src/a.ts" });
    const blocks = events.flatMap((e) => (e.type === "block_done" ? [e.block] : []));
    expect(blocks.map((b) => b.type)).toEqual(["thinking", "text", "tool_use"]);
    const message = done(events);
    expect(message.content[0]).toEqual({ type: "thinking", thinking: "Let me look at the file first.", signature: "sig-abc==" });
    expect(message.content[2]).toEqual({ type: "tool_use", id: expect.stringMatching(/^toolu_/), name: "read", input: { file_path: "src/a.ts" } });
    expect(message.stop_reason).toBe("tool_use");
    expect(message.usage).toEqual({ input_tokens: 120, output_tokens: 45, cache_read_input_tokens: 1000, cache_creation_input_tokens: 30 });
  });

  test("thinking signatures and redacted_thinking are sent back byte for byte", async () => {
    const { client, api } = await setup({
      turns: [
        {
          content: [
            { type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP" },
            { type: "thinking", thinking: "é 🎉 \"quoted\"\n", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" },
            { type: "tool_use", name: "read", input: { file_path: "x" } },
          ],
        },
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const first = done((await collect(client.stream(request()))).events);
    const toolUse = first.content.find((b) => b.type === "tool_use");
    if (toolUse?.type !== "tool_use") throw new Error("no tool_use");
    const messages: Message[] = [
      { role: "user", content: "hello" },
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "file text" }] },
    ];
    const second = await collect(client.stream(request({ messages })));
    expect(second.error).toBeNull();
    const sent = (api.requests[1]!.body as { messages: Array<{ content: unknown[] }> }).messages[1]!.content;
    expect(sent[0]).toEqual({ type: "redacted_thinking", data: "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP" });
    expect(sent[1]).toEqual({ type: "thinking", thinking: "é 🎉 \"quoted\"\n", signature: "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds" });
  });

  test("input JSON split at odd character and byte positions, inside multi-byte UTF-8, parses to the same input", async () => {
    const input = { file_path: "src/ünïcödé/🎉.ts", old_string: 'a "quoted"\\ line\nnext\ttab — 日本語', n: 42 };
    const text = "Grüße aus Köln — 日本語のテキスト 🎉🎉 done.";
    for (const pacing of [
      { jsonChunk: 1, textChunk: 1, byteChunk: 1 },
      { jsonChunk: 3, textChunk: 2, byteChunk: 5 },
      // Delays make the slices arrive as separate reads at the client.
      { jsonChunk: 7, textChunk: 5, byteChunk: 61, delayMs: 1 },
    ]) {
      const { client } = await setup({
        turns: [{ content: [{ type: "text", text }, { type: "tool_use", name: "edit", input }], pacing }],
      });
      const { events, error } = await collect(client.stream(request()));
      expect(error).toBeNull();
      const json = events.flatMap((e) => (e.type === "tool_input_delta" ? [e.partialJson] : [])).join("");
      expect(JSON.parse(json)).toEqual(input);
      expect(events.flatMap((e) => (e.type === "text_delta" ? [e.text] : [])).join("")).toBe(text);
      const message = done(events);
      expect(message.content).toEqual([
        { type: "text", text },
        { type: "tool_use", id: expect.any(String), name: "edit", input },
      ]);
      await api?.close();
      api = null;
    }
  });
});

describe("retryable failures", () => {
  test("429 waits as long as retry-after-ms says, then succeeds; the retry is an event", async () => {
    const { client, api } = await setup({
      turns: [{ content: [{ type: "text", text: "ok" }], faults: [{ type: "rate_limit", retryAfterMs: 60 }] }],
    });
    const { events, error } = await collect(client.stream(request()));
    expect(error).toBeNull();
    const retry = events.find((e) => e.type === "retry");
    expect(retry).toMatchObject({ type: "retry", attempt: 1, delayMs: 60, status: 429, partialDiscarded: false });
    expect(api.requests.length).toBe(2);
    expect(api.requests[1]!.at - api.requests[0]!.at).toBeGreaterThanOrEqual(55);
    expect(done(events).content).toEqual([{ type: "text", text: "ok" }]);
  });

  test("429 retry-after in seconds is honoured too", async () => {
    const { client } = await setup({
      turns: [{ content: [{ type: "text", text: "ok" }], faults: [{ type: "rate_limit", retryAfterSeconds: 0.02 }] }],
    });
    const { events } = await collect(client.stream(request()));
    expect(events.find((e) => e.type === "retry")).toMatchObject({ delayMs: 20, status: 429 });
  });

  describe("a Retry-After longer than KHAELOR waits", () => {
    const huge = [
      ["retry-after: 3600 (an hour)", { retryAfterSeconds: 3600 }, /asks to retry in 60 minutes \(at \d\d:\d\d\)/],
      ["retry-after-ms past 2^31 (setTimeout's limit)", { retryAfterMs: 2 ** 31 + 5 }, /asks to retry in \d+ hours/],
      ["retry-after as an HTTP date two hours away", { retryAfterRaw: new Date(Date.now() + 2 * 3600_000).toUTCString() }, /asks to retry in (119|120) minutes|in 2 hours/],
    ] as const;
    test.each(huge)("%s: the turn stops at once with the server's hint, no retry storm", async (_name, fault, said) => {
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(w.name);
      process.on("warning", onWarning);
      const { client, api } = await setup({ turns: [{ content: [{ type: "text", text: "ok" }], faults: [{ type: "rate_limit", ...fault }] }] }, { ...FAST_RETRY, maxRetryAfterMs: 120_000 });
      const started = Date.now();
      const { events, error } = await collect(client.stream(request()));
      process.off("warning", onWarning);
      expect(error?.message).toMatch(said);
      expect(error?.message).toContain("longer than KHAELOR waits (120 s)");
      expect(events.filter((e) => e.type === "retry")).toEqual([]);
      expect(api.requests.length).toBe(1);
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(warnings).not.toContain("TimeoutOverflowWarning");
    });

    test("the default cap is two minutes: a wait at the cap is honoured, just past it is not", async () => {
      const at = await setup({ turns: [{ content: [{ type: "text", text: "ok" }], faults: [{ type: "rate_limit", retryAfterMs: 120_001 }] }] }, { ...FAST_RETRY });
      const past = await collect(at.client.stream(request()));
      expect(past.error?.message).toContain("longer than KHAELOR waits (120 s)");
      await api?.close();
      const within = await setup({ turns: [{ content: [{ type: "text", text: "ok" }], faults: [{ type: "rate_limit", retryAfterMs: 40 }] }] }, { ...FAST_RETRY, maxRetryAfterMs: 40 });
      const ok = await collect(within.client.stream(request()));
      expect(ok.error).toBeNull();
      expect(ok.events.find((e) => e.type === "retry")).toMatchObject({ delayMs: 40 });
    });

    test("with no cap, a wait past 2^31 ms is clamped, not fired at once (it was 8 retries in 131 ms)", async () => {
      const { client, api } = await setup(
        { turns: [{ content: [{ type: "text", text: "ok" }], faults: [{ type: "rate_limit", retryAfterMs: 2 ** 31 + 5 }] }] },
        { ...FAST_RETRY, maxRetryAfterMs: Number.POSITIVE_INFINITY },
      );
      const abort = new AbortController();
      const it = client.stream(request({ signal: abort.signal }))[Symbol.asyncIterator]();
      const first = await it.next();
      expect(first.value).toMatchObject({ type: "retry", delayMs: 2 ** 31 + 5 });
      // The timer the wait arms (recorded, not replaced): above 2^31 - 1 ms it would fire at once.
      const armed: number[] = [];
      const real = globalThis.setTimeout;
      globalThis.setTimeout = ((fn: () => void, ms?: number) => (armed.push(ms ?? 0), real(fn, ms))) as typeof setTimeout;
      const next = it.next();
      globalThis.setTimeout = real;
      await Promise.resolve();
      expect(armed.length).toBeGreaterThan(0);
      expect(Math.max(...armed)).toBe(2 ** 31 - 1);
      abort.abort();
      await next.catch(() => {});
      expect(api.requests.length).toBe(1);
    });
  });

  test("529 and 500 are retried with backoff", async () => {
    const { client, api } = await setup({
      turns: [{ content: [{ type: "text", text: "ok" }], faults: [{ type: "overloaded" }, { type: "server_error", status: 503 }] }],
    });
    const { events, error } = await collect(client.stream(request()));
    expect(error).toBeNull();
    const retries = events.flatMap((e) => (e.type === "retry" ? [e] : []));
    expect(retries.map((r) => [r.attempt, r.status])).toEqual([
      [1, 529],
      [2, 503],
    ]);
    for (const r of retries) expect(r.delayMs).toBeLessThanOrEqual(4);
    expect(api.requests.map((r) => r.outcome)).toEqual(["fault", "fault", "served"]);
  });

  for (const fault of [
    { type: "stream_error" as const, afterEvents: 5 },
    { type: "cut" as const, afterEvents: 5 },
  ]) {
    test(`${fault.type} after deltas were yielded: retry says the partial is void, the final message is whole`, async () => {
      const { client } = await setup({
        turns: [{ content: [{ type: "text", text: "abcdefghijklmnopqrstuvwxyz" }], pacing: { textChunk: 3 }, faults: [fault] }],
      });
      const { events, error } = await collect(client.stream(request()));
      expect(error).toBeNull();
      const types = events.map((e) => e.type);
      const retryAt = types.indexOf("retry");
      expect(types.slice(0, retryAt)).toContain("text_delta");
      expect(events[retryAt]).toMatchObject({ type: "retry", partialDiscarded: true });
      expect(types.filter((t) => t === "message_start").length).toBe(2);
      const after = events.slice(retryAt).flatMap((e) => (e.type === "text_delta" ? [e.text] : []));
      expect(after.join("")).toBe("abcdefghijklmnopqrstuvwxyz");
      expect(done(events).content).toEqual([{ type: "text", text: "abcdefghijklmnopqrstuvwxyz" }]);
    });
  }

  test("a consumer slower than the idle timeout is not a silent stream: only waiting for the server counts", async () => {
    api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "abcdef" }], pacing: { textChunk: 2, delayMs: 0 } }] } });
    const client = createAnthropicClient({ apiKey: "k", baseURL: api.url, retry: { maxRetries: 0, baseDelayMs: 1 }, idleTimeoutMs: 150 });
    const events: ModelEvent[] = [];
    // The consumer (the agent loop, a permission prompt) holds the stream between events for
    // three idle timeouts while the server has long since sent everything.
    for await (const ev of client.stream(request())) {
      events.push(ev);
      if (events.length === 2) await Bun.sleep(450);
    }
    expect(events.some((e) => e.type === "retry")).toBe(false);
    expect(done(events).content).toEqual([{ type: "text", text: "abcdef" }]);
  });

  test("a stream that goes silent is treated as cut and retried", async () => {
    api = await startFakeApi({
      scenario: { turns: [{ content: [{ type: "text", text: "slow" }], pacing: { delayMs: 400 } }, { content: [{ type: "text", text: "x" }] }] },
    });
    const client = createAnthropicClient({ apiKey: "k", baseURL: api.url, retry: { maxRetries: 1, baseDelayMs: 1 }, idleTimeoutMs: 60 });
    const { events, error } = await collect(client.stream(request()));
    expect(events.find((e) => e.type === "retry")).toMatchObject({ message: expect.stringContaining("no data for 60 ms"), partialDiscarded: false });
    expect(error).toMatchObject({ kind: "retryable" });
    expect(error?.message).toContain("Gave up after 1 retries");
    // The same request again is a retry: the fake serves the abandoned turn again, not the next one.
    expect(api.requests.map((r) => r.turn)).toEqual([0, 0]);
  });

  test("after maxRetries the error is retryable and says it gave up", async () => {
    const { client, api } = await setup(
      { turns: [{ content: [{ type: "text", text: "never" }], faults: [{ type: "overloaded" }, { type: "overloaded" }, { type: "overloaded" }] }] },
      { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 2 },
    );
    const { events, error } = await collect(client.stream(request()));
    expect(error?.kind).toBe("retryable");
    expect(error?.status).toBe(529);
    expect(error?.message).toContain("Gave up after 2 retries");
    expect(events.filter((e) => e.type === "retry").length).toBe(2);
    expect(api.requests.length).toBe(3);
  });
});

describe("non-retryable failures", () => {
  test("400 prompt too long is an overflow with the token counts, never retried", async () => {
    const { client, api } = await setup({
      turns: [{ content: [{ type: "text", text: "x" }], faults: [{ type: "prompt_too_long", tokens: 210_345, maximum: 200_000 }] }],
    });
    const { events, error } = await collect(client.stream(request()));
    expect(error?.kind).toBe("overflow");
    expect(error?.tokens).toEqual({ actual: 210_345, maximum: 200_000 });
    expect(events.some((e) => e.type === "retry")).toBe(false);
    expect(api.requests.length).toBe(1);
  });

  test("401 is fatal and names ANTHROPIC_API_KEY", async () => {
    const { client, api } = await setup({
      turns: [{ content: [{ type: "text", text: "x" }], faults: [{ type: "status", status: 401, errorType: "authentication_error", message: "invalid x-api-key" }] }],
    });
    const { error } = await collect(client.stream(request()));
    expect(error?.kind).toBe("fatal");
    expect(error?.status).toBe(401);
    expect(error?.message).toContain("ANTHROPIC_API_KEY");
    expect(api.requests.length).toBe(1);
  });

  test("a wrong key against a server that checks it is the same fatal 401", async () => {
    api = await startFakeApi({ scenario: { apiKey: "right", turns: [{ content: [{ type: "text", text: "x" }] }] } });
    const client = createAnthropicClient({ apiKey: "wrong", baseURL: api.url, retry: FAST_RETRY });
    const { error } = await collect(client.stream(request()));
    expect(error?.kind).toBe("fatal");
    expect(error?.message).toMatch(/ANTHROPIC_API_KEY/);
  });

  test("no key at all fails before any request, naming ANTHROPIC_API_KEY", async () => {
    api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "x" }] }] } });
    const saved = { key: process.env.ANTHROPIC_API_KEY, token: process.env.ANTHROPIC_AUTH_TOKEN };
    delete process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_AUTH_TOKEN;
    try {
      const client = createAnthropicClient({ baseURL: api.url });
      const { error } = await collect(client.stream(request()));
      expect(error?.kind).toBe("fatal");
      expect(error?.message).toContain("Set ANTHROPIC_API_KEY");
      expect(api.requests.length).toBe(0);
    } finally {
      if (saved.key !== undefined) process.env.ANTHROPIC_API_KEY = saved.key;
      if (saved.token !== undefined) process.env.ANTHROPIC_AUTH_TOKEN = saved.token;
    }
  });

  test("an unknown model is fatal, names the model and suggests valid ones", async () => {
    const { client } = await setup({ turns: [{ content: [{ type: "text", text: "x" }] }] });
    const { error } = await collect(client.stream(request({ model: "gpt-5-turbo" })));
    expect(error?.kind).toBe("fatal");
    expect(error?.status).toBe(404);
    expect(error?.message).toContain('"gpt-5-turbo"');
    expect(error?.message).toContain("claude-sonnet-5-5");
  });

  test("403 is fatal", async () => {
    const { client } = await setup({
      turns: [{ content: [{ type: "text", text: "x" }], faults: [{ type: "status", status: 403, errorType: "permission_error", message: "no access" }] }],
    });
    const { error } = await collect(client.stream(request()));
    expect(error).toMatchObject({ kind: "fatal", status: 403 });
  });

  test("an invalid conversation is a fatal 400 carrying the API's reason", async () => {
    const { client, api } = await setup({ turns: [{ content: [{ type: "text", text: "x" }] }] });
    const messages: Message[] = [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_1", name: "read", input: {} }] },
      { role: "user", content: "where is my result?" },
    ];
    const { error } = await collect(client.stream(request({ messages })));
    expect(error).toMatchObject({ kind: "fatal", status: 400 });
    expect(error?.message).toContain("toolu_1");
    expect(api.requests.length).toBe(1);
  });
});

describe("abort", () => {
  test("abort mid-stream stops within 100 ms and keeps the text streamed so far", async () => {
    const { client } = await setup({
      turns: [{ content: [{ type: "text", text: "word ".repeat(400) }], pacing: { textChunk: 5, delayMs: 5 } }],
    });
    const controller = new AbortController();
    const seen: string[] = [];
    let abortedAt = 0;
    let error: unknown = null;
    try {
      for await (const ev of client.stream(request({ signal: controller.signal }))) {
        if (ev.type === "text_delta") seen.push(ev.text);
        if (seen.length === 3 && abortedAt === 0) {
          abortedAt = performance.now();
          controller.abort();
        }
      }
    } catch (e) {
      error = e;
    }
    const elapsed = performance.now() - abortedAt;
    expect(error).toBeInstanceOf(ModelError);
    const e = error as ModelError;
    expect(e.kind).toBe("aborted");
    expect(elapsed).toBeLessThan(100);
    expect(e.partial).toEqual([{ type: "text", text: seen.join("") }]);
  });

  test("abort while waiting to retry ends the wait at once", async () => {
    const { client } = await setup(
      { turns: [{ content: [{ type: "text", text: "x" }], faults: [{ type: "rate_limit", retryAfterSeconds: 30 }] }] },
      { maxRetries: 3 },
    );
    const controller = new AbortController();
    let error: unknown = null;
    let abortedAt = 0;
    try {
      for await (const ev of client.stream(request({ signal: controller.signal }))) {
        if (ev.type === "retry") {
          expect(ev.delayMs).toBe(30_000);
          abortedAt = performance.now();
          controller.abort();
        }
      }
    } catch (e) {
      error = e;
    }
    expect(error).toMatchObject({ kind: "aborted" });
    expect(performance.now() - abortedAt).toBeLessThan(100);
  });
});

describe("request shape", () => {
  test("cache breakpoints: system kept, newest message and the previous turn's end marked, never over 4, caller's data untouched", async () => {
    const { client, api } = await setup({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
    const messages: Message[] = [
      { role: "user", content: "first" },
      { role: "assistant", content: [{ type: "tool_use", id: "toolu_a", name: "read", input: { file_path: "a" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_a", content: "A" }] },
      { role: "assistant", content: [{ type: "text", text: "thinking about it" }, { type: "tool_use", id: "toolu_b", name: "read", input: { file_path: "b" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "toolu_b", content: "B" }, { type: "text", text: "and hurry" }] },
    ];
    const system = [
      { type: "text" as const, text: "static", cache_control: { type: "ephemeral" as const } },
      { type: "text" as const, text: "dynamic" },
    ];
    const before = structuredClone({ messages, system });
    await collect(client.stream(request({ messages, system })));
    expect({ messages, system }).toEqual(before);

    const body = api.requests[0]!.body as { system: Array<Record<string, unknown>>; messages: Array<{ content: Array<Record<string, unknown>> }> };
    const marked = (b: Record<string, unknown>) => b.cache_control !== undefined;
    expect(body.system.map(marked)).toEqual([true, false]);
    const perMessage = body.messages.map((m) => (typeof m.content === "string" ? "plain" : m.content.map(marked)));
    expect(perMessage).toEqual(["plain", [false], [true], [false, false], [false, true]]);
  });

  test("each turn reads what the previous turn wrote to the cache", async () => {
    const { client } = await setup({ turns: [{ content: [{ type: "tool_use", name: "read", input: { file_path: "a" } }] }, { content: [{ type: "text", text: "done" }] }] });
    const first = done((await collect(client.stream(request()))).events);
    const toolUse = first.content[0];
    if (toolUse?.type !== "tool_use") throw new Error("expected a tool_use");
    const messages: Message[] = [
      { role: "user", content: "hello" },
      { role: "assistant", content: first.content },
      { role: "user", content: [{ type: "tool_result", tool_use_id: toolUse.id, content: "x".repeat(4000) }] },
    ];
    const second = done((await collect(client.stream(request({ messages })))).events);
    expect(first.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    // Everything the first request wrote is read back; only the new turn is written.
    expect(second.usage.cache_read_input_tokens).toBe(first.usage.cache_creation_input_tokens + first.usage.cache_read_input_tokens);
    expect(second.usage.cache_creation_input_tokens).toBeGreaterThan(1000);
  });

  test("the SDK's deprecation notice does not leak to the terminal", async () => {
    const { client } = await setup({ turns: [{ content: [{ type: "text", text: "a" }] }] });
    const warned: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warned.push(args);
    try {
      const { error } = await collect(client.stream(request({ model: "claude-sonnet-4-5" })));
      expect(error).toBeNull();
    } finally {
      console.warn = warn;
    }
    expect(warned).toEqual([]);
  });

  test("a thinking budget becomes extended thinking on older models and adaptive thinking on adaptive ones", async () => {
    const { client, api } = await setup({ turns: [{ content: [{ type: "text", text: "a" }] }, { content: [{ type: "text", text: "b" }] }] });
    await collect(client.stream(request({ model: "claude-haiku-4-5", thinkingBudget: 8000, maxTokens: 4000 })));
    await collect(client.stream(request({ model: "claude-sonnet-5-5", thinkingBudget: 8000 })));
    const [a, b] = api.requests.map((r) => r.body as Record<string, unknown>);
    expect(a!.thinking).toEqual({ type: "enabled", budget_tokens: 8000 });
    expect(a!.max_tokens as number).toBeGreaterThan(8000);
    expect(b!.thinking).toEqual({ type: "adaptive" });
    expect(b!.max_tokens).toBe(32_000);
  });

  test("a thinking budget under the API's 1024 becomes 1024 instead of a request the API refuses", async () => {
    const { client, api } = await setup({ turns: [{ content: [{ type: "text", text: "a" }] }] });
    const { error } = await collect(client.stream(request({ model: "claude-haiku-4-5", thinkingBudget: 500, maxTokens: 800 })));
    expect(error).toBeNull();
    const body = api.requests[0]!.body as Record<string, unknown>;
    expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 1024 });
    expect(body.max_tokens as number).toBeGreaterThan(1024);
  });
});
