// MCP in the app, in a real pseudo-terminal: the trust question the first time a project's
// .mcp.json defines a server (nothing runs before the answer, and the answer is remembered), the
// permission panel for an MCP call (server, tool, input, the tool's rule), and /mcp.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { groupAlive } from "../../src/workspace/process-group.ts";
import { isolatedEnv, tempProject } from "../support/cli.ts";
import { answerPrompt, idle, KEY, ptyFixtures, submit } from "../e2e/pty/harness.ts";
import { HOSTILE_SERVER, testServer, until } from "./support.ts";

const fixtures = ptyFixtures();

test("trust once, then the call asks with server, tool and input; /mcp shows the server", async () => {
  const dir = tempProject();
  const marker = join(dir, "server-pid");
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { repo: testServer("--pid-file", marker) } }));
  const api = await fixtures.api({
    turns: [
      { content: [{ type: "tool_use", name: "mcp__repo__echo", input: { text: "hello from the model" } }] },
      { content: [{ type: "text", text: "ECHO-DONE" }] },
    ],
  });
  const env = isolatedEnv(api.url);
  const s = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
  await s.waitForText("and run it? (remembered for this project)");
  expect(s.screen()).toContain("This project's files define a command KHAELOR would run on your machine:");
  expect(s.screen()).toContain(`MCP server repo (${join(dir, ".mcp.json")}):`);
  expect(existsSync(marker)).toBe(false);
  s.send(KEY.enter); // "Trust and run"
  // (files, not the screen: polled, as the pty's waitFor looks again only when the screen changes)
  await until("the trusted server to start", () => existsSync(marker) && readFileSync(marker, "utf8").endsWith("\n"), 40_000);

  await submit(s, "echo something");
  await s.waitForText("Permission needed");
  const panel = s.screen();
  expect(panel).toContain("MCP repo · echo");
  expect(panel).toContain('"text": "hello from the model"');
  expect(panel).toContain("mcp__repo__echo");
  await answerPrompt(s, "y");
  await s.waitForText("ECHO-DONE");
  const result = JSON.stringify(api.requests[1]!.body);
  expect(result).toContain("echo: hello from the model");

  await s.waitFor(idle, "the composer");
  s.type("/mcp");
  s.send(KEY.enter);
  await s.waitForText("Reconnect a server?");
  expect(s.screen()).toMatch(/repo \(project, stdio\) — connected · \d+ tools/);
  expect(s.screen()).toContain("tools: echo, image, fail, crash, slow, big, resource");
  s.send(KEY.esc);
  await s.waitFor(idle, "the composer");
  const pid = Number(readFileSync(marker, "utf8"));
  s.send(KEY.ctrlD);
  expect(await s.exited).toBe(0);
  expect(groupAlive(pid)).toBe(false);

  // remembered: the next session starts the server without asking
  const store = join(env.KHAELOR_HOME!, "trusted-projects.json");
  expect(readFileSync(store, "utf8")).toContain('"trusted": [');
  const again = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
  await again.waitFor(idle, "the composer");
  await until("the server to start again", () => readFileSync(marker, "utf8").endsWith("\n") && Number(readFileSync(marker, "utf8")) !== pid, 40_000);
  expect(again.all()).not.toContain("remembered for this project");
  again.send(KEY.ctrlD);
  expect(await again.exited).toBe(0);
}, 90_000);

test("Esc cancels an MCP call at the server; a server that fails gets a notice", async () => {
  const dir = tempProject();
  const calls = join(dir, "calls");
  const api = await fixtures.api({
    turns: [
      { content: [{ type: "tool_use", name: "mcp__t__slow", input: { ms: 60_000 } }] },
      { content: [{ type: "text", text: "AFTER" }] },
    ],
  });
  const config = JSON.stringify({ mcpServers: { t: testServer("--calls-file", calls), broken: { command: "khaelor-no-such-server-binary" } } });
  const s = fixtures.pty(["--mcp-config", config, "--allowedTools", "mcp__t"], { cwd: dir, env: isolatedEnv(api.url), cols: 120, rows: 40 });
  await s.waitForText("MCP server broken failed: command not found: khaelor-no-such-server-binary (is it installed and on PATH?)");
  await submit(s, "wait a minute");
  await until("the slow call to start", () => existsSync(calls) && readFileSync(calls, "utf8").includes("slow start"), 40_000);
  s.send(KEY.esc);
  await until("the server to hear the cancellation", () => readFileSync(calls, "utf8").includes("slow cancelled"));
  await s.waitFor(idle, "the composer");
  s.send(KEY.ctrlD);
  expect(await s.exited).toBe(0);
}, 90_000);

test("a tool left out of a server's list is a notice in the app; the server's other tools stay", async () => {
  const dir = tempProject();
  const api = await fixtures.api({ turns: [{ content: [{ type: "text", text: "OK" }] }] });
  const config = JSON.stringify({ mcpServers: { h: { command: process.execPath, args: [HOSTILE_SERVER, "--malformed"] } } });
  const s = fixtures.pty(["--mcp-config", config], { cwd: dir, env: isolatedEnv(api.url), cols: 160, rows: 40 });
  await s.waitForText("MCP server h: the tool no_schema is left out: inputSchema: Invalid input: expected object, received undefined");
  await s.waitFor(idle, "the composer");
  s.type("/mcp");
  s.send(KEY.enter);
  await s.waitForText("Reconnect a server?");
  expect(s.screen()).toContain("tools: first, last");
  s.send(KEY.esc);
  await s.waitFor(idle, "the composer");
  s.send(KEY.ctrlD);
  expect(await s.exited).toBe(0);
}, 90_000);
