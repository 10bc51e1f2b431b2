// What MCP servers add to a print-mode run: the time from starting KHAELOR to its first request
// with 0, 1 and 5 stdio servers of 20 tools (servers start in parallel, and the first request
// waits for them), and the first request's bytes, with tool search past the budget.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeApi } from "../src/fakeapi/index.ts";

const ROOT = join(import.meta.dir, "..");
const SERVER = join(ROOT, "test", "mcp", "fixtures", "test-server.ts");

async function firstRequest(servers: number): Promise<{ ms: number; bytes: number; deferred: number }> {
  const api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "ok" }] }] } });
  const home = mkdtempSync(join(tmpdir(), "khaelor-bench-mcp-"));
  const config = JSON.stringify({ mcpServers: Object.fromEntries(Array.from({ length: servers }, (_, i) => [`s${i}`, { command: process.execPath, args: [SERVER, "--tools", "20", "--bare"] }])) });
  const t0 = performance.now();
  const proc = Bun.spawn([process.execPath, join(ROOT, "src", "main.ts"), "-p", "hi", ...(servers ? ["--mcp-config", config] : [])], {
    cwd: home,
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: home, KHAELOR_HOME: join(home, "data"), XDG_CONFIG_HOME: join(home, "config"), ANTHROPIC_API_KEY: "sk-ant-bench", ANTHROPIC_BASE_URL: api.url, MCP_TIMEOUT: "30000" },
    stdout: "ignore",
    stderr: "ignore",
  });
  await proc.exited;
  const req = api.requests[0]!;
  const tools = (req.body as { tools: Array<{ defer_loading?: boolean }> }).tools;
  await api.close();
  return { ms: req.at - t0, bytes: Buffer.byteLength(JSON.stringify(req.body)), deferred: tools.filter((t) => t.defer_loading).length };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export async function run(_opts: { json: boolean }) {
  const rounds = 3;
  const out = [];
  const base: number[] = [];
  for (const servers of [0, 1, 5]) {
    const runs = [];
    for (let i = 0; i < rounds; i++) runs.push(await firstRequest(servers));
    const ms = median(runs.map((r) => r.ms));
    if (servers === 0) base.push(ms);
    out.push({
      name: `print mode, ${servers} MCP server${servers === 1 ? "" : "s"} of 20 tools: start to first request`,
      ms: Math.round(ms),
      added_ms: Math.round(ms - base[0]!),
      request_bytes: runs[0]!.bytes,
      deferred_tools: runs[0]!.deferred,
    });
  }
  return out;
}
