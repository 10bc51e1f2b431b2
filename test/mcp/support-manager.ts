// For tests that drive the real MCP manager in-process: servers from a config text (as --mcp-config
// gives them), and a call to one of its tools as the runtime makes it.
import { afterEach } from "bun:test";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseConfigText } from "../../src/mcp/config.ts";
import { createMcpManager, type McpManager, type McpManagerOptions } from "../../src/mcp/manager.ts";
import type { ToolResult } from "../../src/tools/types.ts";
import { createWorkspace } from "../../src/workspace/local.ts";
import { HOSTILE_SERVER, mcpConfig } from "./support.ts";

export function startManager(servers: Record<string, unknown>, extra: Partial<McpManagerOptions> = {}): McpManager {
  const parsed = parseConfigText(mcpConfig(servers), { scope: "cli", file: "--mcp-config" });
  if (parsed.problems.length) throw new Error(parsed.problems.join("\n"));
  const cwd = mkdtempSync(join(tmpdir(), "khaelor-mcp-"));
  const manager = createMcpManager({ servers: parsed.servers, cwd, env: { PATH: process.env.PATH ?? "/usr/bin:/bin" }, startupTimeoutMs: 20_000, ...extra });
  manager.start();
  return manager;
}

/** Runs the tool the model knows as `name`, as the tool runtime would. */
export async function callTool(manager: McpManager, name: string, input: Record<string, unknown> = {}): Promise<ToolResult> {
  const tool = manager.tools().find((t) => t.name === name);
  if (!tool?.run) throw new Error(`no tool ${name}; offered: ${manager.tools().map((t) => t.name).join(", ")}`);
  const root = mkdtempSync(join(tmpdir(), "khaelor-ws-"));
  const workspace = createWorkspace({ root, spillDir: join(root, ".spill") });
  return tool.run(input, { workspace, signal: new AbortController().signal, toolUseId: "t1" });
}

/** The hostile test server with these flags, as a server definition. */
export const hostile = (...args: string[]) => ({ command: process.execPath, args: [HOSTILE_SERVER, ...args] });

/** The managers a test file starts, closed after each test: push every manager onto the list returned. */
export function closedAfterEach(): McpManager[] {
  const managers: McpManager[] = [];
  afterEach(async () => {
    await Promise.all(managers.splice(0).map((m) => m.close()));
  });
  return managers;
}
