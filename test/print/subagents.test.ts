// Subagents in print mode, end to end: the real CLI, the real SDK over real HTTP, the fake API
// answering each child by its first message. --agents defines a type, the model's agent call runs
// it, and its answer is the call's result; --agent runs the main session as an agent.
import { expect, test } from "bun:test";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();

const AGENTS = JSON.stringify({ counter: { description: "Counts things", prompt: "You are COUNTER-PROMPT.", tools: ["Read", "Glob"], model: "haiku" } });

test("--agents: a synchronous agent call runs the child and its answer is the result; init lists the agent tool as Agent", async () => {
  const dir = tempProject();
  const server = await serve({
    turns: [
      { content: [{ type: "tool_use", id: "toolu_c1", name: "agent", input: { description: "count files", prompt: "CHILD-C: count the files", subagent_type: "counter" } }] },
      { content: [{ type: "text", text: "There are 3." }], expect: { lastHasToolResult: { isError: false, contentMatches: "^3 files" } } },
    ],
    routes: [{ firstMessage: "^CHILD-C:", turns: [{ content: [{ type: "text", text: "3 files" }], expect: { systemMatches: "COUNTER-PROMPT", toolsInclude: ["read", "glob"], toolsExclude: ["bash", "agent"] } }] }],
  });
  const r = await runCli(["-p", "how many files?", "--output-format", "stream-json", "--verbose", "--agents", AGENTS], { cwd: dir, env: isolatedEnv(server.url) });
  expect(server.checkFailures).toEqual([]);
  expect(r.stderr).toBe("");
  const lines = parseNdjson(r.stdout);
  expect(lines[0]!.tools).toContain("Agent");
  expect(lines.at(-1)).toMatchObject({ type: "result", subtype: "success", result: "There are 3." });
  expect(server.requests.filter((q) => q.route === 0).map((q) => (q.body as { model: string }).model)).toEqual(["claude-haiku-5-5"]);
  expect(r.code).toBe(0);
});

test("--agents with a broken definition is a usage error naming the field", async () => {
  const r = await runCli(["-p", "x", "--agents", JSON.stringify({ bad: { description: "d" } })], { cwd: tempProject(), env: isolatedEnv("http://127.0.0.1:9") });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain('agent bad: field "prompt"');
});

test("--agent NAME runs the main session as that agent: its prompt, tools and model", async () => {
  const server = await serve({ turns: [{ content: [{ type: "text", text: "counted" }], expect: { systemMatches: "^You are COUNTER-PROMPT", toolsInclude: ["read", "glob"], toolsExclude: ["bash", "edit"] } }] });
  const r = await runCli(["-p", "count", "--agents", AGENTS, "--agent", "counter"], { cwd: tempProject(), env: isolatedEnv(server.url) });
  expect(server.checkFailures).toEqual([]);
  expect(r.stdout).toBe("counted\n");
  expect((server.requests[0]!.body as { model: string }).model).toBe("claude-haiku-5-5");
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
});

test("--agent with an unknown name says which agents there are", async () => {
  const server = await serve({ turns: [] });
  const r = await runCli(["-p", "x", "--agent", "nobody"], { cwd: tempProject(), env: isolatedEnv(server.url) });
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("--agent nobody: no such agent; the agents are general-purpose, Explore, Plan");
});

test("print mode waits for a background agent and lets the model answer its result before the result line", async () => {
  const server = await serve({
    turns: [
      { content: [{ type: "tool_use", name: "agent", input: { description: "bg", prompt: "CHILD-BG: work", run_in_background: true } }] },
      { content: [{ type: "text", text: "waiting for it" }] },
      { content: [{ type: "text", text: "final: BG-DONE reported" }], expect: { lastTextMatches: "^Background agent .* finished:\\nBG-DONE" } },
    ],
    routes: [{ firstMessage: "^CHILD-BG:", turns: [{ content: [{ type: "text", text: "BG-DONE" }] }] }],
  });
  const r = await runCli(["-p", "go", "--output-format", "json"], { cwd: tempProject(), env: isolatedEnv(server.url) });
  expect(server.checkFailures).toEqual([]);
  expect(JSON.parse(r.stdout)).toMatchObject({ type: "result", subtype: "success", result: "final: BG-DONE reported" });
  expect(r.code).toBe(0);
});
