// Print mode end to end: the real CLI, the real SDK over real HTTP, the fake Messages API.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { cliCommand, isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();

describe("print mode", () => {
  test("stream-json: tool calls, an unknown tool, malformed input, a 529 and a 429 → valid NDJSON, init first, result last", async () => {
    const dir = tempProject();
    writeFileSync(join(dir, "notes.txt"), "alpha\nbeta\n");
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "Reading." }, { type: "tool_use", name: "read", input: { file_path: "notes.txt" } }], faults: [{ type: "overloaded" }] },
        { content: [{ type: "tool_use", name: "teleport", input: { to: "mars" } }], expect: { lastHasToolResult: { isError: false, contentMatches: "beta" } } },
        { content: [{ type: "tool_use", name: "read", input: { path: 42 } }], expect: { lastHasToolResult: { isError: true } }, faults: [{ type: "rate_limit", retryAfterMs: 20 }] },
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo made > out.txt && cat out.txt" } }], expect: { lastHasToolResult: { isError: true } } },
        { content: [{ type: "text", text: "All done: out.txt written." }], expect: { lastHasToolResult: { isError: false, contentMatches: "made" } } },
      ],
    });
    const r = await runCli(["-p", "do the thing", "--output-format", "stream-json", "--permission-mode", "bypassPermissions"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    const lines = parseNdjson(r.stdout);
    expect(lines[0]).toMatchObject({ type: "system", subtype: "init", model: expect.any(String), cwd: expect.any(String), permissionMode: "bypassPermissions" });
    expect(lines[0]!.tools).toEqual(["Read", "Write", "Edit", "Grep", "Glob", "Bash", "Process", "Agent", "SendMessage", "WebSearch", "WebFetch"]);
    const result = lines.at(-1)!;
    expect(result).toMatchObject({ type: "result", subtype: "success", is_error: false, result: "All done: out.txt written.", num_turns: 5 });
    for (const k of ["session_id", "total_cost_usd", "usage", "duration_ms", "permission_denials"]) expect(result).toHaveProperty(k);
    const retries = lines.filter((l) => l.type === "system" && l.subtype === "api_retry");
    expect(retries.map((l) => l.error_status)).toEqual([529, 429]);
    const toolResults = lines.filter((l) => l.type === "user");
    expect(toolResults.length).toBe(4);
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("made\n");
    expect(r.code).toBe(0);
    // Every line carries the session id of init.
    for (const l of lines) expect(l.session_id).toBe(lines[0]!.session_id);
  });

  test("text mode streams the answer to stdout and nothing else; the task can come from stdin", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "line one\nline two\n" }] }] });
    const r = await runCli([], { cwd: tempProject(), env: isolatedEnv(server.url), stdin: "say two lines" });
    expect(r.stdout).toBe("line one\nline two\n");
    expect(r.code).toBe(0);
    const body = server.requests.find((q) => q.outcome === "served")!.body as { messages: Array<{ content: unknown }> };
    expect(JSON.stringify(body.messages[0]!.content)).toContain("say two lines");
  });

  test("text mode says every retry on stderr (a run waiting out retries must not look hung), and a cut answer", async () => {
    const server = await serve({
      turns: [
        {
          content: [{ type: "text", text: "Partial answer cut by the lim" }],
          stop_reason: "max_tokens",
          faults: [{ type: "rate_limit", retryAfterMs: 30 }, { type: "overloaded" }],
        },
      ],
    });
    const r = await runCli(["-p", "go"], { cwd: tempProject(), env: isolatedEnv(server.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("Partial answer cut by the lim\n");
    const said = r.stderr.split("\n").filter(Boolean);
    expect(said[0]).toMatch(/^khaelor: Rate limited by the API \(429 rate_limit_error: [^)]*[^.]\)\. Retry 1 of 8 in 30 ms\.$/);
    expect(said[1]).toMatch(/^khaelor: The API is overloaded \(529 overloaded_error: [^)]*[^.]\)\. Retry 2 of 8 in \d+(\.\ds| ms)\.$/);
    expect(said[2]).toBe("khaelor: the answer hit the output-token limit and was cut off");
  });

  test("--include-partial-messages streams Anthropic's event sequence before each assistant message", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "Let me look." }, { type: "tool_use", name: "glob", input: { pattern: "*.md" } }] },
        { content: [{ type: "redacted_thinking", data: "abc" }, { type: "text", text: "None." }] },
      ],
    });
    const r = await runCli(["-p", "look", "--output-format", "stream-json", "--include-partial-messages"], { cwd: tempProject(), env: isolatedEnv(server.url) });
    const lines = parseNdjson(r.stdout);
    const seq = lines.map((l) => (l.type === "stream_event" ? (l.event as { type: string }).type : String(l.type))).filter((t, i, a) => t !== a[i - 1]);
    expect(seq.slice(0, 12)).toEqual([
      "system",
      "message_start",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "content_block_start",
      "content_block_delta",
      "content_block_stop",
      "message_delta",
      "message_stop",
      "assistant",
      "user",
    ]);
    const starts = lines.filter((l) => l.type === "stream_event" && (l.event as { type: string }).type === "content_block_start").map((l) => (l.event as { content_block: { type: string } }).content_block.type);
    expect(starts).toEqual(["text", "tool_use", "redacted_thinking", "text"]);
  });

  test("json prints only the result object", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "42" }] }] });
    const r = await runCli(["-p", "answer", "--output-format", "json"], { cwd: tempProject(), env: isolatedEnv(server.url) });
    const lines = parseNdjson(r.stdout);
    expect(lines.length).toBe(1);
    expect(lines[0]).toMatchObject({ type: "result", subtype: "success", result: "42" });
  });

  test("--max-turns stops with exit code 3 and error_max_turns", async () => {
    const loop = (n: number) => ({ content: [{ type: "tool_use" as const, name: "bash", input: { command: `echo ${n}` } }] });
    const server = await serve({ turns: [loop(1), loop(2), loop(3), loop(4)] });
    const r = await runCli(["-p", "loop", "--max-turns", "2", "--output-format", "json", "--permission-mode", "bypassPermissions"], { cwd: tempProject(), env: isolatedEnv(server.url) });
    expect(r.code).toBe(3);
    expect(parseNdjson(r.stdout)[0]).toMatchObject({ subtype: "error_max_turns", is_error: true });
  });

  test("a repeated identical call is a doom loop: exit code 5", async () => {
    const same = { content: [{ type: "tool_use" as const, name: "bash", input: { command: "echo same" } }] };
    const server = await serve({ turns: Array.from({ length: 8 }, () => same) });
    const r = await runCli(["-p", "loop", "--permission-mode", "bypassPermissions"], { cwd: tempProject(), env: isolatedEnv(server.url) });
    expect(r.code).toBe(5);
  });

  test("an edit that cannot succeed fails before anyone is asked: no denial, the real reason", async () => {
    const dir = tempProject();
    writeFileSync(join(dir, "a.txt"), "alpha\n");
    const edit = (old_string: string) => ({ type: "tool_use" as const, name: "edit", input: { file_path: "a.txt", old_string, new_string: "x" } });
    const server = await serve({
      turns: [
        { content: [edit("alpha")] },
        { content: [{ type: "tool_use", name: "read", input: { file_path: "a.txt" } }], expect: { lastHasToolResult: { isError: true, contentMatches: "has not been read" } } },
        { content: [edit("nothere")] },
        { content: [{ type: "text", text: "gave up" }], expect: { lastHasToolResult: { isError: true, contentMatches: "not found|did not match|no match" } } },
      ],
    });
    const r = await runCli(["-p", "edit it", "--output-format", "json"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    expect(parseNdjson(r.stdout)[0]!.permission_denials).toEqual([]);
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("alpha\n");
  });

  test("asks become denials listed in permission_denials", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "touch x" } }] },
        { content: [{ type: "text", text: "could not" }], expect: { lastHasToolResult: { isError: true, contentMatches: "Permission denied" } } },
      ],
    });
    const r = await runCli(["-p", "touch", "--output-format", "json"], { cwd: tempProject(), env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    const result = parseNdjson(r.stdout)[0]!;
    expect(result.permission_denials).toEqual([{ tool_name: "bash", tool_use_id: expect.any(String), tool_input: { command: "touch x" } }]);
  });

  test("a missing API key is a clear error, exit code 1", async () => {
    const env = isolatedEnv(null);
    delete env.ANTHROPIC_API_KEY;
    const r = await runCli(["-p", "hi"], { cwd: tempProject(), env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
    expect(r.stdout).toBe("");
  });

  test("a fatal API error names the cause; exit code 1", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "x" }], faults: [{ type: "status", status: 401, errorType: "authentication_error", message: "invalid x-api-key" }] }] });
    const r = await runCli(["-p", "hi"], { cwd: tempProject(), env: isolatedEnv(server.url) });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("ANTHROPIC_API_KEY");
  });

  test("usage errors exit 2 and name the flag", async () => {
    const r = await runCli(["-p", "x", "--max-turns", "zero"], { cwd: tempProject(), env: isolatedEnv(null) });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--max-turns");
    const u = await runCli(["--frobnicate"], { cwd: tempProject(), env: isolatedEnv(null) });
    expect(u.code).toBe(2);
    expect(u.stderr).toContain("--frobnicate");
  });

  test("SIGINT stops a streaming answer at once, keeps the partial text, exit code 130", async () => {
    const long = "word ".repeat(4000);
    const server = await serve({ turns: [{ content: [{ type: "text", text: `first line\n${long}` }], pacing: { textChunk: 5, delayMs: 5 } }] });
    const proc = Bun.spawn(cliCommand(["-p", "talk", "--output-format", "stream-json", "--include-partial-messages"]), {
      cwd: tempProject(),
      env: isolatedEnv(server.url),
      stdout: "pipe",
      stderr: "pipe",
    });
    const reader = proc.stdout.getReader();
    let out = "";
    while (!out.includes("text_delta")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    const sent = performance.now();
    proc.kill("SIGINT");
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    const code = await proc.exited;
    const elapsed = performance.now() - sent;
    expect(code).toBe(130);
    // The whole stream would take ~20 s at this pace; a prompt stop is far below that.
    expect(elapsed).toBeLessThan(5000);
    const lines = parseNdjson(out);
    const assistant = lines.find((l) => l.type === "assistant") as { interrupted?: boolean; message: { content: Array<{ text: string }> } } | undefined;
    expect(assistant?.interrupted).toBe(true);
    const partial = assistant!.message.content[0]!.text;
    expect(partial.length).toBeGreaterThan(0);
    expect(`first line\n${long}`.startsWith(partial)).toBe(true);
    expect(lines.at(-1)).toMatchObject({ type: "result", is_error: true });
    // The cut call is billed for what the API reported before the stop (message_start's usage).
    const result = lines.at(-1) as { usage: { cache_read_input_tokens: number; input_tokens: number; cache_creation_input_tokens: number }; total_cost_usd: number };
    expect(result.usage.input_tokens + result.usage.cache_read_input_tokens + result.usage.cache_creation_input_tokens).toBeGreaterThan(0);
    expect(result.total_cost_usd).toBeGreaterThan(0);
  });
});
