// A server's tool list is taken tool by tool: a tool too deep, too big or malformed is left out
// with a notice naming the server and the tool, and the rest of that server's tools, the other
// servers and the session carry on. What all servers' tools may add to a request is capped.
import { expect, test } from "bun:test";
import { MAX_SERVER_DEFINITION_BYTES, MAX_TOTAL_DEFINITION_BYTES } from "../../src/mcp/tool-limits.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { mcpConfig, testServer } from "./support.ts";
import { hostile } from "./support-manager.ts";

const serve = fakeApiFixture();

async function firstRequest(servers: Record<string, unknown>) {
  const api = await serve({ turns: [{ content: [{ type: "text", text: "still here" }] }] });
  const r = await runCli(["-p", "hi", "--mcp-config", mcpConfig(servers)], { cwd: tempProject(), env: isolatedEnv(api.url, { MCP_TIMEOUT: "30000" }) });
  const body = api.requests[0]?.body as { tools: Array<{ name: string }> } | undefined;
  return { ...r, names: body?.tools.map((t) => t.name) ?? [], bytes: body ? Buffer.byteLength(JSON.stringify(body)) : 0 };
}

test("a 100,000-deep inputSchema leaves out that tool, with a notice; the rest of the session carries on", async () => {
  const r = await firstRequest({ h: hostile("--deep", "100000"), good: testServer() });
  expect(r.stdout).toBe("still here\n");
  expect(r.code).toBe(0);
  expect(r.names).toContain("mcp__h__ok");
  expect(r.names).toContain("mcp__good__echo");
  expect(r.names).not.toContain("mcp__h__deep");
  expect(r.stderr).toBe("khaelor: MCP server h: the tool deep is left out: its definition is nested more than 64 levels deep\n");
}, 60_000);

test("a malformed tool is left out alone: the server's other tools are offered", async () => {
  const r = await firstRequest({ h: hostile("--malformed") });
  expect(r.code).toBe(0);
  expect(r.names.filter((n) => n.startsWith("mcp__"))).toEqual(["mcp__h__first", "mcp__h__last"]);
  const notices = r.stderr.split("\n").filter(Boolean);
  expect(notices).toEqual([
    "khaelor: MCP server h: the tool no_schema is left out: inputSchema: Invalid input: expected object, received undefined",
    "khaelor: MCP server h: the tool at position 3 is left out: name: Invalid input: expected string, received number",
    "khaelor: MCP server h: the tool at position 4 is left out: name: Invalid input: expected string, received undefined",
  ]);
}, 60_000);

test("5,000 tools are capped by definition bytes, with a notice naming the server; the other servers keep theirs", async () => {
  const r = await firstRequest({ good: testServer(), many: testServer("--tools", "5000", "--bare") });
  expect(r.code).toBe(0);
  expect(r.names).toContain("mcp__good__echo");
  const many = r.names.filter((n) => n.startsWith("mcp__many__"));
  expect(many.length).toBeGreaterThan(50);
  expect(many.length).toBeLessThan(5000);
  expect(r.bytes).toBeLessThan(MAX_SERVER_DEFINITION_BYTES + 100_000);
  expect(r.stderr).toMatch(
    new RegExp(`^khaelor: MCP server many: ${(5000 - many.length).toLocaleString("en-US")} of its 5,000 tools are left out: their definitions pass the ${MAX_SERVER_DEFINITION_BYTES / 1024} KB one server may add to each request\\n$`),
  );
  console.log(`first request with a 5,000-tool server: ${r.bytes} bytes, ${many.length} of its tools kept`);
}, 120_000);

test("servers together are capped too: the ones listed last lose tools, with a notice naming each", async () => {
  // 500 of these tools stay under one server's cap; six such servers pass the total
  const servers = Object.fromEntries(Array.from({ length: 6 }, (_, i) => [`s${i}`, testServer("--tools", "500", "--bare")]));
  const r = await firstRequest(servers);
  expect(r.code).toBe(0);
  expect(r.bytes).toBeLessThan(MAX_TOTAL_DEFINITION_BYTES + 100_000);
  const last = Object.keys(servers).at(-1)!;
  expect(r.names.some((n) => n.startsWith(`mcp__${last}__`))).toBe(false);
  expect(r.names.filter((n) => n.startsWith("mcp__s0__")).length).toBe(500);
  expect(r.stderr).toContain(`khaelor: MCP server ${last}: its 500 tools are left out: the MCP servers' definitions together pass the ${MAX_TOTAL_DEFINITION_BYTES / 1024} KB they may add to each request\n`);
}, 120_000);
