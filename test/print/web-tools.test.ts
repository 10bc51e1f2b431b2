// The API's own web search and fetch, end to end: the real CLI and SDK against the fake Messages
// API, which streams their blocks as the API does. They are offered as the rules say, their blocks
// go back unchanged in the next request and after --continue, stream-json shows them as sent, and
// a result type this version does not know is kept and passed back like the rest.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture, type FakeApi } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();

type Obj = Record<string, unknown>;
const toolsOf = (api: FakeApi, n = 0) => ((api.requests[n]!.body as { tools?: Obj[] }).tools ?? []).filter((t) => typeof t.type === "string");
const messagesOf = (api: FakeApi, n: number) => (api.requests[n]!.body as { messages: Array<{ role: string; content: Obj[] | string }> }).messages;

const SEARCH_HITS = [
  { type: "web_search_result", title: "Bun.Terminal", url: "https://bun.sh/docs/api/terminal", encrypted_content: "RW5jcnlwdGVkIHBhZ2UgMQ==", page_age: "2 days ago" },
  { type: "web_search_result", title: "Bun.spawn", url: "https://bun.sh/docs/api/spawn", encrypted_content: "RW5jcnlwdGVkIHBhZ2UgMg==", page_age: null },
];
const FETCHED = {
  type: "web_fetch_result",
  url: "https://bun.sh/docs/api/terminal",
  retrieved_at: "2026-12-01T10:00:00Z",
  content: { type: "document", title: "Bun.Terminal", source: { type: "text", media_type: "text/plain", data: "Bun.Terminal creates a pseudo-terminal. ".repeat(20) }, citations: null },
};
// A newer server tool's result: this version knows neither the tool nor its block.
const ARCHIVE = { type: "web_archive_tool_result", tool_use_id: "$last_server_tool_use", caller: { type: "direct" }, content: { type: "web_archive_result", snapshots: 3 } };

const researchTurn = {
  content: [
    { type: "server_tool_use" as const, name: "web_search", input: { query: "bun pty terminal option" } },
    { type: "web_search_tool_result" as const, content: SEARCH_HITS },
    {
      type: "text" as const,
      text: "Bun has its own pseudo-terminals.",
      citations: [{ type: "web_search_result_location", cited_text: "Bun.Terminal creates a pseudo-terminal", url: "https://bun.sh/docs/api/terminal", title: "Bun.Terminal", encrypted_index: "ZW5jLWluZGV4" }],
    },
    { type: "server_tool_use" as const, name: "web_fetch", input: { url: "https://bun.sh/docs/api/terminal" } },
    { type: "web_fetch_tool_result" as const, content: FETCHED },
    { type: "server_tool_use" as const, name: "web_archive", input: { url: "https://bun.sh" } },
    { type: "raw" as const, block: ARCHIVE },
    { type: "tool_use" as const, name: "bash", input: { command: "echo checked" } },
  ],
};

describe("web search and fetch", () => {
  // The rules in detail (domains, asks, modes): test/model/web-tools.test.ts.
  test("offered when allowed, plan mode included; a deny rule, an ask rule or the settings take one out", async () => {
    const dir = tempProject();
    const run = async (args: string[], settings?: Obj) => {
      const api = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
      const env = isolatedEnv(api.url);
      if (settings) {
        mkdirSync(join(dir, ".khaelor"), { recursive: true });
        writeFileSync(join(dir, ".khaelor", "settings.local.json"), JSON.stringify(settings));
      }
      const r = await runCli(["-p", "hi", ...args], { cwd: dir, env });
      expect(r.code).toBe(0);
      return toolsOf(api);
    };
    const plain = await run([]);
    expect(plain).toEqual([
      { type: "web_search_20260318", name: "web_search" },
      { type: "web_fetch_20260318", name: "web_fetch", max_content_tokens: 25_000 },
    ]);
    expect((await run(["--permission-mode", "plan"])).map((t) => t.name)).toEqual(["web_search", "web_fetch"]);
    expect((await run(["--disallowedTools", "WebSearch"])).map((t) => t.name)).toEqual(["web_fetch"]);
    expect(await run([], { permissions: { ask: ["WebSearch"] }, webFetch: false })).toEqual([]);
  }, 120_000);

  test("their blocks go back unchanged in the next request and after --continue; stream-json shows them as sent", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [researchTurn, { content: [{ type: "text", text: "Done." }], expect: { lastHasToolResult: { isError: false } } }] });
    const env = isolatedEnv(api.url);
    const r = await runCli(["-p", "look up bun pty", "--output-format", "stream-json", "--verbose", "--permission-mode", "bypassPermissions"], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(api.checkFailures).toEqual([]);
    expect(api.requests.map((q) => q.outcome)).toEqual(["served", "served"]);

    // What the API sent in the first answer, exactly as it sent it (ids and callers included).
    const sent = api.requests[0]!;
    expect(sent.status).toBe(200);
    const assistantBack = messagesOf(api, 1)[1]!;
    expect(assistantBack.role).toBe("assistant");
    const blocks = assistantBack.content as Obj[];
    expect(blocks.map((b) => b.type)).toEqual([
      "server_tool_use", "web_search_tool_result", "text", "server_tool_use", "web_fetch_tool_result", "server_tool_use", "web_archive_tool_result", "tool_use",
    ]);
    const searchId = blocks[0]!.id as string;
    expect(searchId).toStartWith("srvtoolu_");
    expect(blocks[0]).toEqual({ type: "server_tool_use", id: searchId, name: "web_search", input: { query: "bun pty terminal option" }, caller: { type: "direct" } });
    expect(blocks[1]).toEqual({ type: "web_search_tool_result", tool_use_id: searchId, content: SEARCH_HITS, caller: { type: "direct" } });
    expect(blocks[2]).toEqual({ type: "text", text: "Bun has its own pseudo-terminals.", citations: researchTurn.content[2]!.citations });
    expect(blocks[4]).toEqual({ type: "web_fetch_tool_result", tool_use_id: blocks[3]!.id, content: FETCHED, caller: { type: "direct" } });
    expect(blocks[6]).toEqual({ ...ARCHIVE, tool_use_id: blocks[5]!.id });

    // stream-json: the assistant message carries the blocks as the API sent them; the cost counts the search.
    const lines = parseNdjson(r.stdout);
    const assistant = lines.find((l) => l.type === "assistant") as { message: { content: Obj[]; usage: Obj } };
    // (our own tool calls by Claude Code's names, as init lists them)
    expect(assistant.message.content).toEqual(blocks.map((b) => (b.type === "tool_use" ? { ...b, name: "Bash" } : b)));
    expect(assistant.message.usage.server_tool_use).toEqual({ web_search_requests: 1, web_fetch_requests: 1 });
    const result = lines.at(-1) as { total_cost_usd: number };
    expect(result.total_cost_usd).toBeGreaterThan(0.01);

    // A new run continues the session: the first request it sends holds the same blocks.
    const next = await serve({ turns: [{ content: [{ type: "text", text: "Still here." }] }] });
    const again = await runCli(["--continue", "-p", "and now?"], { cwd: dir, env: { ...env, ANTHROPIC_BASE_URL: next.url } });
    expect(again.code).toBe(0);
    expect(next.requests[0]!.outcome).toBe("served");
    expect(messagesOf(next, 0)[1]!.content).toEqual(blocks);
  }, 120_000);

  test("a pause_turn is resumed by sending the paused message back; the answer continues it", async () => {
    const dir = tempProject();
    const api = await serve({
      turns: [
        { content: [{ type: "server_tool_use", name: "web_search", input: { query: "long research" } }, { type: "web_search_tool_result", content: SEARCH_HITS }], stop_reason: "pause_turn" },
        { content: [{ type: "text", text: "Found it." }], expect: { messageCount: 2 } },
      ],
    });
    const r = await runCli(["-p", "research"], { cwd: dir, env: isolatedEnv(api.url) });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("Found it.");
    expect(api.checkFailures).toEqual([]);
    const paused = messagesOf(api, 1).at(-1)!;
    expect(paused.role).toBe("assistant");
    expect((paused.content as Obj[]).map((b) => b.type)).toEqual(["server_tool_use", "web_search_tool_result"]);
  }, 60_000);
});
