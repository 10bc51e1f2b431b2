// The real Claude Agent SDK drives khaelor: query() spawns our CLI (pathToClaudeCodeExecutable),
// speaks stream-json and the control protocol to it, with the fake Messages API behind.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createSdkMcpServer, query, tool, type HookInput, type SDKMessage, type SDKUserMessage } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import { sessionPath } from "../../src/session/paths.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { sdkExecutable } from "./sdk-executable.ts";
import { isolatedEnv, tempProject } from "../support/cli.ts";
import { expectCleanHandoff } from "../support/plan-handoff.ts";

const serve = fakeApiFixture();

function user(text: string): SDKUserMessage {
  return { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" } as SDKUserMessage;
}

describe("the Claude Agent SDK drives khaelor", () => {
  test("a tool call approved through canUseTool, then a second user message in the same process", async () => {
    const dir = tempProject();
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "Writing it." }, { type: "tool_use", name: "bash", input: { command: "echo made > out.txt" } }] },
        { content: [{ type: "text", text: "First done." }], expect: { lastHasToolResult: { isError: false } } },
        { content: [{ type: "text", text: "Second answer." }], expect: { lastTextMatches: "and now the second" } },
      ],
    });
    let firstResult!: () => void;
    const firstDone = new Promise<void>((r) => (firstResult = r));
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield user("make out.txt");
      await firstDone;
      yield user("and now the second");
    }
    const asked: Array<{ tool: string; input: unknown; suggestions: unknown }> = [];
    const messages: SDKMessage[] = [];
    const stderr: string[] = [];
    const q = query({
      prompt: prompts(),
      options: {
        pathToClaudeCodeExecutable: sdkExecutable(),
        cwd: dir,
        env: isolatedEnv(server.url),
        stderr: (s) => stderr.push(s),
        canUseTool: async (tool, input, o) => {
          asked.push({ tool, input, suggestions: o.suggestions });
          return { behavior: "allow", updatedInput: input };
        },
      },
    });
    for await (const m of q) {
      messages.push(m);
      if (m.type === "result" && messages.filter((x) => x.type === "result").length === 1) firstResult();
    }
    // The prompts ended after the second message: end of input ended the process cleanly (no throw above).
    expect(server.checkFailures).toEqual([]);
    expect(stderr.join("")).toBe("");
    expect(asked.map((a) => a.tool)).toEqual(["Bash"]);
    expect(asked[0]!.input).toEqual({ command: "echo made > out.txt" });
    expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("made\n");
    const results = messages.filter((m) => m.type === "result");
    expect(results.map((r) => (r as { result?: string }).result)).toEqual(["First done.", "Second answer."]);
    expect(results.every((r) => r.subtype === "success")).toBe(true);
    const texts = messages.filter((m) => m.type === "assistant").flatMap((m) => (m as { message: { content: Array<{ type: string; text?: string }> } }).message.content.filter((b) => b.type === "text").map((b) => b.text));
    expect(texts).toEqual(["Writing it.", "First done.", "Second answer."]);
    // One session for both turns.
    expect(new Set(messages.map((m) => (m as { session_id?: string }).session_id)).size).toBe(1);
  });

  test("updatedPermissions saves the suggested rule (the next such call is not asked); setPermissionMode, setModel and a deny with interrupt", async () => {
    const dir = tempProject();
    const bash = (command: string) => ({ content: [{ type: "tool_use" as const, name: "bash", input: { command } }] });
    const server = await serve({
      turns: [
        bash("npm test --silent || true"),
        bash("npm test --silent || echo again"),
        { content: [{ type: "text", text: "tests ran" }] },
        { content: [{ type: "tool_use", name: "write", input: { file_path: "a.txt", content: "a\n" } }] },
        { content: [{ type: "text", text: "wrote a.txt" }], expect: { lastHasToolResult: { isError: false } } },
        bash("git push origin main"),
      ],
    });
    const results: string[] = [];
    let next!: () => void;
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      for (const text of ["run the tests", "write a.txt", "push it"]) {
        const done = new Promise<void>((r) => (next = r));
        yield user(text);
        await done;
      }
    }
    const asked: string[] = [];
    const q = query({
      prompt: prompts(),
      options: {
        pathToClaudeCodeExecutable: sdkExecutable(),
        cwd: dir,
        env: isolatedEnv(server.url),
        // Our own flag, through the SDK's pass-through: the scripted turns end where the test says.
        extraArgs: { "no-verify-nudge": null },
        canUseTool: async (tool, input, o) => {
          asked.push(`${tool}: ${String((input as { command?: string }).command ?? (input as { file_path?: string }).file_path)}`);
          if (tool === "Bash" && String(input.command).startsWith("git push")) return { behavior: "deny", message: "not now", interrupt: true };
          return { behavior: "allow", updatedInput: input, updatedPermissions: o.suggestions?.slice(0, 1) ?? [] };
        },
      },
    });
    for await (const m of q) {
      if (m.type !== "result") continue;
      results.push(m.subtype === "success" ? m.result : m.subtype);
      if (results.length === 1) {
        await q.setPermissionMode("acceptEdits");
        await q.setModel("claude-haiku-5-5");
      }
      next();
    }
    expect(server.checkFailures).toEqual([]);
    // The first npm test call was allowed with its suggestion saved; the second ran without asking.
    // In acceptEdits the write was not asked about (nor would an rm in the project be); the push was denied and ended the turn.
    expect(asked).toEqual(["Bash: npm test --silent || true", "Bash: git push origin main"]);
    expect(results.slice(0, 2)).toEqual(["tests ran", "wrote a.txt"]);
    expect(results[2]).toBe("error_during_execution");
    const local = JSON.parse(readFileSync(join(dir, ".khaelor", "settings.local.json"), "utf8")) as { permissions: { allow: string[] } };
    expect(local.permissions.allow.some((r) => r.startsWith("Bash(npm test"))).toBe(true);
    const models = server.requests.filter((r) => r.outcome === "served").map((r) => (r.body as { model: string }).model);
    expect(models.at(-1)).toBe("claude-haiku-5-5");
  });

  test("a PreToolUse hook callback denies a call (the model hears why); a matcher for another tool is never called", async () => {
    const dir = tempProject();
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo hi > hooked.txt" } }] },
        { content: [{ type: "text", text: "The hook said no." }], expect: { lastHasToolResult: { isError: true, contentMatches: "no shell today" } } },
      ],
    });
    const heard: HookInput[] = [];
    const readHook: HookInput[] = [];
    const prompts: string[] = [];
    const messages: SDKMessage[] = [];
    const stderr: string[] = [];
    const q = query({
      prompt: "make hooked.txt",
      options: {
        pathToClaudeCodeExecutable: sdkExecutable(),
        cwd: dir,
        env: isolatedEnv(server.url),
        stderr: (s) => stderr.push(s),
        extraArgs: { "no-verify-nudge": null },
        permissionMode: "bypassPermissions",
        allowDangerouslySkipPermissions: true,
        hooks: {
          PreToolUse: [
            {
              matcher: "Bash",
              hooks: [
                async (input) => {
                  heard.push(input);
                  return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "no shell today" } };
                },
              ],
            },
            { matcher: "Read", hooks: [async (input) => (readHook.push(input), {})] },
          ],
          UserPromptSubmit: [{ hooks: [async (input) => (prompts.push((input as { prompt: string }).prompt), {})] }],
        },
      },
    });
    for await (const m of q) messages.push(m);
    expect(server.checkFailures).toEqual([]);
    expect(stderr.join("")).toBe("");
    expect(heard.length).toBe(1);
    expect(heard[0]).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "echo hi > hooked.txt" }, cwd: expect.any(String), session_id: expect.any(String) });
    expect(readHook).toEqual([]);
    expect(prompts).toEqual(["make hooked.txt"]);
    // Denied even in bypassPermissions: the hook decides before the mode does.
    expect(existsSync(join(dir, "hooked.txt"))).toBe(false);
    const result = messages.find((m) => m.type === "result");
    expect(result).toMatchObject({ subtype: "success", result: "The hook said no." });
  });

  test("an in-process server from createSdkMcpServer: its tool is offered and listed in init, and the model's call runs in the host", async () => {
    const dir = tempProject();
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "mcp__calc__add", input: { a: 2, b: 3 } }], expect: { toolsInclude: ["mcp__calc__add"] } },
        { content: [{ type: "text", text: "It is 5." }], expect: { lastHasToolResult: { isError: false, contentMatches: "^sum: 5$" } } },
      ],
    });
    const calls: Array<{ a: number; b: number }> = [];
    const calc = createSdkMcpServer({
      name: "calc",
      version: "1.0.0",
      tools: [
        tool("add", "Add two numbers", { a: z.number(), b: z.number() }, async (args) => {
          calls.push(args);
          return { content: [{ type: "text", text: `sum: ${args.a + args.b}` }] };
        }),
      ],
    });
    const messages: SDKMessage[] = [];
    const stderr: string[] = [];
    const q = query({
      prompt: "add 2 and 3",
      options: {
        pathToClaudeCodeExecutable: sdkExecutable(),
        cwd: dir,
        env: isolatedEnv(server.url),
        stderr: (s) => stderr.push(s),
        extraArgs: { "no-verify-nudge": null },
        mcpServers: { calc },
        allowedTools: ["mcp__calc__add"],
      },
    });
    for await (const m of q) messages.push(m);
    expect(server.checkFailures).toEqual([]);
    expect(stderr.join("")).toBe("");
    expect(calls).toEqual([{ a: 2, b: 3 }]);
    const init = messages.find((m) => m.type === "system" && m.subtype === "init") as Extract<SDKMessage, { subtype: "init" }>;
    expect(init.tools).toContain("mcp__calc__add");
    expect(init.mcp_servers).toEqual([{ name: "calc", status: "connected", source: "sdk" }]);
    expect(messages.find((m) => m.type === "result")).toMatchObject({ subtype: "success", result: "It is 5." });
  });

  test("plan mode: ExitPlanMode reaches canUseTool with the plan in its input; approving with setMode acceptEdits leaves plan mode, so the edit runs unasked", async () => {
    const dir = tempProject();
    const plan = "# Plan\n\n1. Write done.txt\n";
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "Here is the plan." }, { type: "tool_use", name: "exit_plan_mode", input: { plan } }] },
        { content: [{ type: "tool_use", name: "write", input: { file_path: "done.txt", content: "done\n" } }], expect: { lastHasToolResult: { isError: false, contentMatches: "approved the plan" } } },
        { content: [{ type: "text", text: "Implemented." }], expect: { lastHasToolResult: { isError: false } } },
      ],
    });
    const asked: Array<{ tool: string; input: Record<string, unknown> }> = [];
    const messages: SDKMessage[] = [];
    const q = query({
      prompt: "plan, then write done.txt",
      options: {
        pathToClaudeCodeExecutable: sdkExecutable(),
        cwd: dir,
        env: isolatedEnv(server.url),
        permissionMode: "plan",
        canUseTool: async (tool, input) => {
          asked.push({ tool, input });
          return { behavior: "allow", updatedInput: input, updatedPermissions: [{ type: "setMode", mode: "acceptEdits", destination: "session" }] };
        },
      },
    });
    for await (const m of q) messages.push(m);
    expect(server.checkFailures).toEqual([]);
    // Asked once, for the plan: the write after it ran in acceptEdits mode without a question.
    expect(asked).toEqual([{ tool: "ExitPlanMode", input: { plan } }]);
    expect(readFileSync(join(dir, "done.txt"), "utf8")).toBe("done\n");
    const result = messages.find((m) => m.type === "result");
    expect(result?.subtype).toBe("success");
    // The request in plan mode offered the exit and named the plan file.
    expect(JSON.stringify(server.requests[0]!.body)).toContain("exit_plan_mode");
    expect(JSON.stringify(server.requests[0]!.body)).toContain("Plan mode is on");
  });

  test("plan mode: ExitPlanMode allowed with updatedInput {...input, clearContext: true} implements the plan in a new session seeded with the request and the plan only", async () => {
    const dir = tempProject();
    const plan = "# Plan\n\n1. Write done.txt\n";
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "PLANNING." }, { type: "tool_use", id: "toolu_plan1", name: "exit_plan_mode", input: { plan } }] },
        { content: [{ type: "tool_use", name: "write", input: { file_path: "done.txt", content: "done\n" } }] },
        { content: [{ type: "text", text: "IMPLEMENTED." }], expect: { lastHasToolResult: { isError: false } } },
      ],
    });
    const env = isolatedEnv(server.url);
    const asked: string[] = [];
    const messages: SDKMessage[] = [];
    const q = query({
      prompt: "plan, then write done.txt",
      options: {
        pathToClaudeCodeExecutable: sdkExecutable(),
        cwd: dir,
        env,
        permissionMode: "plan",
        // The scripted turns end where the test says.
        extraArgs: { "no-verify-nudge": null },
        canUseTool: async (tool, input) => {
          asked.push(tool);
          return { behavior: "allow", updatedInput: { ...input, clearContext: true } };
        },
      },
    });
    for await (const m of q) messages.push(m);
    expect(server.checkFailures).toEqual([]);
    // Asked once, for the plan: the new session accepts edits.
    expect(asked).toEqual(["ExitPlanMode"]);
    expect(readFileSync(join(dir, "done.txt"), "utf8")).toBe("done\n");
    const results = messages.filter((m) => m.type === "result") as Array<{ session_id: string; subtype: string; result?: string }>;
    expect(results.map((r) => r.subtype)).toEqual(["success", "success"]);
    const [planning, implementing] = results.map((r) => r.session_id);
    expect(implementing).not.toBe(planning);
    expect(results[1]!.result).toBe("IMPLEMENTED.");
    // The system line that names the new session and the planning one.
    const handoff = messages.find((m) => m.type === "system" && (m as { subtype: string }).subtype === "plan_handoff") as { session_id: string; planning_session_id: string } | undefined;
    expect(handoff).toMatchObject({ session_id: implementing, planning_session_id: planning });
    // The request after approval: the user's request and the plan, none of the planning turns.
    expectCleanHandoff(server.requests[1]!.body, { request: "plan, then write done.txt", plan: "1. Write done.txt", planning: ["PLANNING.", "toolu_plan1"] });
    // The planning session stays in the log, resumable under its own id.
    expect(readFileSync(sessionPath(dir, planning!, env), "utf8")).toContain("PLANNING.");
  });

  test("the host's own uuid on a user message is that message's id in the log: echoed with --replay-user-messages, and resumeSessionAt can name it", async () => {
    const dir = tempProject();
    const server = await serve({ turns: [{ content: [{ type: "text", text: "Noted: plum." }] }, { content: [{ type: "text", text: "Noted: pear." }] }, { content: [{ type: "text", text: "It was plum." }] }] });
    const env = isolatedEnv(server.url);
    const plumId = crypto.randomUUID();
    const pearId = crypto.randomUUID();
    let firstResult!: () => void;
    const firstDone = new Promise<void>((r) => (firstResult = r));
    async function* prompts(): AsyncGenerator<SDKUserMessage> {
      yield { ...user("the word is plum"), uuid: plumId } as SDKUserMessage;
      await firstDone;
      yield { ...user("no, the word is pear"), uuid: pearId } as SDKUserMessage;
    }
    const messages: SDKMessage[] = [];
    for await (const m of query({ prompt: prompts(), options: { pathToClaudeCodeExecutable: sdkExecutable(), cwd: dir, env, extraArgs: { "replay-user-messages": null } } })) {
      messages.push(m);
      if (m.type === "result") firstResult();
    }
    // Each user message comes back once, as Claude Code echoes it: with the host's uuid and isReplay.
    const echoes = messages.filter((m) => m.type === "user" && (m as { isReplay?: boolean }).isReplay) as Array<{ uuid: string; message: { content: unknown } }>;
    expect(echoes.map((e) => e.uuid)).toEqual([plumId, pearId]);
    expect(JSON.stringify(echoes[0]!.message.content)).toContain("the word is plum");
    const sessionId = (messages[0] as { session_id: string }).session_id;
    const log = readFileSync(sessionPath(dir, sessionId, env), "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as { type: string; id: string });
    expect(log.filter((e) => e.type === "user_message").map((e) => e.id)).toEqual([plumId, pearId]);

    // The host names its own first prompt: the conversation goes on from it, the pear turn dropped.
    for await (const m of query({ prompt: "what was the word?", options: { pathToClaudeCodeExecutable: sdkExecutable(), cwd: dir, env, resume: sessionId, resumeSessionAt: plumId } })) messages.push(m);
    const last = JSON.stringify((server.requests.filter((r) => r.outcome === "served").at(-1)!.body as { messages: unknown[] }).messages);
    expect(last).toContain("the word is plum");
    expect(last).toContain("what was the word?");
    expect(last).not.toContain("pear");
  });
});
