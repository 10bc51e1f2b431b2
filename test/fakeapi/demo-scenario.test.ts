// The demo script against the real tools on a real copy of the sample project: every scripted call
// must work (the edit's old_string exists, the tests pass after it, the server starts and stops),
// and every check the script makes on the agent's requests holds.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoScenario, writeSampleProject } from "../../src/demo/index.ts";
import { createAnthropicClient } from "../../src/model/anthropic-client.ts";
import type { AssistantMessage, Message, TextBlock, ToolResultBlock } from "../../src/model/types.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createToolRuntime } from "../../src/tools/runtime.ts";
import { createWorkspace } from "../../src/workspace/local.ts";
import { startFakeApi } from "../support/fake-api.ts";

const dir = mkdtempSync(join(tmpdir(), "khaelor-demo-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the demo scenario drives the real tools through read, edit, bash and process to a summary", async () => {
  const project = join(dir, "project");
  writeSampleProject(project);
  const failing = Bun.spawnSync(["sh", "run-js.sh", "test/slugify.test.js"], { cwd: project });
  expect(failing.exitCode).toBe(1);

  const api = await startFakeApi({ scenario: { ...demoScenario, pacing: { textChunk: 50 } } });
  const workspace = createWorkspace({ root: project, spillDir: join(dir, "spill") });
  const tools = createToolRuntime(builtinTools());
  const client = createAnthropicClient({ apiKey: "demo", baseURL: api.url });
  const messages: Message[] = [{ role: "user", content: "Fix the failing test." }];
  const results: Array<{ name: string; isError: boolean; text: string }> = [];
  let final: AssistantMessage | null = null;
  try {
    // A minimal agent loop: the kernel proper is tested on its own.
    for (let turn = 0; turn < 10 && !final; turn++) {
      let message: AssistantMessage | null = null;
      for await (const ev of client.stream({ model: "claude-sonnet-5-5", system: [{ type: "text", text: "demo" }], messages, tools: tools.specs() }))
        if (ev.type === "message_done") message = ev.message;
      if (!message) throw new Error("no message");
      messages.push({ role: "assistant", content: message.content });
      const calls = message.content.flatMap((b) => (b.type === "tool_use" ? [b] : []));
      if (calls.length === 0) {
        final = message;
        break;
      }
      const answers: ToolResultBlock[] = [];
      for (const call of calls) {
        const out = await tools.execute(call, { workspace, signal: new AbortController().signal });
        const text = typeof out.content === "string" ? out.content : out.content.map((c) => (c.type === "text" ? c.text : "")).join("");
        results.push({ name: call.name, isError: out.isError, text });
        answers.push({ type: "tool_result", tool_use_id: call.id, content: out.content, ...(out.isError ? { is_error: true } : {}) });
      }
      messages.push({ role: "user", content: answers });
    }
  } finally {
    await workspace.processes.stopAll();
    await api.close();
  }

  if (process.env.SHOW_DEMO) console.log(JSON.stringify(results, null, 1));
  expect(api.checkFailures).toEqual([]);
  expect(results.map((r) => [r.name, r.isError])).toEqual([
    ["read", false],
    ["read", false],
    ["edit", false],
    ["bash", false],
    ["process", false],
    ["process", false],
    ["process", false],
  ]);
  expect(results[3]!.text).toContain("all 4 passed");
  expect(results[5]!.text).toMatch(/Listening on http:\/\/127\.0\.0\.1:\d+/);
  const fixed = readFileSync(join(project, "src/slugify.js"), "utf8");
  expect(fixed).toContain('.replace(/^-+|-+$/g, "")');
  expect(fixed).toContain('"é" becomes "e"');
  const summary = (final!.content[0] as TextBlock).text;
  expect(summary).toContain("scripted demo");
  const intro = messages[1]!.content as Array<{ type: string; text?: string }>;
  expect(intro.find((b) => b.type === "text")!.text).toMatch(/Scripted demo[\s\S]*\| Step \| Tool \| Why \|/);
});
