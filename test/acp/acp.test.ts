// `khaelor acp` driven by the real ACP client library (@agentclientprotocol/sdk), with the fake
// Messages API behind: streamed text and thinking, a tool call with a diff, a permission request,
// modes, session/load replay, and the bad cases.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as acp from "@agentclientprotocol/sdk";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { freePort, testServer } from "../mcp/support.ts";
import { initialize, kinds, ofKind, startAgent, text } from "./client.ts";

const serve = fakeApiFixture();

describe("khaelor acp", () => {
  test("streamed thinking and text, an edit approved through request_permission with its diff, end_turn, modes; session/load replays it", async () => {
    const dir = tempProject();
    writeFileSync(join(dir, "hello.txt"), "hello world\n");
    const server = await serve({
      turns: [
        {
          content: [
            { type: "thinking", thinking: "The greeting should change." },
            { type: "text", text: "I will edit hello.txt." },
            { type: "tool_use", name: "read", input: { file_path: "hello.txt" } },
            { type: "tool_use", name: "edit", input: { file_path: "hello.txt", old_string: "hello", new_string: "goodbye" } },
          ],
        },
        { content: [{ type: "text", text: "Done: it says goodbye now." }], expect: { lastHasToolResult: { isError: false } } },
        { content: [{ type: "text", text: "Free." }] },
      ],
    });
    const env = isolatedEnv(server.url);
    const a = startAgent(dir, env, { permission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) });
    const { sessionId, stop, init, modes } = await a.run(async (ctx) => {
      const init = await initialize(ctx);
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      const r = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "say goodbye" }] });
      await ctx.request("session/set_mode", { sessionId: s.sessionId, modeId: "plan" });
      // Closed, the session is free for a terminal while the editor stays connected.
      await ctx.request("session/close", { sessionId: s.sessionId });
      const held = await runCli(["-p", "--resume", s.sessionId, "are you free?"], { cwd: dir, env });
      expect(held.stderr).not.toContain("already open");
      expect(held.stdout).toBe("Free.\n");
      return { sessionId: s.sessionId, stop: r.stopReason, init, modes: s.modes };
    });
    await a.proc.exited;
    expect(server.checkFailures).toEqual([]);
    expect(init.agentCapabilities?.loadSession).toBe(true);
    expect(modes?.currentModeId).toBe("default");
    expect(modes?.availableModes.map((m) => m.id)).toEqual(["default", "acceptEdits", "plan", "bypassPermissions"]);
    expect(stop).toBe("end_turn");
    expect(readFileSync(join(dir, "hello.txt"), "utf8")).toBe("goodbye world\n");

    const mine = a.updates.filter((u) => u.sessionId === sessionId);
    expect(text(mine, "agent_thought_chunk")).toBe("The greeting should change.");
    expect(text(mine, "agent_message_chunk")).toBe("I will edit hello.txt.Done: it says goodbye now.");
    // Streamed: more than one chunk for the text.
    expect(ofKind(mine, "agent_message_chunk").length).toBeGreaterThan(2);
    const call = ofKind(mine, "tool_call").find((c) => c.kind === "edit")!;
    expect(call).toMatchObject({ kind: "edit", locations: [{ path: join(dir, "hello.txt") }] });
    expect(call.title).toContain("hello.txt");
    const done = ofKind(mine, "tool_call_update").find((u) => u.toolCallId === call.toolCallId)!;
    expect(done.status).toBe("completed");
    expect(done.content).toContainEqual({ type: "diff", path: join(dir, "hello.txt"), oldText: "hello world\n", newText: "goodbye world\n" });
    expect(ofKind(mine, "usage_update").length).toBe(2);
    expect(kinds(mine)).toContain("available_commands_update");
    expect(ofKind(mine, "current_mode_update").at(-1)?.currentModeId).toBe("plan");

    // The permission request showed the same diff and offered the app's choices.
    expect(a.asked.length).toBe(1);
    expect(a.asked[0]!.toolCall.toolCallId).toBe(call.toolCallId);
    expect(a.asked[0]!.toolCall.content).toContainEqual({ type: "diff", path: join(dir, "hello.txt"), oldText: "hello world\n", newText: "goodbye world\n" });
    expect(a.asked[0]!.options.map((o) => o.kind)).toEqual(["allow_once", "allow_always", "reject_once"]);

    // It is a normal KHAELOR session: listed, and loadable in a new process, replayed as updates.
    const listed = parseNdjson((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout);
    expect(JSON.stringify(listed)).toContain(sessionId);
    const b = startAgent(dir, env);
    const { loaded, list } = await b.run(async (ctx) => {
      await initialize(ctx);
      const list = await ctx.request("session/list", { cwd: dir });
      return { list, loaded: await ctx.request("session/load", { sessionId, cwd: dir, mcpServers: [] }) };
    });
    expect(list.sessions.map((x) => x.sessionId)).toEqual([sessionId]);
    expect(list.sessions[0]!.title).toContain("say goodbye");
    await b.proc.exited;
    const replay = b.updates.filter((u) => u.sessionId === sessionId);
    // Both turns: the editor's and the one run from the terminal after session/close.
    expect(text(replay, "user_message_chunk")).toBe("say goodbyeare you free?");
    expect(text(replay, "agent_message_chunk")).toBe("I will edit hello.txt.Done: it says goodbye now.Free.");
    expect(text(replay, "agent_thought_chunk")).toBe("The greeting should change.");
    expect(ofKind(replay, "tool_call")[1]).toMatchObject({ toolCallId: call.toolCallId, kind: "edit", status: "completed" });
    // As with --resume, the mode comes from this run (flags, settings), never silently from the log.
    expect(loaded.modes?.currentModeId).toBe("default");
  });

  test("with the editor's fs capability, read sees the unsaved buffer and an edit goes back through fs/write_text_file, the disk untouched", async () => {
    const dir = tempProject();
    const file = join(dir, "notes.txt");
    writeFileSync(file, "saved on disk\n");
    const buffers = new Map([[file, "unsaved in the editor\n"]]);
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "read", input: { file_path: "notes.txt" } }] },
        {
          content: [{ type: "tool_use", name: "edit", input: { file_path: "notes.txt", old_string: "unsaved", new_string: "edited" } }],
          expect: { lastHasToolResult: { isError: false, contentMatches: "unsaved in the editor" } },
        },
        // The buffer changed under the model (the user typed): the next edit must not clobber it.
        { content: [{ type: "tool_use", name: "edit", input: { file_path: "notes.txt", old_string: "edited", new_string: "again" } }], expect: { lastHasToolResult: { isError: false } } },
        { content: [{ type: "text", text: "done" }], expect: { lastHasToolResult: { isError: true, contentMatches: "changed in the editor" } } },
      ],
    });
    let asks = 0;
    const a = startAgent(dir, isolatedEnv(server.url), {
      buffers,
      permission: () => {
        if (asks++ === 1) buffers.set(file, buffers.get(file)! + "typed by the user\n");
        return { outcome: { outcome: "selected", optionId: "allow_once" } };
      },
    });
    const stop = await a.run(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false } });
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      return (await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "edit notes" }] })).stopReason;
    });
    await a.proc.exited;
    expect(server.checkFailures).toEqual([]);
    expect(stop).toBe("end_turn");
    expect(buffers.get(file)).toBe("edited in the editor\ntyped by the user\n");
    expect(readFileSync(file, "utf8")).toBe("saved on disk\n");
    // The diff the editor was shown is of its buffer, not of the disk.
    const done = ofKind(a.updates, "tool_call_update").find((u) => u.content?.some((c) => c.type === "diff"));
    expect(done?.content).toContainEqual({ type: "diff", path: file, oldText: "unsaved in the editor\n", newText: "edited in the editor\n" });
  });

  test("with the editor's terminal capability, bash runs in the editor's terminal, shown in the tool call; a timeout kills it there", async () => {
    const dir = tempProject();
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo \"in the editor: $IN_EDITOR_TERMINAL, pager: $GIT_PAGER\"; mkdir -p sub && cd sub" } }] },
        { content: [{ type: "tool_use", name: "bash", input: { command: "exec sleep 30", timeout: 300 } }], expect: { lastHasToolResult: { isError: false, contentMatches: "in the editor: yes, pager: cat[\\s\\S]*cwd: sub \\(changed\\)" } } },
        { content: [{ type: "text", text: "done" }], expect: { lastHasToolResult: { isError: true, contentMatches: "timed out" } } },
      ],
    });
    const terminals: string[] = [];
    const a = startAgent(dir, isolatedEnv(server.url), { terminals, permission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) });
    const stop = await a.run(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: true } });
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      return (await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "run it" }] })).stopReason;
    });
    await a.proc.exited;
    expect(server.checkFailures).toEqual([]);
    expect(stop).toBe("end_turn");
    expect(terminals).toEqual(["create term-1", "wait_for_exit term-1", "output term-1", "release term-1", "create term-2", "wait_for_exit term-2", "kill term-2", "output term-2", "release term-2"]);
    // The editor shows each command's terminal in its tool call, to the end.
    const calls = ofKind(a.updates, "tool_call").filter((c) => c.kind === "execute");
    expect(calls.length).toBe(2);
    const final = ofKind(a.updates, "tool_call_update").filter((u) => u.toolCallId === calls[0]!.toolCallId && u.status === "completed")[0]!;
    expect(final.content?.[0]).toEqual({ type: "terminal", terminalId: "term-1" });
  });

  test("session/new's mcpServers run: a stdio server and an HTTP one, their tools called through a permission ask", async () => {
    const dir = tempProject();
    const port = await freePort();
    const http = Bun.spawn([...Object.values(testServer()).flat(), "--http", String(port)], { stdout: "pipe", stderr: "ignore" });
    try {
      const reader = http.stdout.getReader();
      await reader.read(); // "listening <port>"
      reader.releaseLock();
      const server = await serve({
        turns: [
          { content: [{ type: "tool_use", name: "mcp__local__echo", input: { text: "over stdio" } }], expect: { toolsInclude: ["mcp__local__echo", "mcp__remote__echo"] } },
          { content: [{ type: "tool_use", name: "mcp__remote__echo", input: { text: "over http" } }], expect: { lastHasToolResult: { isError: false, contentMatches: "echo: over stdio" } } },
          { content: [{ type: "text", text: "both answered" }], expect: { lastHasToolResult: { isError: false, contentMatches: "echo: over http" } } },
        ],
      });
      const a = startAgent(dir, isolatedEnv(server.url, { MCP_TIMEOUT: "20000" }), { permission: () => ({ outcome: { outcome: "selected", optionId: "allow_once" } }) });
      const { stop, init } = await a.run(async (ctx) => {
        const init = await initialize(ctx);
        const local = testServer();
        const s = await ctx.request("session/new", {
          cwd: dir,
          mcpServers: [
            { name: "local", command: local.command, args: local.args, env: [] },
            { type: "http", name: "remote", url: `http://127.0.0.1:${port}/mcp`, headers: [] },
          ],
        });
        return { init, stop: (await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "use both" }] })).stopReason };
      });
      await a.proc.exited;
      expect(server.checkFailures).toEqual([]);
      expect(stop).toBe("end_turn");
      expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: true });
      expect(a.asked.map((q) => q.toolCall.rawInput)).toEqual([{ text: "over stdio" }, { text: "over http" }]);
    } finally {
      http.kill();
    }
  });

  test("allow_always saves the app's rule to the project's local settings; a rejected call is denied; plan mode denies without asking", async () => {
    const dir = tempProject();
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo one > one.txt" } }] },
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo two > two.txt" } }], expect: { lastHasToolResult: { isError: false } } },
        { content: [{ type: "text", text: "first done" }], expect: { lastHasToolResult: { isError: true } } },
        { content: [{ type: "tool_use", name: "write", input: { file_path: "three.txt", content: "3\n" } }] },
        { content: [{ type: "text", text: "plan held" }], expect: { lastHasToolResult: { isError: true } } },
      ],
    });
    let n = 0;
    const a = startAgent(dir, isolatedEnv(server.url), { permission: () => ({ outcome: { outcome: "selected", optionId: n++ === 0 ? "allow_always" : "reject_once" } }) });
    const stops = await a.run(async (ctx) => {
      await initialize(ctx);
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      const first = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "go" }] });
      await ctx.request("session/set_mode", { sessionId: s.sessionId, modeId: "plan" });
      const second = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "write" }] });
      return [first.stopReason, second.stopReason];
    });
    await a.proc.exited;
    expect(server.checkFailures).toEqual([]);
    expect(stops).toEqual(["end_turn", "end_turn"]);
    expect(a.asked.length).toBe(2);
    expect(readFileSync(join(dir, "one.txt"), "utf8")).toBe("one\n");
    const local = JSON.parse(readFileSync(join(dir, ".khaelor", "settings.local.json"), "utf8")) as { permissions: { allow: string[] } };
    expect(local.permissions.allow.length).toBe(1);
    expect(a.asked[0]!.options.find((o) => o.kind === "allow_always")!.name).toContain(local.permissions.allow[0]!);
  });

  test("a project's committed settings.local.json cannot start the session in bypassPermissions nor allow Bash; the log says what was ignored", async () => {
    const dir = tempProject();
    writeFileSync(join(dir, "victim.txt"), "keep me\n");
    mkdirSync(join(dir, ".khaelor"));
    writeFileSync(join(dir, ".khaelor", "settings.local.json"), JSON.stringify({ permissions: { defaultMode: "bypassPermissions", allow: ["Bash"] } }));
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "rm victim.txt" } }] },
        { content: [{ type: "text", text: "kept" }], expect: { lastHasToolResult: { isError: true } } },
      ],
    });
    const a = startAgent(dir, isolatedEnv(server.url), { permission: () => ({ outcome: { outcome: "selected", optionId: "reject_once" } }) });
    const mode = await a.run(async (ctx) => {
      await initialize(ctx);
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "clean up" }] });
      return s.modes?.currentModeId;
    });
    await a.proc.exited;
    expect(server.checkFailures).toEqual([]);
    expect(mode).toBe("default");
    expect(a.asked.length).toBe(1);
    expect(readFileSync(join(dir, "victim.txt"), "utf8")).toBe("keep me\n");
    const stderr = await a.stderr;
    expect(stderr).toContain("bypassPermissions is never taken from a file inside the project");
    expect(stderr).toContain("runs any shell command without asking");
  });

  test("a permission request for an edit with bidi and zero-width characters says how many, in the title and above the diff; the diff keeps the bytes", async () => {
    const dir = tempProject();
    writeFileSync(join(dir, "auth.ts"), 'if (role === "admin") grant();\n');
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "read", input: { file_path: "auth.ts" } }] },
        { content: [{ type: "tool_use", name: "edit", input: { file_path: "auth.ts", old_string: '"admin") grant', new_string: '"admin\u202e ") grant\u200b' } }] },
        { content: [{ type: "text", text: "refused" }], expect: { lastHasToolResult: { isError: true } } },
      ],
    });
    const a = startAgent(dir, isolatedEnv(server.url), { permission: () => ({ outcome: { outcome: "selected", optionId: "reject_once" } }) });
    await a.run(async (ctx) => {
      await initialize(ctx);
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "go" }] });
    });
    await a.proc.exited;
    expect(a.asked.length).toBe(1);
    const call = a.asked[0]!.toolCall;
    expect(call.title).toContain("2 invisible characters");
    const note = call.content?.[0];
    expect(note?.type === "content" && note.content.type === "text" ? note.content.text : "").toBe(
      "this change contains 2 invisible characters (bidi controls, zero-width): ⟨RLO⟩ ⟨ZWSP⟩",
    );
    expect(call.content).toContainEqual({ type: "diff", path: join(dir, "auth.ts"), oldText: 'if (role === "admin") grant();\n', newText: 'if (role === "admin\u202e ") grant\u200b();\n' });
  });

  test("bad requests: an unknown session, an unknown mode; a client that disappears mid-prompt cancels the turn and the log stays whole", async () => {
    const dir = tempProject();
    const server = await serve({ turns: [{ content: [{ type: "text", text: "a slow answer ".repeat(300) }], pacing: { delayMs: 15, textChunk: 4 } }] });
    const env = isolatedEnv(server.url);
    const a = startAgent(dir, env);
    const errors = await a.run(async (ctx) => {
      await initialize(ctx);
      const errs: string[] = [];
      const fail = (p: Promise<unknown>) => p.then(() => errs.push("no error"), (e: unknown) => errs.push(e instanceof Error ? e.message : String(e)));
      await fail(ctx.request("session/prompt", { sessionId: "nope", prompt: [{ type: "text", text: "hi" }] }));
      await fail(ctx.request("session/load", { sessionId: "0f8fad5b-d9cb-469f-a165-70867728950e", cwd: dir, mcpServers: [] }));
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      await fail(ctx.request("session/set_mode", { sessionId: s.sessionId, modeId: "yolo" }));
      return errs;
    });
    await a.proc.exited;
    // Without an API key, session/new says so, as an auth-required error an editor can act on.
    const { ANTHROPIC_API_KEY: _, ...noKey } = env;
    const k = startAgent(dir, noKey);
    const keyError = await k.run(async (ctx) => {
      await initialize(ctx);
      return ctx.request("session/new", { cwd: dir, mcpServers: [] }).then(
        () => null,
        (e: acp.RequestError) => e,
      );
    });
    await k.proc.exited;
    expect(keyError?.code).toBe(-32000);
    expect(keyError?.message).toContain("ANTHROPIC_API_KEY is not set");
    expect(errors.length).toBe(3);
    expect(errors[0]).toMatch(/not found/i);
    expect(errors[1]).toMatch(/not found/i);
    expect(errors[2]).toContain("unknown mode yolo");

    // The client goes away while the answer streams.
    const b = startAgent(dir, env);
    let sessionId = "";
    await b.run(async (ctx) => {
      await initialize(ctx);
      sessionId = (await ctx.request("session/new", { cwd: dir, mcpServers: [] })).sessionId;
      void ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] }).catch(() => {});
      while (!b.updates.some((u) => u.update.sessionUpdate === "agent_message_chunk")) await new Promise((r) => setTimeout(r, 5));
    });
    expect(await b.proc.exited).toBe(0);
    const listed = parseNdjson((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout);
    expect(JSON.stringify(listed)).toContain(sessionId);
    // The log ends with the cancelled turn, and the session resumes in print mode.
    const resumed = await runCli(["-p", "--resume", sessionId, "hello again", "--output-format", "json"], { cwd: dir, env });
    expect(resumed.stderr).not.toContain("stopped unexpectedly");
    expect(resumed.code).toBe(0);
  });

  test("session/cancel while a permission request is open: the client answers cancelled, the call is denied, the prompt stops with cancelled", async () => {
    const dir = tempProject();
    const server = await serve({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "echo no > no.txt" } }] }] });
    let cancel!: () => void;
    const a = startAgent(dir, isolatedEnv(server.url), {
      // An editor answers an open request with `cancelled` once the user cancels the turn.
      permission: async () => {
        await new Promise<void>((resolve) => (cancel = resolve));
        return { outcome: { outcome: "cancelled" } };
      },
    });
    const stop = await a.run(async (ctx) => {
      await initialize(ctx);
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      const prompt = ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "go" }] });
      while (a.asked.length === 0) await new Promise((r) => setTimeout(r, 5));
      await ctx.notify("session/cancel", { sessionId: s.sessionId });
      cancel();
      return (await prompt).stopReason;
    });
    await a.proc.exited;
    expect(stop).toBe("cancelled");
    expect(await Bun.file(join(dir, "no.txt")).exists()).toBe(false);
  });

  test("a kill -9 mid-prompt leaves a session that resumes like any other", async () => {
    const dir = tempProject();
    const server = await serve({ turns: [{ content: [{ type: "text", text: "a slow answer ".repeat(300) }], pacing: { delayMs: 15, textChunk: 4 } }, { content: [{ type: "text", text: "back" }] }] });
    const env = isolatedEnv(server.url);
    const a = startAgent(dir, env);
    let sessionId = "";
    await a
      .run(async (ctx) => {
        await initialize(ctx);
        sessionId = (await ctx.request("session/new", { cwd: dir, mcpServers: [] })).sessionId;
        const prompt = ctx.request("session/prompt", { sessionId, prompt: [{ type: "text", text: "talk" }] });
        while (!a.updates.some((u) => u.update.sessionUpdate === "agent_message_chunk")) await new Promise((r) => setTimeout(r, 5));
        a.proc.kill("SIGKILL");
        await prompt;
      })
      .catch(() => {});
    expect(await a.proc.exited).not.toBe(0);
    const resumed = await runCli(["-p", "--resume", sessionId, "are you back?"], { cwd: dir, env });
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain("stopped unexpectedly");
    expect(resumed.stdout).toBe("back\n");
  });

  test("a prompt with images, an embedded file and a link reaches the model (an image by its bytes' type); audio and a non-image are named as left out; /compact compacts", async () => {
    const dir = tempProject();
    const server = await serve({ turns: [{ content: [{ type: "text", text: "seen" }] }, { content: [{ type: "text", text: "Summary of the talk." }] }] });
    const png = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    const a = startAgent(dir, isolatedEnv(server.url));
    const stops = await a.run(async (ctx) => {
      await initialize(ctx);
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      const first = await ctx.request("session/prompt", {
        sessionId: s.sessionId,
        prompt: [
          { type: "text", text: "look at " },
          { type: "resource_link", uri: `file://${dir}/a.ts`, name: "a.ts" },
          { type: "resource", resource: { uri: `file://${dir}/b.ts`, text: "export const b = 2;" } },
          { type: "image", data: png, mimeType: "image/png" },
          // Named wrongly by the editor: sent as the PNG its bytes are. Not an image at all: left out.
          { type: "image", data: png, mimeType: "image/jpeg" },
          { type: "image", data: Buffer.from("not a picture").toString("base64"), mimeType: "image/png" },
          { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        ],
      });
      const second = await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "/compact" }] });
      return [first.stopReason, second.stopReason];
    });
    await a.proc.exited;
    expect(stops).toEqual(["end_turn", "end_turn"]);
    const body = server.requests.find((q) => q.outcome === "served")!.body as { messages: Array<{ content: Array<{ type: string; text?: string }> }> };
    const sent = body.messages[0]!.content;
    expect(sent.map((b) => b.type)).toEqual(["text", "text", "text", "image", "image"]);
    expect(JSON.stringify(sent.slice(3))).not.toContain("image/jpeg");
    expect(text(a.updates, "agent_message_chunk")).toContain("image 3 (not a PNG, JPEG, GIF or WebP image)");
    expect(sent[1]!.text).toBe(`[a.ts](file://${dir}/a.ts)`);
    expect(sent[2]!.text).toContain("export const b = 2;");
    expect(text(a.updates, "agent_message_chunk")).toContain("left out of the message, not supported: image 3 (not a PNG, JPEG, GIF or WebP image), audio)");
    expect(text(a.updates, "agent_message_chunk")).toContain("Compacted the conversation.");
  });

  test("available_commands_update lists the project's and the user's commands and skills with their hints; a prompt \"/name args\" runs one", async () => {
    const dir = tempProject();
    mkdirSync(join(dir, ".claude", "commands", "git"), { recursive: true });
    mkdirSync(join(dir, ".claude", "skills", "release-notes"), { recursive: true });
    writeFileSync(join(dir, "notes.md"), "the notes say ship it\n");
    writeFileSync(join(dir, ".claude", "commands", "review.md"), "---\ndescription: Review a file\nargument-hint: <file> [focus]\n---\nReview @$1 with an eye on $2.\n");
    writeFileSync(join(dir, ".claude", "commands", "git", "tidy.md"), "Tidy the branch history.\n");
    writeFileSync(join(dir, ".claude", "skills", "release-notes", "SKILL.md"), "---\nname: release-notes\ndescription: Write release notes from the log\n---\nRead git log.\n");
    const server = await serve({ turns: [{ content: [{ type: "text", text: "Reviewed." }], expect: { lastTextMatches: "^Review @notes.md\\s+<file path=\"notes.md\">[\\s\\S]*the notes say ship it\\s+</file> with an eye on tone[.]" } }] });
    const env = isolatedEnv(server.url);
    mkdirSync(join(env.HOME!, ".claude", "commands"), { recursive: true });
    writeFileSync(join(env.HOME!, ".claude", "commands", "standup.md"), "---\ndescription: Summarise yesterday\n---\nWhat did I do yesterday?\n");
    const a = startAgent(dir, env);
    const stop = await a.run(async (ctx) => {
      await initialize(ctx);
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      while (!a.updates.some((u) => u.update.sessionUpdate === "available_commands_update")) await new Promise((r) => setTimeout(r, 5));
      return (await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "/review notes.md tone" }] })).stopReason;
    });
    await a.proc.exited;
    expect(server.checkFailures).toEqual([]);
    expect(stop).toBe("end_turn");
    const listed = ofKind(a.updates, "available_commands_update")[0]!.availableCommands;
    expect(listed.map((c) => c.name)).toEqual(["compact", "git:tidy", "release-notes", "review", "standup"]);
    const by = Object.fromEntries(listed.map((c) => [c.name, c]));
    expect(by.review!.description).toBe("Review a file (project command)");
    expect(by.review!.input).toEqual({ hint: "<file> [focus]" });
    expect(by["git:tidy"]!.description).toBe("Tidy the branch history. (project command)");
    expect(by["git:tidy"]!.input ?? null).toBeNull();
    expect(by["release-notes"]!.description).toBe("Write release notes from the log (project skill)");
    expect(by["release-notes"]!.input?.hint).toContain("what to use the skill for");
    expect(by.standup!.description).toBe("Summarise yesterday (user command)");
    expect(by.compact!.input?.hint).toContain("instructions");
  });

  test("the model is a session config option the editor can set; session/resume reopens without replay; notices go to an editor that shows them", async () => {
    const dir = tempProject();
    // A settings file that does not parse: its notice is what the editor should show.
    mkdirSync(join(dir, ".khaelor"), { recursive: true });
    writeFileSync(join(dir, ".khaelor", "settings.json"), "{ not json");
    const server = await serve({ turns: [{ content: [{ type: "text", text: "first" }] }, { content: [{ type: "text", text: "second" }], expect: { lastTextMatches: "again" } }] });
    const env = isolatedEnv(server.url);
    const a = startAgent(dir, env);
    const r = await a.run(async (ctx) => {
      await ctx.request("initialize", { protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: { session: { notices: {} } } });
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      const set = await ctx.request("session/set_config_option", { sessionId: s.sessionId, configId: "model", value: "claude-haiku-5-5" });
      const bad = await ctx.request("session/set_config_option", { sessionId: s.sessionId, configId: "colour", value: "red" }).then(
        () => "no error",
        (e: Error) => e.message,
      );
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "hi" }] });
      await ctx.request("session/close", { sessionId: s.sessionId });
      const before = a.updates.length;
      const resumed = await ctx.request("session/resume", { sessionId: s.sessionId, cwd: dir });
      const replayed = a.updates.slice(before).filter((u) => u.update.sessionUpdate === "agent_message_chunk").length;
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "again" }] });
      const missing = await ctx.request("session/resume", { sessionId: "0f8fad5b-d9cb-469f-a165-70867728950e", cwd: dir }).then(
        () => "no error",
        (e: Error) => e.message,
      );
      return { created: s.configOptions, set: set.configOptions, bad, resumed: resumed.configOptions, replayed, missing };
    });
    await a.proc.exited;
    expect(server.checkFailures).toEqual([]);
    const model = (o: acp.SessionConfigOption[] | null | undefined) => o?.find((x) => x.id === "model");
    expect(model(r.created)).toMatchObject({ category: "model", type: "select", currentValue: "claude-sonnet-5-5" });
    expect(model(r.set)).toMatchObject({ currentValue: "claude-haiku-5-5" });
    expect(r.bad).toContain("unknown config option colour");
    // The model stays with the session: resumed, it is still haiku, and both requests went to it.
    expect(model(r.resumed)).toMatchObject({ currentValue: "claude-haiku-5-5" });
    expect(server.requests.filter((q) => q.outcome === "served").map((q) => (q.body as { model: string }).model)).toEqual(["claude-haiku-5-5", "claude-haiku-5-5"]);
    expect(ofKind(a.updates, "config_option_update").length).toBeGreaterThan(0);
    expect(r.replayed).toBe(0);
    expect(r.missing).toMatch(/not found/i);
    const notices = ofKind(a.updates, "notice");
    expect(notices.some((n) => n.severity === "warning" && n.title.includes("settings.json"))).toBe(true);
    expect(await a.stderr).not.toContain("settings.json");
  });

  test("the API's web search and fetch show as search and fetch tool calls with what they found, live and in a session/load", async () => {
    const dir = tempProject();
    const hits = [{ type: "web_search_result", title: "Bun.Terminal", url: "https://bun.sh/docs/api/terminal", encrypted_content: "ZW5j", page_age: null }];
    const page = { type: "web_fetch_result", url: "https://bun.sh/docs/api/terminal", retrieved_at: "2026-12-01T10:00:00Z", content: { type: "document", title: "Bun.Terminal", source: { type: "text", media_type: "text/plain", data: "ptys" }, citations: null } };
    const server = await serve({
      turns: [
        {
          content: [
            { type: "server_tool_use", name: "web_search", input: { query: "bun pty" } },
            { type: "web_search_tool_result", content: hits },
            { type: "server_tool_use", name: "web_fetch", input: { url: "https://bun.sh/docs/api/terminal" } },
            { type: "web_fetch_tool_result", content: page },
            { type: "text", text: "Bun has ptys." },
          ],
        },
      ],
    });
    const env = isolatedEnv(server.url);
    const a = startAgent(dir, env);
    const sessionId = await a.run(async (ctx) => {
      await initialize(ctx);
      const s = await ctx.request("session/new", { cwd: dir, mcpServers: [] });
      await ctx.request("session/prompt", { sessionId: s.sessionId, prompt: [{ type: "text", text: "research" }] });
      return s.sessionId;
    });
    await a.proc.exited;
    const calls = ofKind(a.updates, "tool_call").map((c) => ({ title: c.title, kind: c.kind, status: c.status }));
    expect(calls).toEqual([
      { title: 'web_search "bun pty"', kind: "search", status: "completed" },
      { title: "web_fetch https://bun.sh/docs/api/terminal", kind: "fetch", status: "completed" },
    ]);
    const found = ofKind(a.updates, "tool_call").map((c) => c.content?.map((x) => (x.type === "content" && x.content.type === "text" ? x.content.text : "")).join(""));
    expect(found[0]).toContain("Bun.Terminal — https://bun.sh/docs/api/terminal");
    expect(found[1]).toContain("https://bun.sh/docs/api/terminal (4 characters");
    const b = startAgent(dir, env);
    await b.run(async (ctx) => {
      await initialize(ctx);
      await ctx.request("session/load", { sessionId, cwd: dir, mcpServers: [] });
    });
    await b.proc.exited;
    // Replayed in the message's order: the two calls, then the answer.
    const replayed = b.updates.map((u) => u.update).filter((u) => u.sessionUpdate === "tool_call" || u.sessionUpdate === "agent_message_chunk");
    expect(replayed.map((u) => (u.sessionUpdate === "tool_call" ? u.kind : u.sessionUpdate))).toEqual(["search", "fetch", "agent_message_chunk"]);
  });
});
