// A child's tools beyond the built-ins: the parent's MCP tools (a real MCP server on the official
// SDK) and the API's web tools, within the agent definition's tools/disallowedTools (which may
// name mcp__server__tool or mcp__server) and the parent's permission rules.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { mcpConfig, testServer } from "../mcp/support.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

const use = (id: string, type: string, prompt: string) => ({ type: "tool_use" as const, id, name: "agent", input: { description: type, prompt, subagent_type: type } });
const call = (id: string, type: string, prompt: string) => ({ content: [use(id, type, prompt)] });

test("a child is offered the parent's MCP and web tools within its definition's lists, and its MCP call runs in the server", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const calls = join(mkdtempSync(join(tmpdir(), "khaelor-mcp-")), "calls");
    const api = await serve({
      turns: [
        { content: [use("toolu_a", "general-purpose", "CHILD-ALL: echo hi"), use("toolu_b", "mcp-only", "CHILD-MCP: look"), use("toolu_c", "no-echo", "CHILD-NOECHO: look")] },
        { content: [{ type: "text", text: "done" }] },
      ],
      routes: [
        {
          firstMessage: "^CHILD-ALL:",
          turns: [
            { content: [{ type: "tool_use", name: "mcp__t__echo", input: { text: "from the child" } }], expect: { toolsInclude: ["read", "bash", "mcp__t__echo", "mcp__t__fail", "web_search", "web_fetch"], toolsExclude: ["agent"] } },
            { content: [{ type: "text", text: "echoed" }], expect: { lastHasToolResult: { isError: false, contentMatches: "echo: from the child" } } },
          ],
        },
        { firstMessage: "^CHILD-MCP:", turns: [{ content: [{ type: "text", text: "ok" }], expect: { toolsInclude: ["read", "mcp__t__echo", "mcp__t__fail"], toolsExclude: ["bash", "web_search", "web_fetch"] } }] },
        { firstMessage: "^CHILD-NOECHO:", turns: [{ content: [{ type: "text", text: "ok" }], expect: { toolsInclude: ["read", "mcp__t__fail", "web_fetch"], toolsExclude: ["mcp__t__echo", "web_search"] } }] },
      ],
    });
    const session = await openOn(api, dir, {
      mcp: { configs: [mcpConfig({ t: testServer("--calls-file", calls) })] },
      allowedTools: ["mcp__t"],
      agents: [
        { name: "mcp-only", description: "reads and the t server", prompt: "You look.", tools: ["Read", "mcp__t"], disallowedTools: [], source: "session" },
        { name: "no-echo", description: "all but echo", prompt: "You look.", disallowedTools: ["mcp__t__echo", "WebSearch"], source: "session" },
      ],
    });
    try {
      const r = await session.runTurn("go", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r).toMatchObject({ reason: "finished" });
      expect(api.requests.filter((q) => q.route === 0).length).toBe(2);
      // The child's call ran in the server itself.
      expect(readFileSync(calls, "utf8")).toContain("echo from the child");
    } finally {
      await session.close();
    }
  });
}, 60_000);

test("the parent's deny of an MCP server keeps its tools from every child", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [call("toolu_a", "general-purpose", "CHILD-ALL: look"), { content: [{ type: "text", text: "done" }] }],
      routes: [{ firstMessage: "^CHILD-ALL:", turns: [{ content: [{ type: "text", text: "ok" }], expect: { toolsInclude: ["read", "web_search"], toolsExclude: ["mcp__t__echo", "mcp__t__fail"] } }] }],
    });
    const session = await openOn(api, dir, { mcp: { configs: [mcpConfig({ t: testServer() })] }, disallowedTools: ["mcp__t"] });
    try {
      await session.runTurn("go", signal());
      expect(api.checkFailures).toEqual([]);
      expect(api.requests.filter((q) => q.route === 0).length).toBe(1);
    } finally {
      await session.close();
    }
  });
}, 60_000);
