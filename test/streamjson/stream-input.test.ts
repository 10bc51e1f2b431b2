// stream-json input spoken line by line, as a wrapper would: bad lines, unknown control requests,
// mode and model switches, an interrupt, and the flags the Agent SDK passes.
import { describe, expect, test } from "bun:test";
import { fakeApiFixture } from "../support/fake-api.ts";
import { cliCommand, isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { mcpConfig, testServer } from "../mcp/support.ts";
import { MAX_MESSAGE_BYTES } from "../../src/stdio/json-lines.ts";

const serve = fakeApiFixture();
const FLAGS = ["--output-format", "stream-json", "--verbose", "--input-format", "stream-json"];

/** The CLI with a pipe on stdin; `next(pred)` waits for a stdout line matching pred. */
function spawnStream(args: string[], cwd: string, env: Record<string, string>) {
  const proc = Bun.spawn(cliCommand([...FLAGS, ...args]), { cwd, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{ pred: (l: Record<string, unknown>) => boolean; resolve: (l: Record<string, unknown>) => void }> = [];
  let seen = 0;
  const pump = (async () => {
    const dec = new TextDecoder();
    let buf = "";
    for await (const chunk of proc.stdout) {
      buf += dec.decode(chunk, { stream: true });
      let nl;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const l = JSON.parse(buf.slice(0, nl)) as Record<string, unknown>;
        buf = buf.slice(nl + 1);
        lines.push(l);
        for (const w of [...waiters]) if (w.pred(l)) (waiters.splice(waiters.indexOf(w), 1), w.resolve(l));
      }
    }
  })();
  return {
    lines,
    send: (o: object | string) => proc.stdin.write(typeof o === "string" ? o : `${JSON.stringify(o)}\n`),
    /** Bytes as they are, flushed in pieces a pipe takes. */
    async raw(bytes: Uint8Array) {
      for (let i = 0; i < bytes.length; i += 1 << 20) {
        proc.stdin.write(bytes.subarray(i, i + (1 << 20)));
        await proc.stdin.flush();
      }
    },
    signal: (sig: NodeJS.Signals) => proc.kill(sig),
    next(pred: (l: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
      const found = lines.slice(seen).find(pred);
      if (found) return Promise.resolve(found);
      return new Promise((resolve) => waiters.push({ pred, resolve }));
    },
    async end() {
      proc.stdin.end();
      const [code, stderr] = await Promise.all([proc.exited, new Response(proc.stderr).text()]);
      await pump;
      return { code, stderr };
    },
  };
}

const user = (text: string) => ({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" });
const control = (id: string, request: object) => ({ type: "control_request", request_id: id, request });
/** One line of `size` bytes: `start`, padding, `end`. */
function bigLine(start: string, end: string, size: number): Uint8Array {
  const bytes = new Uint8Array(size + 1).fill(0x61);
  bytes.set(new TextEncoder().encode(start), 0);
  bytes.set(new TextEncoder().encode(`${end}\n`), size - end.length);
  return bytes;
}
const STACK = /\n\s+at \S/;
const responseTo = (id: string) => (l: Record<string, unknown>) => l.type === "control_response" && (l.response as { request_id: string }).request_id === id;

describe("stream-json input", () => {
  test("a malformed line and an unknown control request get one clear answer each; the session goes on", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "still here" }] }] });
    const s = spawnStream([], tempProject(), isolatedEnv(server.url));
    s.send(control("i1", { subtype: "initialize" }));
    const init = await s.next(responseTo("i1"));
    expect((init.response as { subtype: string }).subtype).toBe("success");
    s.send("{not json\n");
    const bad = await s.next((l) => l.subtype === "invalid_input");
    expect(bad).toMatchObject({ type: "system", line: 2 });
    expect(String(bad.error)).toContain("not valid JSON");
    s.send({ type: "mystery" });
    s.send(control("c1", { subtype: "summon_dragon" }));
    const refused = await s.next(responseTo("c1"));
    expect(refused.response).toEqual({ subtype: "error", request_id: "c1", error: "unsupported control request subtype: summon_dragon" });
    s.send(user("are you there?"));
    const result = await s.next((l) => l.type === "result");
    expect(result).toMatchObject({ subtype: "success", result: "still here" });
    const { code, stderr } = await s.end();
    expect(code).toBe(0);
    expect(stderr).toContain("stdin line 2: not valid JSON");
    expect(stderr).toContain('unknown line type "mystery"');
    expect(s.lines.filter((l) => l.subtype === "invalid_input").length).toBe(2);
  });

  test("a line over the size limit is reported with its size and the limit (a control request is refused by its id); the next line is read; SIGTERM ends it with 143, no stack trace", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "still here" }] },
        { content: [{ type: "text", text: "a slow answer ".repeat(300) }], pacing: { delayMs: 15, textChunk: 4 } },
      ],
    });
    const s = spawnStream(["--include-partial-messages"], tempProject(), isolatedEnv(server.url));
    const size = MAX_MESSAGE_BYTES + 1024 * 1024;
    await s.raw(bigLine('{"type":"user","message":{"role":"user","content":"', '"}}', size));
    const bad = await s.next((l) => l.subtype === "invalid_input");
    expect(bad).toMatchObject({ type: "system", line: 1 });
    expect(String(bad.error)).toContain(`${size.toLocaleString("en-US")} bytes, over the limit of ${MAX_MESSAGE_BYTES.toLocaleString("en-US")} bytes`);
    await s.raw(bigLine('{"type":"control_request","request_id":"big-1","request":{"subtype":"initialize","pad":"', '"}}', size));
    const refused = await s.next(responseTo("big-1"));
    expect(refused.response).toMatchObject({ subtype: "error", request_id: "big-1", error: expect.stringContaining("over the limit") });
    s.send(user("are you there?"));
    expect(await s.next((l) => l.type === "result")).toMatchObject({ subtype: "success", result: "still here" });
    s.send(user("talk"));
    await s.next((l) => l.type === "stream_event");
    s.signal("SIGTERM");
    const { code, stderr } = await s.end();
    expect(code).toBe(143);
    expect(stderr).toContain("stdin line 1: the message is");
    expect(stderr).toContain("stopped by SIGTERM");
    expect(stderr).not.toMatch(STACK);
  });

  test("--mcp-config and --strict-mcp-config are honoured: init and mcp_status list the server, and its tool is offered", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }], expect: { toolsInclude: ["mcp__t__echo"] } }] });
    const s = spawnStream(["--mcp-config", mcpConfig({ t: testServer() }), "--strict-mcp-config"], tempProject(), isolatedEnv(server.url, { MCP_TIMEOUT: "20000" }));
    s.send(control("m1", { subtype: "mcp_status" }));
    const status = await s.next(responseTo("m1"));
    expect(status.response).toEqual({ subtype: "success", request_id: "m1", response: { mcpServers: [{ name: "t", status: "connected", source: "dynamic" }] } });
    s.send(user("hi"));
    await s.next((l) => l.type === "result");
    const { code, stderr } = await s.end();
    expect(code).toBe(0);
    expect(stderr).not.toContain("mcp-config");
    const init = s.lines.find((l) => l.type === "system" && l.subtype === "init")!;
    expect(init.mcp_servers).toEqual([{ name: "t", status: "connected", source: "dynamic" }]);
    // What the model gets, in Claude Code's names: the built-ins, the API's web tools, the server's tool.
    const sent = (server.requests.find((q) => q.outcome === "served")!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(sent).toContain("mcp__t__echo");
    expect(init.tools).toEqual(["Read", "Write", "Edit", "Grep", "Glob", "Bash", "Process", "Agent", "SendMessage", ...sent.filter((n) => n.startsWith("mcp__")), "WebSearch", "WebFetch"]);
    expect((init.tools as string[]).length).toBe(sent.length);
    expect(init).toMatchObject({ permissionMode: "default", apiKeySource: "ANTHROPIC_API_KEY", slash_commands: ["compact"], skills: [], agents: ["general-purpose", "Explore", "Plan"], plugins: [], output_style: "default", claude_code_version: expect.any(String) });
    expect(server.checkFailures).toEqual([]);
  });

  test("set_permission_mode and set_model take effect for the next turn; bypass needs the launch flag", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo one > one.txt" } }] },
        { content: [{ type: "text", text: "denied as expected" }], expect: { lastHasToolResult: { isError: true } } },
        { content: [{ type: "tool_use", name: "write", input: { file_path: "two.txt", content: "2\n" } }] },
        { content: [{ type: "text", text: "written" }], expect: { lastHasToolResult: { isError: false } } },
      ],
    });
    const dir = tempProject();
    const s = spawnStream(["--no-verify-nudge"], dir, isolatedEnv(server.url));
    s.send(user("run it"));
    await s.next((l) => l.type === "result");
    s.send(control("m1", { subtype: "set_permission_mode", mode: "bypassPermissions" }));
    expect(((await s.next(responseTo("m1"))).response as { error: string }).error).toContain("--allow-dangerously-skip-permissions");
    s.send(control("m2", { subtype: "set_permission_mode", mode: "acceptEdits" }));
    expect((await s.next(responseTo("m2"))).response).toMatchObject({ subtype: "success", response: { mode: "acceptEdits" } });
    s.send(control("m3", { subtype: "set_model", model: "claude-haiku-5-5" }));
    await s.next(responseTo("m3"));
    s.send(user("write it"));
    const second = await s.next((l) => l.type === "result" && l.result === "written");
    expect(second.permission_denials).toEqual([]);
    const { code } = await s.end();
    expect(code).toBe(0);
    const models = server.requests.filter((r) => r.outcome === "served").map((r) => (r.body as { model: string }).model);
    expect(models.slice(2)).toEqual(["claude-haiku-5-5", "claude-haiku-5-5"]);
    expect(await Bun.file(`${dir}/two.txt`).text()).toBe("2\n");
  });

  test("interrupt stops the running turn; the next message runs in the same session", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "a long answer ".repeat(200) }], pacing: { delayMs: 20, textChunk: 4 } },
        { content: [{ type: "text", text: "after the interrupt" }] },
      ],
    });
    const s = spawnStream(["--include-partial-messages"], tempProject(), isolatedEnv(server.url));
    s.send(user("talk"));
    await s.next((l) => l.type === "stream_event");
    s.send(control("x1", { subtype: "interrupt" }));
    await s.next(responseTo("x1"));
    const first = await s.next((l) => l.type === "result");
    expect(first).toMatchObject({ is_error: true, stop_reason: "cancelled" });
    s.send(user("again"));
    const second = await s.next((l) => l.type === "result" && l.result === "after the interrupt");
    expect(second.session_id).toBe(first.session_id);
    expect((await s.end()).code).toBe(0);
  });

  test("the Agent SDK's flags are honoured (--add-dir among them); one KHAELOR cannot honour (--setting-sources) is exit 2 naming it; an unknown flag is still exit 2", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
    const env = isolatedEnv(server.url);
    const sdkArgs = [...FLAGS, "--max-thinking-tokens", "1000", "--permission-mode", "default", "--allow-dangerously-skip-permissions", "--append-system-prompt=-be brief", "--session-id", "0f8fad5b-d9cb-469f-a165-70867728950e", "--await-initialize", "--fallback-model", "claude-haiku-5-5", "--tools", "Read,Grep,WebSearch,TodoWrite", "--add-dir", "/tmp"];
    for (const refused of [["--setting-sources", "user,project"]]) {
      const no = await runCli([...sdkArgs, ...refused], { cwd: tempProject(), env, stdin: `${JSON.stringify(user("hi"))}\n` });
      expect(no.code).toBe(2);
      expect(no.stderr).toContain(`${refused[0]} is not supported by KHAELOR: `);
    }
    const r = await runCli(sdkArgs, { cwd: tempProject(), env, stdin: `${JSON.stringify(user("hi"))}\n` });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain("not supported yet");
    expect(r.stdout).toContain('"session_id":"0f8fad5b-d9cb-469f-a165-70867728950e"');
    // --tools is honoured: only those tools are offered, and a name we lack is said.
    // init lists what the model is offered, in Claude Code's names: the API's web search included.
    expect(JSON.parse(r.stdout.split("\n")[0]!).tools).toEqual(["Read", "Grep", "WebSearch"]);
    expect(r.stderr).toContain("--tools: KHAELOR has no tool TodoWrite; offering read, grep");
    const body = server.requests.find((q) => q.outcome === "served")!.body as { system: Array<{ text: string }>; tools: Array<{ name: string }> };
    expect(body.system.at(-1)!.text).toBe("-be brief");
    // The API's web search is offered as WebSearch was named; web fetch was not.
    expect(body.tools.map((t) => t.name)).toEqual(["read", "grep", "web_search"]);
    expect((body as { thinking?: unknown }).thinking).toEqual({ type: "adaptive" });
    const bad = await runCli([...FLAGS, "--frobnicate"], { cwd: tempProject(), env, stdin: "" });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("unknown option --frobnicate");
  });

  test("can_use_tool by hand: an allow with a changed input is not run; end of input while an ask is open denies it", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo one > one.txt" } }] },
        { content: [{ type: "text", text: "not run" }], expect: { lastHasToolResult: { isError: true, contentMatches: "changed input" } } },
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo two > two.txt" } }] },
        { content: [{ type: "text", text: "host gone" }], expect: { lastHasToolResult: { isError: true } } },
      ],
    });
    const dir = tempProject();
    const s = spawnStream(["--permission-prompt-tool", "stdio", "--no-verify-nudge"], dir, isolatedEnv(server.url));
    s.send(user("one"));
    const ask = await s.next((l) => l.type === "control_request");
    expect(ask.request).toMatchObject({ subtype: "can_use_tool", tool_name: "Bash", input: { command: "echo one > one.txt" } });
    s.send({ type: "control_response", response: { subtype: "success", request_id: ask.request_id, response: { behavior: "allow", updatedInput: { command: "echo safer" } } } });
    expect(await s.next((l) => l.type === "result")).toMatchObject({ result: "not run" });
    s.send(user("two"));
    await s.next((l) => l.type === "control_request" && l.request_id !== ask.request_id);
    const { code, stderr } = await s.end();
    expect(code).toBe(0);
    expect(s.lines.filter((l) => l.type === "result").map((l) => l.result)).toEqual(["not run", "host gone"]);
    expect(stderr).toContain("changed updatedInput is not supported yet");
    expect(await Bun.file(`${dir}/one.txt`).exists()).toBe(false);
    expect(await Bun.file(`${dir}/two.txt`).exists()).toBe(false);
  });

  test("hook callbacks by hand: a host error blocks where onFailure says block, goes on where not; unknown events are named; thinking and reconnect requests", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo one > one.txt" } }] },
        { content: [{ type: "text", text: "blocked" }], expect: { lastHasToolResult: { isError: true, contentMatches: "host is busy" } } },
        { content: [{ type: "tool_use", name: "write", input: { file_path: "two.txt", content: "2\n" } }] },
        { content: [{ type: "text", text: "written" }], expect: { lastHasToolResult: { isError: false } } },
      ],
    });
    const dir = tempProject();
    const s = spawnStream(["--no-verify-nudge", "--permission-mode", "acceptEdits", "--model", "claude-sonnet-4-6"], dir, isolatedEnv(server.url));
    s.send(
      control("i1", {
        subtype: "initialize",
        hooks: {
          PreToolUse: [
            { matcher: "Bash", hookCallbackIds: ["strict"], onFailure: "block" },
            { matcher: "Write", hookCallbackIds: ["lenient"] },
          ],
          TeammateIdle: [{ hookCallbackIds: ["never"] }],
        },
      }),
    );
    const init = await s.next(responseTo("i1"));
    expect(init.response).toMatchObject({ subtype: "success", response: { hooks_applied: true, hook_on_failure_supported: true } });
    s.send(control("t1", { subtype: "set_max_thinking_tokens", max_thinking_tokens: 2048 }));
    expect((await s.next(responseTo("t1"))).response).toMatchObject({ subtype: "success" });
    s.send(control("t2", { subtype: "set_max_thinking_tokens", max_thinking_tokens: "lots" }));
    expect(((await s.next(responseTo("t2"))).response as { error: string }).error).toContain("whole number of tokens");
    s.send(user("one"));
    const cb = await s.next((l) => l.type === "control_request");
    expect(cb.request).toMatchObject({ subtype: "hook_callback", callback_id: "strict", input: { hook_event_name: "PreToolUse", tool_name: "Bash" } });
    expect((cb.request as { tool_use_id?: string }).tool_use_id).toMatch(/^toolu_/);
    s.send({ type: "control_response", response: { subtype: "error", request_id: cb.request_id, error: "host is busy" } });
    expect(await s.next((l) => l.type === "result")).toMatchObject({ result: "blocked" });
    s.send(user("two"));
    const cb2 = await s.next((l) => l.type === "control_request" && l.request_id !== cb.request_id);
    expect(cb2.request).toMatchObject({ subtype: "hook_callback", callback_id: "lenient", input: { tool_name: "Write", tool_input: { file_path: `${dir}/two.txt` } } });
    s.send({ type: "control_response", response: { subtype: "error", request_id: cb2.request_id, error: "host is busy" } });
    expect(await s.next((l) => l.type === "result" && l.result === "written")).toBeTruthy();
    s.send(control("r1", { subtype: "mcp_reconnect", serverName: "nope" }));
    expect(((await s.next(responseTo("r1"))).response as { error: string }).error).toBe('mcp_reconnect: no MCP server named "nope"');
    s.send(control("r2", { subtype: "mcp_message", server_name: "nope", message: { jsonrpc: "2.0", method: "notifications/tools/list_changed" } }));
    expect(((await s.next(responseTo("r2"))).response as { error: string }).error).toContain('no SDK MCP server named "nope"');
    const { code, stderr } = await s.end();
    expect(code).toBe(0);
    expect(stderr).toContain("hook callbacks for TeammateIdle never run");
    expect(await Bun.file(`${dir}/one.txt`).exists()).toBe(false);
    expect(await Bun.file(`${dir}/two.txt`).text()).toBe("2\n");
    // The budget set by the control request reached the API (a model with a budget, not adaptive thinking).
    const bodies = server.requests.filter((r) => r.outcome === "served").map((r) => r.body as { thinking?: unknown });
    expect(bodies[0]!.thinking).toEqual({ type: "enabled", budget_tokens: 2048 });
  });

  test("/compact is run by the session; a /compact sent with an image is a prompt like any other, its image not dropped", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "first" }] }, { content: [{ type: "text", text: "A summary." }] }, { content: [{ type: "text", text: "Seen." }] }] });
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==";
    const user = (content: unknown) => JSON.stringify({ type: "user", message: { role: "user", content }, parent_tool_use_id: null, session_id: "" });
    const lines = [user("hello"), user("/compact keep it short"), user([{ type: "text", text: "/compact" }, { type: "image", source: { type: "base64", media_type: "image/png", data: png } }])];
    const r = await runCli(FLAGS, { cwd: tempProject(), env: isolatedEnv(server.url), stdin: `${lines.join("\n")}\n` });
    expect(r.code).toBe(0);
    const results = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.type === "result");
    expect(results.map((l) => [l.subtype, l.result])).toEqual([["success", "first"], ["success", "Compacted the conversation."], ["success", "Seen."]]);
    const bodies = server.requests.filter((q) => q.outcome === "served").map((q) => JSON.stringify(q.body));
    expect(bodies).toHaveLength(3);
    expect(bodies[1]).toContain("keep it short");
    expect(bodies[2]).toContain(png);
  });

  test("a host that goes away mid-turn (its pipes closed): the turn is cancelled, the process exits, the log resumes whole", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "a long answer ".repeat(400) }], pacing: { delayMs: 15, textChunk: 4 } },
        { content: [{ type: "text", text: "back again" }] },
      ],
    });
    const dir = tempProject();
    const env = isolatedEnv(server.url);
    const proc = Bun.spawn(cliCommand([...FLAGS, "--include-partial-messages"]), { cwd: dir, env, stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    proc.stdin.write(`${JSON.stringify(user("talk"))}\n`);
    proc.stdin.flush();
    let sessionId = "";
    let buf = "";
    const dec = new TextDecoder();
    // Read until the answer streams, then stop reading (the pipe closes) and close stdin: the host died.
    for await (const chunk of proc.stdout) {
      buf += dec.decode(chunk, { stream: true });
      const init = buf.split("\n").find((l) => l.includes('"subtype":"init"'));
      if (init) sessionId = (JSON.parse(init) as { session_id: string }).session_id;
      if (sessionId && buf.includes('"type":"stream_event"')) break;
    }
    proc.stdin.end();
    const code = await proc.exited;
    expect(code).not.toBe(0);
    const stderr = await new Response(proc.stderr).text();
    expect(stderr).toContain("the host closed its end of our output");
    expect(stderr).not.toMatch(STACK);
    expect(sessionId).not.toBe("");
    const resumed = await runCli(["-p", "--resume", sessionId, "hello again", "--output-format", "json"], { cwd: dir, env });
    expect(resumed.stderr).not.toContain("stopped unexpectedly");
    expect(resumed.code).toBe(0);
    expect(JSON.parse(resumed.stdout)).toMatchObject({ result: "back again", session_id: sessionId });
  });
});

test("a host uuid that is not a UUID, or one the session already holds: the message gets an id of its own, and the first is reported", async () => {
  const server = await serve({ turns: [{ content: [{ type: "text", text: "one" }] }, { content: [{ type: "text", text: "two" }] }, { content: [{ type: "text", text: "three" }] }] });
  const u = (text: string, uuid: string) => JSON.stringify({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "", uuid });
  const same = crypto.randomUUID();
  const r = await runCli([...FLAGS, "--replay-user-messages"], { cwd: tempProject(), env: isolatedEnv(server.url), stdin: `${[u("first", same), u("again", same), u("third", "not-a-uuid")].join("\n")}\n` });
  expect(r.code).toBe(0);
  expect(r.stderr).toContain("is not a UUID");
  const echoed = r.stdout.trim().split("\n").map((l) => JSON.parse(l) as { isReplay?: boolean; uuid: string }).filter((l) => l.isReplay);
  expect(echoed).toHaveLength(3);
  expect(echoed[0]!.uuid).toBe(same);
  expect(new Set(echoed.map((e) => e.uuid)).size).toBe(3);
  // Every message reached the model: none was taken for a replay of an event the session held.
  expect(JSON.stringify(server.requests.at(-1)!.body)).toContain("again");
});
