// Shared by the MCP tests: the paths of the real servers and small helpers around the CLI runs.
import { createServer } from "node:net";
import { join } from "node:path";

export const TEST_SERVER = join(import.meta.dir, "fixtures", "test-server.ts");
export const EVERYTHING = join(import.meta.dir, "..", "..", "node_modules", "@modelcontextprotocol", "server-everything", "dist", "index.js");

/** A stdio definition for our test server (run by this Bun). */
export function testServer(...args: string[]) {
  return { command: process.execPath, args: [TEST_SERVER, ...args] };
}

export function mcpConfig(servers: Record<string, unknown>): string {
  return JSON.stringify({ mcpServers: servers });
}

/** The last request's tool_result blocks, by tool_use_id. */
export function toolResults(body: unknown): Array<{ tool_use_id: string; content: unknown; is_error?: boolean }> {
  const messages = (body as { messages: Array<{ role: string; content: unknown }> }).messages;
  const last = messages.at(-1);
  if (!last || !Array.isArray(last.content)) return [];
  return (last.content as Array<{ type: string }>).filter((b) => b.type === "tool_result") as never;
}

export function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  return (content as Array<{ type: string; text?: string }>).map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("\n");
}

/** A port nobody listens on right now (for servers that take a port number). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const addr = s.address();
      const port = typeof addr === "object" && addr ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export async function until(what: string, cond: () => boolean | Promise<boolean>, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10); // polling a condition, not timing
  }
}

/** The server that misbehaves on purpose (see its header for the flags). */
export const HOSTILE_SERVER = join(import.meta.dir, "fixtures", "hostile-server.ts");
