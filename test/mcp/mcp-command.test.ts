// `khaelor mcp add | list | get | remove`, run as the real CLI against real servers.
import { expect, test } from "bun:test";
import { readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { EVERYTHING, TEST_SERVER } from "./support.ts";

test("add in each scope, list with status, get with tools, remove", async () => {
  const dir = tempProject();
  spawnSync("git", ["init", "-q"], { cwd: dir });
  const env = isolatedEnv(null);
  const cli = (...args: string[]) => runCli(["mcp", ...args], { cwd: dir, env });

  const a = await cli("add", "t", "-e", "TOKEN=${MY_TOKEN:-none}", "--", process.execPath, TEST_SERVER, "--tools", "2");
  expect(a.stderr).toBe("");
  expect(a.code).toBe(0);
  expect(a.stdout).toContain(`Added stdio MCP server t to local scope (${join(dir, ".khaelor", "settings.local.json")})`);
  const local = JSON.parse(readFileSync(join(dir, ".khaelor", "settings.local.json"), "utf8"));
  expect(local.mcpServers.t).toEqual({ command: process.execPath, args: [TEST_SERVER, "--tools", "2"], env: { TOKEN: "${MY_TOKEN:-none}" } });
  // local scope stays out of git
  expect(readFileSync(join(dir, ".git", "info", "exclude"), "utf8")).toContain("settings.local.json");

  const p = await cli("add", "-s", "project", "everything", process.execPath, EVERYTHING, "stdio");
  expect(p.code).toBe(0);
  expect(JSON.parse(readFileSync(join(dir, ".mcp.json"), "utf8")).mcpServers.everything.args).toEqual([EVERYTHING, "stdio"]);
  const u = await cli("add", "-s", "user", "-t", "http", "-H", "Authorization: Bearer ${TOKEN:-anonymous}", "remote", "http://127.0.0.1:9/mcp");
  expect(u.code).toBe(0);
  expect(JSON.parse(readFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), "utf8")).mcpServers.remote).toEqual({
    type: "http",
    url: "http://127.0.0.1:9/mcp",
    headers: { Authorization: "Bearer ${TOKEN:-anonymous}" },
  });

  const dup = await cli("add", "t", "echo");
  expect(dup.code).toBe(2);
  expect(dup.stderr).toContain("an MCP server named t is already in local scope");

  // A definition the user added runs without the trust question; one written into the project
  // by someone else does not.
  writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { ...JSON.parse(readFileSync(join(dir, ".mcp.json"), "utf8")).mcpServers, sneaky: { command: "touch", args: [join(dir, "pwned")] } } }));
  const l = await cli("list");
  expect(l.code).toBe(0);
  const lines = l.stdout.trim().split("\n");
  expect(lines).toContain(`t (local): ${process.execPath} ${TEST_SERVER} --tools 2 (env: TOKEN='\${MY_TOKEN:-none}' ⚠ sends your MY_TOKEN to the server) - connected (9 tools)`);
  expect(lines.find((x) => x.startsWith("everything (project)"))).toMatch(/- connected \(\d+ tools\)$/);
  expect(lines.find((x) => x.startsWith("remote (user)"))).toContain("- failed: cannot connect to http://127.0.0.1:9/mcp (connection refused)");
  expect(lines.find((x) => x.startsWith("sneaky (project)"))).toContain("- needs approval: defined in this project's files, which are not trusted");
  expect(spawnSync("test", ["-e", join(dir, "pwned")]).status).not.toBe(0);

  const g = await cli("get", "t");
  expect(g.code).toBe(0);
  expect(g.stdout).toContain(`  Scope: local (${join(dir, ".khaelor", "settings.local.json")})`);
  expect(g.stdout).toContain("  Environment: TOKEN");
  expect(g.stdout).not.toContain("MY_TOKEN");
  expect(g.stdout).toContain("    mcp__t__echo (read-only) — Echo the text back");
  expect(g.stdout).toContain("    mcp__t__tool_1 — Tool number 1");

  const r = await cli("remove", "t");
  expect(r.stdout).toBe(`Removed MCP server t from local scope (${join(dir, ".khaelor", "settings.local.json")})\n`);
  expect(JSON.parse(readFileSync(join(dir, ".khaelor", "settings.local.json"), "utf8")).mcpServers).toEqual({});
  const missing = await cli("remove", "t");
  expect(missing.code).toBe(2);
  expect(missing.stderr).toBe("khaelor mcp: no MCP server named t\n");
}, 90_000);

test("bad usage is named, and a file that is not JSON is never overwritten", async () => {
  const dir = tempProject();
  const env = isolatedEnv(null);
  const cli = (...args: string[]) => runCli(["mcp", ...args], { cwd: dir, env });
  expect((await cli("add", "-t", "ws", "x", "y")).stderr).toBe(`khaelor mcp: --transport must be stdio, http or sse, got "ws"\n`);
  expect((await cli("add", "-t", "http", "x", "not a url")).stderr).toBe(`khaelor mcp: "not a url" is not a URL\n`);
  expect((await cli("add", "-e", "NOEQUALS", "x", "cmd")).stderr).toBe(`khaelor mcp: -e expects KEY=VALUE, got "NOEQUALS"\n`);
  expect((await cli("frobnicate")).code).toBe(2);
  mkdirSync(join(dir, ".khaelor"));
  writeFileSync(join(dir, ".khaelor", "settings.local.json"), "{ broken");
  const r = await cli("add", "x", "cmd");
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("is not valid JSON");
  expect(readFileSync(join(dir, ".khaelor", "settings.local.json"), "utf8")).toBe("{ broken");
}, 60_000);
