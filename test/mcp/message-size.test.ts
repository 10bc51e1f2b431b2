// A stdio server that sends one message over the size limit costs only itself: the call waiting on
// it fails at once with the size and the limit (not at MCP_TOOL_TIMEOUT), the server is stopped,
// and the next call starts it again.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { mcpConfig, textOf, toolResults } from "./support.ts";
import { callTool, closedAfterEach, hostile, startManager } from "./support-manager.ts";

const serve = fakeApiFixture();
const managers = closedAfterEach();
const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

test("a result line over the limit fails its call at once with the size and the limit; the next call restarts the server", async () => {
  const calls = join(tempProject(), "calls");
  // the call would wait 10 minutes if nothing ended it; the test's own timeout is far shorter
  const m = startManager({ h: hostile("--huge", "3", "--calls-file", calls) }, { maxMessageBytes: 1024 * 1024, toolTimeoutMs: 600_000 });
  managers.push(m);
  await m.ready();
  const huge = await callTool(m, "mcp__h__huge");
  expect(huge.isError).toBe(true);
  expect(huge.content).toBe(
    "the MCP server h stopped during the call: it sent a message longer than 1 MB, the limit for one message, so it was stopped. It will be restarted on the next call",
  );
  expect(m.servers()[0]!.status).toEqual({ state: "failed", reason: "it sent a message longer than 1 MB, the limit for one message, so it was stopped; it is restarted on the next call" });
  const echo = await callTool(m, "mcp__h__echo", { text: "again" });
  expect(echo.content).toBe('echo got {"text":"again"}');
  expect(m.servers()[0]!.status).toEqual({ state: "connected" });
  // two lists: one per start
  expect(lines(calls)).toEqual(["list", "call huge", "list", "call echo"]);
}, 30_000);

test("the real limit: a 65 MB line fails the call in print mode at once, and the run goes on", async () => {
  const api = await serve({
    turns: [
      { content: [{ type: "tool_use", id: "u1", name: "mcp__h__huge", input: {} }] },
      { content: [{ type: "tool_use", id: "u2", name: "mcp__h__echo", input: { text: "after" } }] },
      { content: [{ type: "text", text: "done" }] },
    ],
  });
  const r = await runCli(["-p", "go", "--mcp-config", mcpConfig({ h: hostile("--huge", "65") }), "--allowedTools", "mcp__h"], { cwd: tempProject(), env: isolatedEnv(api.url, { MCP_TOOL_TIMEOUT: "600000" }) });
  expect(r.code).toBe(0);
  expect(textOf(toolResults(api.requests[1]!.body)[0]!.content)).toBe(
    "the MCP server h stopped during the call: it sent a message longer than 64 MB, the limit for one message, so it was stopped. It will be restarted on the next call",
  );
  expect(textOf(toolResults(api.requests[2]!.body)[0]!.content)).toBe('echo got {"text":"after"}');
  expect(r.stderr).toContain("khaelor: MCP server h failed: it sent a message longer than 64 MB, the limit for one message, so it was stopped; it is restarted on the next call");
}, 60_000);
