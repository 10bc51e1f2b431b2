// The fake Messages API seen from outside, with plain fetch: exact wire format, request
// validation, scenario faults and checks, and the CLI entry.
import { afterEach, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeApi, validateMessagesRequest, type FakeApi, type ScenarioInput } from "../support/fake-api.ts";

let api: FakeApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

const HEADERS = { "content-type": "application/json", "x-api-key": "k", "anthropic-version": "2023-06-01" };
const body = (over: Record<string, unknown> = {}) => ({
  model: "claude-sonnet-5-5",
  max_tokens: 1000,
  messages: [{ role: "user", content: "hi" }],
  ...over,
});

async function start(scenario: ScenarioInput) {
  api = await startFakeApi({ scenario });
  return api;
}

function post(path: string, b: unknown, headers: Record<string, string> = HEADERS) {
  return fetch(api!.url + path, { method: "POST", headers, body: JSON.stringify(b) });
}

/** Parse an SSE body into [event, data] pairs. */
function parseSse(text: string): Array<{ event: string; data: Record<string, unknown> }> {
  return text
    .split("\n\n")
    .filter((chunk) => chunk.trim() !== "")
    .map((chunk) => {
      const lines = chunk.split("\n");
      const event = lines.find((l) => l.startsWith("event: "))!.slice(7);
      const data = JSON.parse(lines.find((l) => l.startsWith("data: "))!.slice(6)) as Record<string, unknown>;
      return { event, data };
    });
}

describe("wire format", () => {
  test("a streamed turn sends the exact event sequence, with cumulative usage in message_delta", async () => {
    await start({
      turns: [
        {
          content: [
            { type: "thinking", thinking: "hmm", signature: "SIG" },
            { type: "text", text: "Hello" },
            { type: "tool_use", name: "bash", input: { command: "ls" } },
          ],
          usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 30, cache_creation_input_tokens: 40 },
          pacing: { textChunk: 100, jsonChunk: 100 },
        },
      ],
    });
    const res = await post("/v1/messages", body({ stream: true }));
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const events = parseSse(await res.text());
    for (const e of events) expect(e.data.type).toBe(e.event);
    expect(events.map((e) => e.event)).toEqual([
      "message_start",
      "content_block_start",
      "ping",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
    ]);
    const start0 = events[0]!.data.message as Record<string, unknown>;
    expect(start0).toMatchObject({ type: "message", role: "assistant", content: [], stop_reason: null, model: "claude-sonnet-5-5" });
    expect(events[1]!.data.content_block).toEqual({ type: "thinking", thinking: "", signature: "" });
    expect(events[4]!.data.delta).toEqual({ type: "signature_delta", signature: "SIG" });
    expect(events[9]!.data.content_block).toMatchObject({ type: "tool_use", name: "bash", input: {} });
    expect(events[10]!.data.delta).toEqual({ type: "input_json_delta", partial_json: "" });
    expect(events[11]!.data.delta).toEqual({ type: "input_json_delta", partial_json: '{"command":"ls"}' });
    expect(events[13]!.data).toEqual({
      type: "message_delta",
      delta: { stop_reason: "tool_use", stop_sequence: null },
      usage: { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 30, cache_creation_input_tokens: 40 },
    });
  });

  test("non-streaming answers the whole message as JSON", async () => {
    await start({ turns: [{ content: [{ type: "text", text: "Hi there" }] }] });
    const res = await post("/v1/messages", body());
    const json = (await res.json()) as Record<string, unknown>;
    expect(json).toMatchObject({ type: "message", role: "assistant", content: [{ type: "text", text: "Hi there" }], stop_reason: "end_turn" });
    expect(res.headers.get("request-id")).toMatch(/^req_/);
  });

  test("count_tokens answers an estimate and consumes no turn", async () => {
    const a = await start({ turns: [{ content: [{ type: "text", text: "x" }] }] });
    const res = await post("/v1/messages/count_tokens", { model: "claude-sonnet-5-5", messages: [{ role: "user", content: "a".repeat(400) }] });
    expect(((await res.json()) as { input_tokens: number }).input_tokens).toBeGreaterThanOrEqual(100);
    expect(a.turnsServed()).toBe(0);
  });
});

describe("scenario", () => {
  test("a fault consumes an attempt, not the turn; then the turn is served; then the closing text", async () => {
    const a = await start({
      turns: [{ content: [{ type: "text", text: "first" }], faults: [{ type: "overloaded" }, { type: "rate_limit", retryAfterSeconds: 2 }] }],
      whenDone: { type: "text", text: "all done" },
    });
    const r1 = await post("/v1/messages", body());
    expect(r1.status).toBe(529);
    expect(((await r1.json()) as { error: { type: string } }).error.type).toBe("overloaded_error");
    const r2 = await post("/v1/messages", body());
    expect(r2.status).toBe(429);
    expect(r2.headers.get("retry-after")).toBe("2");
    const r3 = (await (await post("/v1/messages", body())).json()) as { content: Array<{ text: string }> };
    expect(r3.content[0]!.text).toBe("first");
    const r4 = (await (await post("/v1/messages", body())).json()) as { content: Array<{ text: string }> };
    expect(r4.content[0]!.text).toBe("all done");
    expect(a.requests.map((r) => [r.turn, r.outcome, r.fault ?? null])).toEqual([
      [0, "fault", "overloaded"],
      [0, "fault", "rate_limit"],
      [0, "served", null],
      [null, "done", null],
    ]);
  });

  test("a mid-stream error event arrives inside a 200 after the first events", async () => {
    await start({ turns: [{ content: [{ type: "text", text: "abcdef" }], pacing: { textChunk: 1 }, faults: [{ type: "stream_error", afterEvents: 4 }] }] });
    const res = await post("/v1/messages", body({ stream: true }));
    expect(res.status).toBe(200);
    const events = parseSse(await res.text());
    expect(events.map((e) => e.event)).toEqual(["message_start", "content_block_start", "ping", "content_block_delta", "error"]);
    expect(events[4]!.data).toEqual({ type: "error", error: { type: "overloaded_error", message: "Overloaded" } });
  });

  test("a cut drops the connection mid-body", async () => {
    await start({ turns: [{ content: [{ type: "text", text: "abcdef" }], faults: [{ type: "cut", afterEvents: 3 }] }] });
    const res = await post("/v1/messages", body({ stream: true }));
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  test("prompt too long is the API's exact 400", async () => {
    await start({ turns: [{ content: [{ type: "text", text: "x" }], faults: [{ type: "prompt_too_long", tokens: 250_000, maximum: 200_000 }] }] });
    const res = await post("/v1/messages", body());
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error", message: "prompt is too long: 250000 tokens > 200000 maximum" } });
  });

  test("expectations on the request: a failed check answers 400 and is recorded; a met one serves the turn", async () => {
    const a = await start({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "false" } }] },
        { content: [{ type: "text", text: "saw the error" }], expect: { lastHasToolResult: { isError: true, contentMatches: "exit code 1" } } },
      ],
    });
    const first = (await (await post("/v1/messages", body({ stream: false }))).json()) as { content: Array<{ id: string }> };
    const toolUseId = first.content[0]!.id;
    expect(toolUseId).toMatch(/^toolu_fake_[a-z0-9]+_0_0$/);
    const history = (isError: boolean) => [
      { role: "user", content: "hi" },
      { role: "assistant", content: [{ type: "tool_use", id: toolUseId, name: "bash", input: { command: "false" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: toolUseId, content: "exit code 1", is_error: isError }] },
    ];
    const bad = await post("/v1/messages", body({ messages: history(false) }));
    expect(bad.status).toBe(400);
    expect(a.checkFailures.length).toBe(1);
    expect(a.checkFailures[0]).toContain("is_error=true");
    const good = await post("/v1/messages", body({ messages: history(true) }));
    expect(good.status).toBe(200);
    expect(a.turnsServed()).toBe(2);
  });

  test("requests without a key are 401; unknown models 404; invalid scenarios are refused with the path", async () => {
    await start({ turns: [{ content: [{ type: "text", text: "x" }] }] });
    const { "x-api-key": _, ...noKey } = HEADERS;
    expect((await post("/v1/messages", body(), noKey)).status).toBe(401);
    const res = await post("/v1/messages", body({ model: "gpt-4" }));
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ error: { type: "not_found_error", message: "model: gpt-4" } });
    await expect(startFakeApi({ scenario: { turns: [{ content: [{ type: "tool_use", name: "x" }] }] } as unknown as ScenarioInput })).rejects.toThrow(
      /turns\.0\.content\.0\.input/,
    );
  });
});

describe("pacing", () => {
  test("bursts arrive as whole groups of events, never split", async () => {
    await start({ turns: [{ content: [{ type: "text", text: "abcdefghijklmnopqrstuvwxyz" }], pacing: { textChunk: 1, burst: 3, delayMs: 5 } }] });
    const res = await post("/v1/messages", body({ stream: true }));
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    const perRead: number[] = [];
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      const text = decoder.decode(value, { stream: true });
      expect(text.endsWith("\n\n")).toBe(true);
      perRead.push(text.split("\n\n").length - 1);
    }
    // A slow reader may get several bursts at once, but each read holds whole bursts.
    for (const n of perRead.slice(0, -1)) expect(n % 3).toBe(0);
    expect(perRead.reduce((a, b) => a + b, 0)).toBe(26 + 6);
  });
});

describe("request validation", () => {
  const v = (messages: unknown[], over: Record<string, unknown> = {}) => validateMessagesRequest(body({ messages, ...over }));
  const use = (id: string) => ({ type: "tool_use", id, name: "read", input: {} });
  const result = (id: string) => ({ type: "tool_result", tool_use_id: id, content: "ok" });

  test("a valid tool round-trip passes", () => {
    expect(v([{ role: "user", content: "q" }, { role: "assistant", content: [use("t1"), use("t2")] }, { role: "user", content: [result("t1"), result("t2")] }])).toBeNull();
  });

  test.each([
    ["first message from the assistant", [{ role: "assistant", content: "a" }], /first message must use the "user" role/],
    ["two user messages in a row", [{ role: "user", content: "a" }, { role: "user", content: "b" }], /roles must alternate/],
    ["an unanswered tool_use", [{ role: "user", content: "q" }, { role: "assistant", content: [use("t1"), use("t2")] }, { role: "user", content: [result("t1")] }], /messages\.1: `tool_use` ids were found without `tool_result` blocks immediately after: t2/],
    ["a tool_result for an unknown id", [{ role: "user", content: "q" }, { role: "assistant", content: [use("t1")] }, { role: "user", content: [result("t1"), result("zz")] }], /unexpected `tool_use_id`.*zz/],
    ["text before the tool results", [{ role: "user", content: "q" }, { role: "assistant", content: [use("t1")] }, { role: "user", content: [{ type: "text", text: "hey" }, result("t1")] }], /tool_result blocks must come first/],
    ["an empty text block", [{ role: "user", content: [{ type: "text", text: "" }] }], /text content blocks must be non-empty/],
    ["an empty user message", [{ role: "user", content: [] }], /non-empty content/],
    ["thinking without a signature", [{ role: "user", content: "q" }, { role: "assistant", content: [{ type: "thinking", thinking: "t" }] }], /signature/],
    ["a tool_use whose input is not an object", [{ role: "user", content: "q" }, { role: "assistant", content: [{ type: "tool_use", id: "t", name: "r", input: "x" }] }, { role: "user", content: [result("t")] }], /valid dictionary/],
    ["a tool_use left open at the end", [{ role: "user", content: "q" }, { role: "assistant", content: [use("t1")] }], /without `tool_result`/],
  ])("rejects %s", (_name, messages, re) => {
    expect(v(messages)).toMatch(re);
  });

  test("rejects two tools of one name, deferred or not, as the API does", () => {
    const tool = (name: string, more: Record<string, unknown> = {}) => ({ name, description: "d", input_schema: { type: "object" }, ...more });
    const q = [{ role: "user", content: "q" }];
    expect(v(q, { tools: [tool("mcp__s__a_b"), tool("mcp__s__a_b_1234abcd")] })).toBeNull();
    expect(v(q, { tools: [tool("mcp__s__a_b"), tool("mcp__s__a_b")] })).toBe("tools: Tool names must be unique.");
    expect(v(q, { tools: [tool("mcp__s__a_b"), tool("mcp__s__a_b", { defer_loading: true })] })).toBe("tools: Tool names must be unique.");
  });

  test("rejects more than 4 cache_control blocks, and bad thinking budgets", () => {
    const marked = { type: "text", text: "s", cache_control: { type: "ephemeral" } };
    expect(v([{ role: "user", content: "q" }], { system: [marked, marked, marked, marked, marked] })).toBe(
      "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    );
    expect(v([{ role: "user", content: "q" }], { thinking: { type: "enabled", budget_tokens: 2000 }, max_tokens: 1000 })).toMatch(/max_tokens/);
  });

  test("over HTTP an invalid request is a 400 invalid_request_error and consumes no turn", async () => {
    const a = await start({ turns: [{ content: [{ type: "text", text: "x" }] }] });
    const res = await post("/v1/messages", body({ messages: [{ role: "assistant", content: "a" }] }));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
    expect(a.requests[0]!.outcome).toBe("invalid");
    expect(a.turnsServed()).toBe(0);
  });
});

describe("scenario files", () => {
  test("every scenario file shipped for CI parses", async () => {
    const { parseScenario } = await import("../../src/fakeapi/scenario.ts");
    const glob = new Bun.Glob("*.json");
    const dir = join(import.meta.dir, "scenarios");
    let n = 0;
    for await (const f of glob.scan(dir)) {
      expect(() => parseScenario(JSON.parse(readFileSync(join(dir, f), "utf8")))).not.toThrow();
      n++;
    }
    expect(n).toBeGreaterThan(0);
  });
});

describe("cli", () => {
  test("prints its URL first, serves the scenario from a file, records requests, and stops on SIGTERM", async () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-fakeapi-"));
    const scenarioPath = join(dir, "s.json");
    const recordPath = join(dir, "requests.jsonl");
    writeFileSync(scenarioPath, JSON.stringify({ turns: [{ content: [{ type: "text", text: "from a file" }] }] }));
    const proc = Bun.spawn([process.execPath, "src/fakeapi/cli.ts", "--scenario", scenarioPath, "--record", recordPath], {
      cwd: join(import.meta.dir, "../.."),
      stdout: "pipe",
      stderr: "pipe",
    });
    try {
      const reader = proc.stdout.getReader();
      let out = "";
      while (!out.includes("\n")) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`cli exited early: ${await new Response(proc.stderr).text()}`);
        out += new TextDecoder().decode(value);
      }
      const url = out.split("\n")[0]!;
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const res = await fetch(url + "/v1/messages", { method: "POST", headers: HEADERS, body: JSON.stringify(body()) });
      expect(((await res.json()) as { content: Array<{ text: string }> }).content[0]!.text).toBe("from a file");
      const recorded = readFileSync(recordPath, "utf8").trim().split("\n").map((l) => JSON.parse(l) as { outcome: string; headers: Record<string, string> });
      expect(recorded.map((r) => r.outcome)).toEqual(["served"]);
      expect(recorded[0]!.headers["x-api-key"]).not.toBe("k");
    } finally {
      proc.kill("SIGTERM");
    }
    expect(await proc.exited).toBe(0);
  });
});
