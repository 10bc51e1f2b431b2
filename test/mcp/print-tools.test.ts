// The model calls the tools of real MCP servers from print mode: our own test server over stdio,
// and server-everything over stdio and streamable HTTP. Text, images, resources and isError
// results reach the model as tool_result blocks.
import { expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { EVERYTHING, freePort, mcpConfig, testServer, textOf, toolResults, until } from "./support.ts";
import { PNG_BASE64 } from "./fixtures/test-server.ts";

const serve = fakeApiFixture();

test("stdio server: text, image, resource and isError results reach the model", async () => {
  const dir = tempProject();
  const api = await serve({
    turns: [
      {
        content: [
          { type: "tool_use", id: "t1", name: "mcp__t__echo", input: { text: "hi" } },
          { type: "tool_use", id: "t2", name: "mcp__t__image", input: {} },
          { type: "tool_use", id: "t3", name: "mcp__t__fail", input: { why: "disk full" } },
          { type: "tool_use", id: "t4", name: "mcp__t__resource", input: {} },
        ],
        expect: { toolsInclude: ["read", "mcp__t__echo", "mcp__t__image", "mcp__t__crash"] },
      },
      { content: [{ type: "text", text: "done" }] },
    ],
  });
  const r = await runCli(["-p", "use the tools", "--mcp-config", mcpConfig({ t: testServer() }), "--allowedTools", "mcp__t", "--output-format", "stream-json", "--verbose"], { cwd: dir, env: isolatedEnv(api.url) });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const init = parseNdjson(r.stdout)[0]!;
  expect(init.mcp_servers).toEqual([{ name: "t", status: "connected", source: "dynamic" }]);
  expect(init.tools as string[]).toContain("mcp__t__slow");

  const first = api.requests[0]!.body as { tools: Array<{ name: string; input_schema: Record<string, unknown>; description: string }> };
  const echo = first.tools.find((t) => t.name === "mcp__t__echo")!;
  expect(echo.description).toBe("Echo the text back");
  expect(echo.input_schema).toEqual({ type: "object", properties: { text: { type: "string" } }, required: ["text"] });

  const results = toolResults(api.requests[1]!.body);
  const by = (id: string) => results.find((x) => x.tool_use_id === id)!;
  expect(by("t1").content).toBe("echo: hi");
  expect(by("t1").is_error).toBeFalsy();
  expect(by("t2").content).toEqual([
    { type: "text", text: "here is the picture" },
    { type: "image", source: { type: "base64", media_type: "image/png", data: PNG_BASE64 } },
  ]);
  expect(by("t3").is_error).toBe(true);
  expect(by("t3").content).toBe("it failed: disk full");
  expect(by("t4").content).toBe("[resource file:///notes/todo.md (text/markdown)]\n- write tests");
}, 60_000);

test("a long MCP result goes through the output budget and its spill file", async () => {
  const dir = tempProject();
  const api = await serve({
    turns: [{ content: [{ type: "tool_use", id: "b1", name: "mcp__t__big", input: { chars: 100_000 } }] }, { content: [{ type: "text", text: "ok" }] }],
  });
  const r = await runCli(["-p", "big", "--mcp-config", mcpConfig({ t: testServer() }), "--allowedTools", "mcp__t__big"], { cwd: dir, env: isolatedEnv(api.url) });
  expect(r.code).toBe(0);
  const text = textOf(toolResults(api.requests[1]!.body)[0]!.content);
  expect(text.length).toBeLessThan(31_000);
  // (matched, not compared: a failure must not print 30,000 characters)
  const marker = /characters cut from the middle; the full output \(99,999 characters\) is in (\S+mcp-t-big\S+\.txt) — read or grep it/.exec(text);
  expect(marker !== null).toBe(true);
  expect(readFileSync(marker![1]!, "utf8").length).toBe(99_999);
  expect(text.startsWith("line 0000\n")).toBe(true);
}, 60_000);

test("server-everything over stdio and over streamable HTTP", async () => {
  const port = await freePort();
  const http = Bun.spawn([process.execPath, EVERYTHING, "streamableHttp"], { env: { ...process.env, PORT: String(port) }, stdout: "ignore", stderr: "pipe" });
  try {
    let said = "";
    const reader = http.stderr.getReader();
    await until("the HTTP server to listen", async () => {
      const { value } = await reader.read();
      said += new TextDecoder().decode(value ?? new Uint8Array());
      return said.includes("listening");
    });
    reader.releaseLock();
    const dir = tempProject();
    const api = await serve({
      turns: [
        {
          content: [
            { type: "tool_use", id: "e1", name: "mcp__local__echo", input: { message: "over stdio" } },
            { type: "tool_use", id: "e2", name: "mcp__remote__get-sum", input: { a: 2, b: 3 } },
            { type: "tool_use", id: "e3", name: "mcp__remote__get-tiny-image", input: {} },
          ],
        },
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const config = mcpConfig({ local: { command: process.execPath, args: [EVERYTHING, "stdio"] }, remote: { type: "http", url: `http://127.0.0.1:${port}/mcp` } });
    const r = await runCli(["-p", "go", "--mcp-config", config, "--allowedTools", "mcp__local,mcp__remote__*"], { cwd: dir, env: isolatedEnv(api.url) });
    expect(r.code).toBe(0);
    const results = toolResults(api.requests[1]!.body);
    const by = (id: string) => results.find((x) => x.tool_use_id === id)!;
    expect(textOf(by("e1").content)).toContain("over stdio");
    expect(textOf(by("e2").content)).toContain("5");
    const img = (by("e3").content as Array<{ type: string; source?: { media_type: string } }>).find((b) => b.type === "image");
    expect(img?.source?.media_type).toBe("image/png");
  } finally {
    http.kill();
    await http.exited;
  }
}, 90_000);
