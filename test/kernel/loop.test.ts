import { describe, expect, test } from "bun:test";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import type { AgentEvent } from "../../src/events/types.ts";
import { runTurn } from "../../src/kernel/loop.ts";
import type { KernelDeps, PermissionGate } from "../../src/kernel/types.ts";
import { ModelError, type AssistantBlock, type Message } from "../../src/model/types.ts";
import { doomLoopPolicy } from "../../src/policy/doom-loop.ts";
import { verifyOnStopPolicy } from "../../src/policy/verify-on-stop.ts";
import type { FailedCall, PreparedCall, ToolCall, ToolOutcome, ToolRuntime } from "../../src/tools/types.ts";
import { memoryContext } from "../support/memory-context.ts";
import { scriptedModel, type ScriptStep } from "../support/scripted-model.ts";

/** Small test tools behind the real ToolRuntime contract: echo, fail (throws), edit (pretends). */
function testRuntime(log: string[] = []): ToolRuntime {
  const schemas: Record<string, z.ZodType> = {
    echo: z.object({ text: z.string() }),
    fail: z.object({}),
    edit: z.object({ file_path: z.string() }),
    bash: z.object({ command: z.string() }),
  };
  const execute = async (call: ToolCall): Promise<ToolOutcome> => {
    const base = { summary: call.name, durationMs: 1 };
    const schema = schemas[call.name];
    if (!schema) return { ...base, kind: "unknown_tool", isError: true, content: `Unknown tool ${call.name}` };
    const parsed = schema.safeParse(call.input);
    if (!parsed.success) return { ...base, kind: "invalid_input", isError: true, content: `Invalid input: ${parsed.error.issues.map((i) => i.path.join(".")).join(", ")}` };
    log.push(`${call.name}:${JSON.stringify(call.input)}`);
    if (call.name === "fail") return { ...base, kind: "error", isError: true, content: "it broke" };
    return { ...base, kind: "ok", isError: false, content: `ok ${JSON.stringify(call.input)}` };
  };
  const describe = (call: ToolCall) => (schemas[call.name] ? { readOnly: call.name === "echo", destructive: false, summary: `${call.name}`, valid: schemas[call.name]!.safeParse(call.input).success } : null);
  const prepare = async (call: ToolCall): Promise<PreparedCall | FailedCall> => {
    const info = describe(call);
    if (!info?.valid) return { ok: false, call, outcome: await execute(call) };
    // An edit of "gone.txt" cannot succeed: the runtime says so before anyone is asked.
    if (call.name === "edit" && (call.input as { file_path?: string }).file_path === "gone.txt")
      return { ok: false, call, outcome: { summary: "edit", durationMs: 1, kind: "error", isError: true, content: "File not found: gone.txt." } };
    const facts = { name: call.name, claudeName: call.name, kind: "other" as const, access: info.readOnly ? ("read" as const) : ("write" as const), paths: [] };
    return { ok: true, call, summary: info.summary, readOnly: info.readOnly, destructive: info.destructive, facts, run: () => execute(call) };
  };
  return {
    specs: () => Object.keys(schemas).map((name) => ({ name, description: name, input_schema: { type: "object" } })),
    names: () => Object.keys(schemas),
    describe,
    prepare,
    execute,
  };
}

const allowAll: PermissionGate = { authorize: async () => ({ allow: true }) };
const text = (t: string): AssistantBlock[] => [{ type: "text", text: t }];
let toolId = 0;
const use = (name: string, input: unknown): AssistantBlock => ({ type: "tool_use", id: `tu_${++toolId}`, name, input });

function setup(steps: ScriptStep[], over: Partial<KernelDeps> = {}) {
  const model = scriptedModel(steps);
  const context = memoryContext();
  const events: AgentEvent[] = [];
  const toolLog: string[] = [];
  const deps: KernelDeps = {
    model,
    modelName: () => "test-model",
    system: () => [{ type: "text", text: "sys" }],
    tools: testRuntime(toolLog),
    workspace: { root: "/tmp", cwd: "/tmp", resolve: (p) => p },
    context,
    gate: allowAll,
    emit: (e) => {
      events.push(e);
      context.apply(e);
    },
    ...over,
  };
  return { deps, model, context, events, toolLog };
}

/** Every tool_use in the request is answered by a tool_result in the next message. */
function assertPaired(messages: Message[]) {
  messages.forEach((m, i) => {
    if (m.role !== "assistant") return;
    const ids = m.content.filter((b) => b.type === "tool_use").map((b) => (b.type === "tool_use" ? b.id : ""));
    if (ids.length === 0) return;
    const next = messages[i + 1];
    expect(next?.role).toBe("user");
    const answered = typeof next!.content === "string" ? [] : next!.content.filter((b) => b.type === "tool_result").map((b) => (b.type === "tool_result" ? b.tool_use_id : ""));
    expect(answered).toEqual(ids);
  });
}

describe("kernel loop", () => {
  test("ends when the model answers without tool calls", async () => {
    const { deps, events } = setup([text("done")]);
    const r = await runTurn(deps, "hi", new AbortController().signal);
    expect(r).toMatchObject({ reason: "finished", steps: 1, lastText: "done" });
    expect(events.filter((e) => "ts" in e).map((e) => e.type)).toEqual(["user_message", "assistant_message", "turn_end"]);
  });

  test("runs all calls of one message in order and returns every result together", async () => {
    const { deps, model, toolLog } = setup([[use("echo", { text: "a" }), use("echo", { text: "b" }), use("fail", {})], text("fine")]);
    const r = await runTurn(deps, "go", new AbortController().signal);
    expect(r.reason).toBe("finished");
    expect(toolLog).toEqual(['echo:{"text":"a"}', 'echo:{"text":"b"}', "fail:{}"]);
    const second = model.requests[1]!.messages;
    assertPaired(second);
    const results = second.at(-1)!.content as Array<{ type: string; is_error?: boolean }>;
    expect(results.map((b) => b.is_error)).toEqual([false, false, true]);
  });

  test("unknown tools and invalid input go back to the model, and the run goes on", async () => {
    const { deps, model } = setup([[use("nope", {})], [use("echo", { wrong: 1 })], text("recovered")]);
    const r = await runTurn(deps, "go", new AbortController().signal);
    expect(r.reason).toBe("finished");
    const last = JSON.stringify(model.requests[2]!.messages.at(-1));
    expect(last).toContain("Invalid input: text");
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain("Unknown tool nope");
  });

  test("a strike limit ends a run of consecutive malformed calls", async () => {
    const { deps } = setup([[use("nope", {})], [use("nope", {})], [use("nope", {})], text("never")], { budgets: { maxStrikes: 3 } });
    const r = await runTurn(deps, "go", new AbortController().signal);
    expect(r.reason).toBe("strikes");
  });

  test("--max-turns and --max-budget-usd stop the run", async () => {
    const loop = () => [use("echo", { text: String(Math.random()) })];
    const a = setup([loop(), loop(), loop(), loop()], { budgets: { maxTurns: 2 } });
    expect((await runTurn(a.deps, "go", new AbortController().signal)).reason).toBe("max_turns");
    let cost = 0;
    const b = setup([loop(), loop(), loop()], { budgets: { maxBudgetUsd: 0.5 }, costOf: () => 0.3, costSoFar: () => cost });
    b.deps.emit = ((orig) => (e: AgentEvent) => {
      if (e.type === "assistant_message") cost += e.costUsd ?? 0;
      orig(e);
    })(b.deps.emit);
    expect((await runTurn(b.deps, "go", new AbortController().signal)).reason).toBe("max_budget");
    expect(b.model.requests.length).toBe(2);
  });

  test("cancelling mid-stream keeps the partial answer, marked interrupted", async () => {
    const controller = new AbortController();
    const { deps, events } = setup([{ hang: true, partial: "half an ans" }], {
      emit: (e) => {
        events.push(e);
        if (e.type === "text_delta") controller.abort();
      },
    });
    const r = await runTurn(deps, "go", controller.signal);
    expect(r.reason).toBe("cancelled");
    const msg = events.find((e) => e.type === "assistant_message");
    expect(msg).toMatchObject({ interrupted: true, message: { content: [{ type: "text", text: "half an ans" }] } });
    expect(events.some((e) => e.type === "interruption")).toBe(true);
  });

  test("steering messages are delivered at the next loop boundary, after the tool results", async () => {
    const queue = ["also do X"];
    const { deps, model } = setup([[use("echo", { text: "1" })], text("ok")], { takeSteering: () => queue.splice(0) });
    await runTurn(deps, "go", new AbortController().signal);
    const last = model.requests[1]!.messages.at(-1)!;
    expect(last.role).toBe("user");
    const blocks = last.content as Array<{ type: string; text?: string }>;
    expect(blocks.map((b) => b.type)).toEqual(["tool_result", "text"]);
    expect(blocks[1]!.text).toBe("also do X");
  });

  test("a message queued while the model answers keeps the turn going", async () => {
    const queue: string[] = [];
    const { deps, model } = setup([text("first"), text("second")], {
      takeSteering: () => queue.splice(0),
    });
    queue.push("wait, one more thing");
    const r = await runTurn(deps, "go", new AbortController().signal);
    expect(r.lastText).toBe("second");
    expect(model.requests.length).toBe(2);
  });

  test("doom loop: a nudge after 3 identical calls, a stop on the second strike", async () => {
    const same = () => [use("echo", { text: "same" })];
    const { deps, model } = setup(Array.from({ length: 8 }, same), { policies: [doomLoopPolicy()] });
    const r = await runTurn(deps, "go", new AbortController().signal);
    expect(r.reason).toBe("doom_loop");
    expect(model.requests.length).toBe(6);
    expect(JSON.stringify(model.requests[3]!.messages.at(-1))).toContain("same echo call 3 times");
  });

  test("verify-on-stop nudges once per edit-without-check, at most twice, naming the project's commands", async () => {
    const root = mkdtempSync(join(tmpdir(), "khaelor-verify-"));
    writeFileSync(join(root, "package.json"), JSON.stringify({ scripts: { test: "bun test", lint: "eslint ." } }));
    const { deps, model } = setup(
      [[use("edit", { file_path: "a" })], text("done"), [use("edit", { file_path: "b" })], text("done"), [use("edit", { file_path: "c" })], text("really done")],
      { policies: [verifyOnStopPolicy(root)] },
    );
    const r = await runTurn(deps, "go", new AbortController().signal);
    expect(r.lastText).toBe("really done");
    expect(model.requests.length).toBe(6);
    const nudge = JSON.stringify(model.requests[2]!.messages.at(-1));
    expect(nudge).toContain("npm run test");
    expect(nudge).toContain("npm run lint");
  });

  test("verify-on-stop stays quiet when a check ran after the last edit", async () => {
    const root = mkdtempSync(join(tmpdir(), "khaelor-verify-"));
    const { deps, model } = setup([[use("edit", { file_path: "a" })], [use("bash", { command: "npm test" })], text("done")], {
      policies: [verifyOnStopPolicy(root)],
    });
    await runTurn(deps, "go", new AbortController().signal);
    expect(model.requests.length).toBe(3);
  });

  test("a context overflow is compacted and retried once", async () => {
    const overflow = new ModelError("overflow", "prompt is too long", 400);
    const { deps, context } = setup([overflow, text("fits now")]);
    const r = await runTurn(deps, "go", new AbortController().signal);
    expect(r).toMatchObject({ reason: "finished", lastText: "fits now" });
    expect(context.compactions).toEqual(["overflow"]);
  });

  test("a fatal model error ends the turn with an error event naming the cause", async () => {
    const { deps, events } = setup([new ModelError("fatal", "invalid x-api-key: set ANTHROPIC_API_KEY", 401)]);
    const r = await runTurn(deps, "go", new AbortController().signal);
    expect(r.reason).toBe("error");
    expect(events.find((e) => e.type === "error")).toMatchObject({ kind: "fatal", message: expect.stringContaining("ANTHROPIC_API_KEY") });
  });

  test("a denied call returns the gate's message as an error result", async () => {
    const gate: PermissionGate = { authorize: async () => ({ allow: false, message: "denied: not in plan mode" }) };
    const { deps, model, toolLog } = setup([[use("edit", { file_path: "x" })], text("ok")], { gate });
    await runTurn(deps, "go", new AbortController().signal);
    expect(toolLog).toEqual([]);
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain("denied: not in plan mode");
  });

  test("an error result says whether the call was cancelled: a denial was not, a call never run after Esc was", async () => {
    const controller = new AbortController();
    const gate: PermissionGate = {
      authorize: async () => {
        controller.abort();
        return { allow: false, message: "The user denied this call." };
      },
    };
    const { deps, events } = setup([[use("edit", { file_path: "x" }), use("echo", { text: "1" })], text("ok")], { gate });
    await runTurn(deps, "go", controller.signal);
    const results = events.filter((e) => e.type === "tool_result");
    expect(results.map((e) => e.type === "tool_result" && [e.name, e.interrupted])).toEqual([
      ["edit", false],
      ["echo", true],
    ]);
  });

  test("a call cut off at max_tokens is not run; the model is told to send less", async () => {
    const model = scriptedModel([]);
    const { deps, toolLog } = setup([]);
    deps.model = {
      async *stream(req) {
        model.requests.push(req);
        const n = model.requests.length;
        const content: AssistantBlock[] = n === 1 ? [use("edit", { file_path: "big.ts" })] : text("ok");
        yield { type: "message_done", message: { id: `m${n}`, model: "m", content, stop_reason: n === 1 ? "max_tokens" : "end_turn", usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } };
      },
    };
    await runTurn(deps, "write it", new AbortController().signal);
    expect(toolLog).toEqual([]);
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain("output limit (max_tokens)");
  });

  test("a call that cannot succeed fails without asking the gate, and is never run", async () => {
    let asked = 0;
    const log: string[] = [];
    const gate: PermissionGate = { authorize: async () => (asked++, { allow: true }) };
    const { deps, events } = setup([[use("edit", { file_path: "gone.txt" }), use("edit", { file_path: "here.txt" })], text("ok")], { tools: testRuntime(log), gate });
    await runTurn(deps, "go", new AbortController().signal);
    expect(asked).toBe(1);
    expect(log).toEqual(['edit:{"file_path":"here.txt"}']);
    const results = events.filter((e) => e.type === "tool_result").map((e) => (e.type === "tool_result" ? [e.isError, e.content] : null));
    expect(results[0]).toEqual([true, "File not found: gone.txt."]);
  });

  test("each call is prepared once; the gate gets the prepared call and what it allows is what runs", async () => {
    const tools = testRuntime();
    const prepared: string[] = [];
    const prepare = tools.prepare;
    tools.prepare = async (call, ctx) => (prepared.push(call.id), prepare(call, ctx));
    tools.execute = async () => {
      throw new Error("execute is for callers with nobody to ask");
    };
    const seen: string[] = [];
    const gate: PermissionGate = { authorize: async (p) => (seen.push(`${p.call.id} ${p.summary}`), { allow: true }) };
    const { deps, events } = setup([[use("edit", { file_path: "a" }), use("echo", { text: "hi" })], text("ok")], { tools, gate });
    await runTurn(deps, "go", new AbortController().signal);
    const ids = events.flatMap((e) => (e.type === "tool_result" ? [e.toolUseId] : []));
    expect(prepared).toEqual(ids);
    expect(seen).toEqual([`${ids[0]} edit`, `${ids[1]} echo`]);
    expect(events.filter((e) => e.type === "tool_result").every((e) => e.type === "tool_result" && !e.isError)).toBe(true);
  });

  test("a call cut off at max_tokens shows the user what happened, not the instructions to the model", async () => {
    const { deps, events } = setup([]);
    let n = 0;
    deps.model = {
      async *stream() {
        n++;
        const content: AssistantBlock[] = n === 1 ? [use("edit", { file_path: "big.ts" })] : text("ok");
        yield { type: "message_done", message: { id: `m${n}`, model: "m", content, stop_reason: n === 1 ? "max_tokens" : "end_turn", usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } } };
      },
    };
    await runTurn(deps, "write it", new AbortController().signal);
    const r = events.find((e) => e.type === "tool_result");
    expect(r?.type === "tool_result" && r.display).toEqual({ body: 0, notes: "the answer hit the output-token limit while writing this call, so it was not run; the agent was told to retry with less input" });
  });

  test("invalid input is answered without asking the gate", async () => {
    let asked = 0;
    const gate: PermissionGate = { authorize: async () => (asked++, { allow: false, message: "no" }) };
    const { deps, model } = setup([[use("edit", { path: 3 })], text("ok")], { gate });
    await runTurn(deps, "go", new AbortController().signal);
    expect(asked).toBe(0);
    expect(JSON.stringify(model.requests[1]!.messages.at(-1))).toContain("Invalid input");
  });

  test("notices (a process exited) come before the user's message, so the answer is to the user", async () => {
    const notices = ["process web exited with code 1"];
    const { deps, model } = setup([text("4")], { takeNotices: () => notices.splice(0) });
    const r = await runTurn(deps, "what is 2+2?", new AbortController().signal);
    expect(r.lastText).toBe("4");
    expect(model.requests.length).toBe(1);
    const first = JSON.stringify(model.requests[0]!.messages.at(-1));
    expect(first.indexOf("process web exited")).toBeLessThan(first.indexOf("what is 2+2?"));
  });

  test("auto compaction runs before a query when the context is near its window", async () => {
    const { deps, context } = setup([text("ok")]);
    context.overfull = true;
    await runTurn(deps, "go", new AbortController().signal);
    expect(context.compactions).toEqual(["auto"]);
  });
});
