// /context's figures: every category counted by the token counting endpoint (the fake API counts
// deterministically, as the real one does), MCP tools per server and deferred or not; without the
// endpoint, the last response's usage, saying so.
import { expect, test } from "bun:test";
import { contextUsage, type ContextUsageInput } from "../../src/agent/context-usage.ts";
import { createAnthropicClient } from "../../src/model/anthropic-client.ts";
import type { ToolSpec } from "../../src/model/types.ts";
import { fakeApiFixture } from "../support/fake-api.ts";

const serve = fakeApiFixture();
const schema = { type: "object" as const, properties: { path: { type: "string" } } };
const tool = (name: string, description: string, deferred = false): ToolSpec => ({ name, description, input_schema: schema, ...(deferred ? { defer_loading: true } : {}) });

function input(client: ContextUsageInput["client"]): ContextUsageInput {
  return {
    client,
    model: "claude-sonnet-5-5",
    system: [{ type: "text", text: "You are KHAELOR. ".repeat(40) }, { type: "text", text: "# Instructions from /p/AGENTS.md\nuse tabs ".repeat(10) + "\n\nskills: none ".repeat(5) }],
    instructions: { text: "# Instructions from /p/AGENTS.md\nuse tabs ".repeat(10), files: ["/p/AGENTS.md"] },
    skills: "skills: none ".repeat(5),
    tools: [tool("read", "Reads a file. ".repeat(30)), tool("mcp__fs__list", "Lists a folder. ".repeat(50)), tool("mcp__db__query", "Runs SQL. ".repeat(200), true)],
    serverTools: [],
    messages: [{ role: "user", content: "hello there ".repeat(100) }],
    window: 200_000,
    reserve: 20_000,
    lastUsage: 1234,
  };
}

test("each category is counted by the API alone, less the probe's own count; MCP per server, deferred said", async () => {
  const api = await serve({ turns: [] });
  const client = createAnthropicClient({ baseURL: api.url, apiKey: "sk-ant-test" });
  const u = await contextUsage(input(client));
  expect(u.source).toBe("count_tokens");
  const by = Object.fromEntries(u.categories.map((c) => [c.label, c]));
  // The fake counts 4 bytes a token, so longer parts count more, in proportion.
  expect(by["MCP tools: db"]).toMatchObject({ kind: "mcp", count: 1, deferred: true });
  expect(by["MCP tools: fs"]).toMatchObject({ kind: "mcp", count: 1, deferred: false });
  expect(by["MCP tools: db"]!.tokens).toBeGreaterThan(by["MCP tools: fs"]!.tokens);
  expect(by["Instruction files"]).toMatchObject({ files: ["/p/AGENTS.md"] });
  expect(by["Messages"]!.tokens).toBeGreaterThan(200);
  const probe = await client.countTokens!({ model: "claude-sonnet-5-5", system: [], tools: [], messages: [{ role: "user", content: "." }] });
  const fs = await client.countTokens!({ model: "claude-sonnet-5-5", system: [], tools: [input(client).tools[1]!], messages: [{ role: "user", content: "." }] });
  expect(by["MCP tools: fs"]!.tokens).toBe(fs - probe);
  // The whole request, counted as sent.
  expect(u.total).toBeGreaterThan(u.categories.reduce((n, c) => n + c.tokens, 0) - 50);
  const counts = api.requests.filter((r) => r.path === "/v1/messages/count_tokens");
  expect(counts.length).toBeGreaterThanOrEqual(8);
  expect(api.requests.some((r) => r.path === "/v1/messages")).toBe(false);
});

test("no counting endpoint: the last response's usage, no categories, and why", async () => {
  const u = await contextUsage(input({ stream: () => (async function* () {})() }));
  expect(u).toMatchObject({ source: "last_usage", total: 1234, categories: [] });
  expect(u.fallbackReason).toContain("no token counting endpoint");
});
