// Bad definitions and misbehaving servers: each becomes a clear status (stderr in print mode,
// init's mcp_servers in stream-json), and the session still starts and answers.
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseConfigText } from "../../src/mcp/config.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { freePort, mcpConfig, testServer } from "./support.ts";

const serve = fakeApiFixture();

test("a malformed entry names the file, the server and the field; the others load", () => {
  const f = { scope: "project" as const, file: "/p/.mcp.json" };
  const r = parseConfigText(
    JSON.stringify({
      mcpServers: {
        ok: { command: "srv", args: ["${HOME}"] },
        ws: { type: "websocket", url: "ws://x" },
        nocmd: { args: ["x"] },
        badargs: { command: "srv", args: "--flag" },
        nourl: { type: "http" },
        hdr: { type: "sse", url: "http://x", headers: { A: 1 } },
      },
    }),
    f,
  );
  expect(r.problems).toEqual([
    `/p/.mcp.json: mcpServers.ws.type: unknown transport "websocket"; use "stdio", "http" or "sse"`,
    "/p/.mcp.json: mcpServers.nocmd.command: missing: a stdio server needs the command that starts it",
    "/p/.mcp.json: mcpServers.badargs.args: expected an array of strings",
    "/p/.mcp.json: mcpServers.nourl.url: missing: an http server needs its url",
    "/p/.mcp.json: mcpServers.hdr.headers: expected an object of string values",
  ]);
  expect(r.servers.map((s) => [s.name, s.spec ? "ok" : "invalid"])).toEqual([
    ["ok", "ok"],
    ["ws", "invalid"],
    ["nocmd", "invalid"],
    ["badargs", "invalid"],
    ["nourl", "invalid"],
    ["hdr", "invalid"],
  ]);
  expect(parseConfigText("{ nope", f).problems[0]).toMatch(/^\/p\/\.mcp\.json: not valid JSON \(.+\); its MCP servers are not loaded$/);
  expect(parseConfigText(JSON.stringify({ mcpServers: [] }), f).problems).toEqual(["/p/.mcp.json: mcpServers: expected an object of server name → definition"]);
});

// A server that prints junk on stdout and never answers fails only at the startup deadline: that
// one is in-process, with a short timeout, in startup-timeout.test.ts.
test("unknown transport, missing command, HTTP 401, an unset variable: each a status, and the session answers", async () => {
  const dir = tempProject();
  const port = await freePort();
  const http401 = Bun.spawn([process.execPath, testServer().args[0]!, "--http", String(port), "--401"], { stdout: "pipe", stderr: "ignore" });
  try {
    const reader = http401.stdout.getReader();
    await reader.read(); // "listening <port>"
    reader.releaseLock();
    writeFileSync(join(dir, ".mcp.json"), "{ \"mcpServers\": { \"broken\": ");
    const config = mcpConfig({
      good: testServer(),
      ws: { type: "websocket", url: "ws://127.0.0.1:1" },
      nocmd: { args: ["x"] },
      missing: { command: "khaelor-no-such-server-binary" },
      auth: { type: "http", url: `http://127.0.0.1:${port}/mcp` },
      unset: { command: "${KHAELOR_TEST_UNSET_VAR}", args: ["${OTHER:-fine}"] },
    });
    const api = await serve({ turns: [{ content: [{ type: "text", text: "still here" }], expect: { toolsInclude: ["mcp__good__echo"] } }] });
    const r = await runCli(["-p", "hi", "--trust-project", "--mcp-config", config, "--output-format", "stream-json", "--verbose"], { cwd: dir, env: isolatedEnv(api.url) });
    expect(r.code).toBe(0);
    const lines = parseNdjson(r.stdout);
    expect(lines.at(-1)!.result).toBe("still here");
    const status = Object.fromEntries((lines[0]!.mcp_servers as Array<{ name: string; status: string; error?: string }>).map((s) => [s.name, `${s.status}: ${s.error ?? ""}`]));
    expect(status.good).toBe("connected: ");
    expect(status.ws).toBe(`failed: type: unknown transport "websocket"; use "stdio", "http" or "sse" (in --mcp-config)`);
    expect(status.nocmd).toBe("failed: command: missing: a stdio server needs the command that starts it (in --mcp-config)");
    expect(status.missing).toBe("failed: command not found: khaelor-no-such-server-binary (is it installed and on PATH?)");
    expect(status.auth).toStartWith(`failed: http://127.0.0.1:${port}/mcp answered 401 Unauthorized: it needs authentication, and OAuth is not supported yet`);
    expect(status.unset).toBe("failed: ${KHAELOR_TEST_UNSET_VAR} is not set in the environment (used in --mcp-config)");
    // the broken project file is named on stderr, and each failure gets its line
    expect(r.stderr).toContain(`khaelor: MCP: ${join(dir, ".mcp.json")}: not valid JSON`);
    expect(r.stderr).toContain("khaelor: MCP server missing failed: command not found: khaelor-no-such-server-binary");
    expect(r.stderr.match(/^khaelor: MCP server \w+ failed/gm)?.length).toBe(5);
  } finally {
    http401.kill();
    await http401.exited;
  }
}, 60_000);
