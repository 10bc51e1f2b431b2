// Servers' lives: a crash costs one error result and the next call starts the server again; call
// timeouts and cancellation reach the server; none is left running after the run ends, after
// SIGTERM or SIGHUP, or after a kill -9 once the session is resumed; a server that never answers
// delays the first request only until MCP_TIMEOUT.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { groupAlive } from "../../src/workspace/process-group.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { cliCommand, isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { mcpConfig, testServer, textOf, toolResults, until } from "./support.ts";

const serve = fakeApiFixture();
const pidOf = (file: string) => Number(readFileSync(file, "utf8").trim());
const lines = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean) : []);

test("a server that dies mid-call answers that call with an error; the next call restarts it", async () => {
  const dir = tempProject();
  const pidFile = join(dir, "pid");
  const api = await serve({
    turns: [
      { content: [{ type: "tool_use", id: "c1", name: "mcp__t__crash", input: {} }] },
      { content: [{ type: "tool_use", id: "c2", name: "mcp__t__echo", input: { text: "back" } }] },
      { content: [{ type: "text", text: "done" }] },
    ],
  });
  const r = await runCli(["-p", "go", "--mcp-config", mcpConfig({ t: testServer("--pid-file", pidFile) }), "--allowedTools", "mcp__t"], { cwd: dir, env: isolatedEnv(api.url) });
  expect(r.code).toBe(0);
  const crash = toolResults(api.requests[1]!.body)[0]!;
  expect(crash.is_error).toBe(true);
  expect(textOf(crash.content)).toBe("the MCP server t stopped during the call: the server exited with code 3 (stderr: fatal: about to crash). It will be restarted on the next call");
  const echo = toolResults(api.requests[2]!.body)[0]!;
  expect(echo.content).toBe("echo: back");
  expect(r.stderr).toContain("khaelor: MCP server t failed: the server exited with code 3");
  expect(groupAlive(pidOf(pidFile))).toBe(false);
}, 60_000);

test("MCP_TOOL_TIMEOUT ends a slow call and tells the server to stop it", async () => {
  const dir = tempProject();
  const calls = join(dir, "calls");
  const api = await serve({ turns: [{ content: [{ type: "tool_use", id: "s1", name: "mcp__t__slow", input: { ms: 60_000 } }] }, { content: [{ type: "text", text: "done" }] }] });
  const r = await runCli(["-p", "go", "--mcp-config", mcpConfig({ t: testServer("--calls-file", calls) }), "--allowedTools", "mcp__t"], { cwd: dir, env: isolatedEnv(api.url, { MCP_TOOL_TIMEOUT: "700" }) });
  expect(r.code).toBe(0);
  expect(textOf(toolResults(api.requests[1]!.body)[0]!.content)).toBe("the MCP server t did not answer within 700 ms (MCP_TOOL_TIMEOUT); the call was cancelled");
  expect(lines(calls)).toEqual(["slow start", "slow cancelled"]);
}, 60_000);

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) {
  test(`${signal} mid-call cancels the call at the server and leaves no server running`, async () => {
    const dir = tempProject();
    const calls = join(dir, "calls");
    const pidFile = join(dir, "pid");
    const api = await serve({ turns: [{ content: [{ type: "tool_use", id: "s1", name: "mcp__t__slow", input: { ms: 60_000 } }] }, { content: [{ type: "text", text: "done" }] }] });
    const run = Bun.spawn(cliCommand(["-p", "go", "--mcp-config", mcpConfig({ t: testServer("--calls-file", calls, "--pid-file", pidFile, "--linger") }), "--allowedTools", "mcp__t"]), {
      cwd: dir,
      env: isolatedEnv(api.url),
      stdout: "ignore",
      stderr: "ignore",
    });
    await until("the slow call to start", () => lines(calls).includes("slow start"));
    run.kill(signal);
    await run.exited;
    if (signal === "SIGINT") expect(lines(calls)).toEqual(["slow start", "slow cancelled"]);
    // --linger: it ignores the end of its stdin, so only our signal to its group stops it
    expect(groupAlive(pidOf(pidFile))).toBe(false);
  }, 60_000);
}

test("after a kill -9, --resume stops the server the killed run left behind", async () => {
  const dir = tempProject();
  const pidFile = join(dir, "pid");
  const config = mcpConfig({ t: testServer("--pid-file", pidFile, "--linger") });
  const api = await serve({
    turns: [
      { content: [{ type: "tool_use", id: "e1", name: "mcp__t__echo", input: { text: "x" } }] },
      // the answer after the call never comes: the run is killed while it waits
      { content: [{ type: "text", text: "never" }], pacing: { delayMs: 60_000 } },
    ],
  });
  const env = isolatedEnv(api.url);
  const run = Bun.spawn(cliCommand(["-p", "go", "--mcp-config", config, "--allowedTools", "mcp__t"]), { cwd: dir, env, stdout: "ignore", stderr: "ignore" });
  await until("the second request", () => api.requests.length >= 2 && existsSync(pidFile));
  const pid = pidOf(pidFile);
  run.kill("SIGKILL");
  await run.exited;
  expect(groupAlive(pid)).toBe(true); // orphaned: it ignores its closed stdin

  const next = await serve({ turns: [{ content: [{ type: "text", text: "Resumed." }] }] });
  // resumed without the server: what the killed run left is stopped all the same
  const resumed = await runCli(["--continue", "-p", "still there?"], { cwd: dir, env: { ...env, ANTHROPIC_BASE_URL: next.url } });
  expect(resumed.code).toBe(0);
  // The command as the server was defined, cut to 80 characters where it is longer (a Bun at a long path).
  const said = /stopped process MCP server t \((.+), pid (\d+)\): the previous run was killed and left it running/.exec(resumed.stderr);
  expect(said?.[2]).toBe(String(pid));
  const command = [process.execPath, ...testServer("--pid-file", pidFile, "--linger").args].join(" ");
  expect(said![1]).toBe(command.length > 80 ? `${command.slice(0, 79)}…` : command);
  expect(groupAlive(pid)).toBe(false);
}, 60_000);

// The deadline itself, with a server that connects beside two that never answer, is in-process
// in startup-timeout.test.ts; here the session's first request, end to end. The server that never
// answers is `sh`, so a short MCP_TIMEOUT does not depend on how fast a Bun process starts.
test("a server that never answers holds the first request back only until MCP_TIMEOUT", async () => {
  const dir = tempProject();
  const api = await serve({ turns: [{ content: [{ type: "text", text: "answered" }] }] });
  const r = await runCli(["-p", "go", "--mcp-config", mcpConfig({ hang: { command: "sh", args: ["-c", "exec sleep 600"] } }), "--output-format", "stream-json", "--verbose"], {
    cwd: dir,
    env: isolatedEnv(api.url, { MCP_TIMEOUT: "1000" }),
  });
  expect(r.code).toBe(0);
  const out = parseNdjson(r.stdout);
  expect(out.at(-1)!.result).toBe("answered");
  expect(out[0]!.mcp_servers).toMatchObject([{ name: "hang", status: "failed", error: "did not answer within 1000 ms (MCP_TIMEOUT)" }]);
  expect(api.requests.filter((q) => q.path.startsWith("/v1/messages"))).toHaveLength(1);
}, 60_000);
