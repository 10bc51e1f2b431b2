// The startup deadline (MCP_TIMEOUT) in-process, with the timeout as a parameter: a server that
// never answers is failed once it passes, with what it printed on stdout if that was not MCP;
// the first request waits for the servers only until then, and gets those that did connect.
// The servers that hang are `sh` (it prints at once, where a Bun server would first load the
// SDK), the one that connects is in memory: neither depends on how fast a Bun process starts.
import { expect, test } from "bun:test";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { z } from "zod";
import type { ServerConfig } from "../../src/mcp/config.ts";
import { parseConfigText } from "../../src/mcp/config.ts";
import { createMcpManager } from "../../src/mcp/manager.ts";
import { mcpConfig } from "./support.ts";
import { tempProject } from "../support/cli.ts";

/** An in-process server with one tool, as the Agent SDK's sdkMcpServers are. */
function inMemoryServer(name: string): ServerConfig {
  return {
    name,
    scope: "sdk",
    file: "this test",
    raw: { type: "sdk", name },
    disabled: false,
    needsTrust: false,
    spec: {
      type: "sdk",
      transport: () => {
        const [client, server] = InMemoryTransport.createLinkedPair();
        const mcp = new McpServer({ name, version: "1.0.0" });
        mcp.registerTool("echo", { description: "Echo the text back", inputSchema: { text: z.string() } }, async ({ text }) => ({ content: [{ type: "text", text }] }));
        void mcp.connect(server);
        return client;
      },
    },
  };
}

function stdioServers(servers: Record<string, unknown>): ServerConfig[] {
  const parsed = parseConfigText(mcpConfig(servers), { scope: "cli", file: "--mcp-config" });
  if (parsed.problems.length) throw new Error(parsed.problems.join("\n"));
  return parsed.servers;
}

const TIMEOUT = 1000;

test("a server that prints junk and never answers fails at the deadline, naming what it printed; one that connects is offered", async () => {
  const servers = [
    inMemoryServer("ok"),
    ...stdioServers({
      junk: { command: "sh", args: ["-c", "printf 'Starting my server v1.0...\\nListening on stdio\\n'; exec sleep 600"] },
      hang: { command: "sh", args: ["-c", "exec sleep 600"] },
    }),
  ];
  const manager = createMcpManager({ servers, cwd: tempProject(), env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, startupTimeoutMs: TIMEOUT });
  try {
    const started = Date.now();
    manager.start();
    await manager.ready();
    // ready() waits for every server, the hanging ones only until the deadline (and a little slack).
    expect(Date.now() - started).toBeGreaterThanOrEqual(TIMEOUT);
    const status = Object.fromEntries(manager.servers().map((s) => [s.name, s.status]));
    expect(status.ok).toEqual({ state: "connected" });
    expect(status.junk).toEqual({
      state: "failed",
      reason: `did not answer within ${TIMEOUT} ms (MCP_TIMEOUT); it printed 2 lines on stdout that are not MCP messages (a stdio server must print only JSON-RPC there), the first: "Starting my server v1.0..."`,
    });
    expect(status.hang).toEqual({ state: "failed", reason: `did not answer within ${TIMEOUT} ms (MCP_TIMEOUT)` });
    expect(manager.tools().map((t) => t.name)).toEqual(["mcp__ok__echo"]);
  } finally {
    await manager.close();
  }
});
