// Tool names that differ only in characters the API does not take (a.b, a_b, "a b"), and servers
// whose names do (my.srv, my_srv), still give one name each: the request is valid (the real API
// rejects duplicate names) and each name calls the tool it was made from.
import { expect, test } from "bun:test";
import { assignToolNames } from "../../src/mcp/tool-names.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { mcpConfig, testServer } from "./support.ts";
import { callTool, closedAfterEach, hostile, startManager } from "./support-manager.ts";

const serve = fakeApiFixture();
const managers = closedAfterEach();

test("a request offers each tool once, under names unique after cleaning, across servers too", async () => {
  const api = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
  const config = mcpConfig({ h: hostile("--names"), "my.srv": testServer(), my_srv: testServer() });
  const r = await runCli(["-p", "hi", "--mcp-config", config], { cwd: tempProject(), env: isolatedEnv(api.url, { MCP_TIMEOUT: "20000" }) });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const names = (api.requests[0]!.body as { tools: Array<{ name: string }> }).tools.map((t) => t.name).filter((n) => n.startsWith("mcp__"));
  expect(new Set(names).size).toBe(names.length);
  // the tool whose name needed no cleaning keeps it; the others are told apart by a short hash
  const ours = names.filter((n) => n.startsWith("mcp__h__"));
  expect(ours).toContain("mcp__h__a_b");
  expect(ours.filter((n) => /^mcp__h__a_b_[0-9a-f]{8}$/.test(n)).length).toBe(2);
  expect(names).toContain("mcp__my_srv__echo");
  expect(names.filter((n) => /^mcp__my_srv_[0-9a-f]{8}__echo$/.test(n)).length).toBe(1);
}, 60_000);

test("each unique name calls the server's own tool by its real name", async () => {
  const m = startManager({ h: hostile("--names"), "my.srv": testServer(), my_srv: testServer() });
  managers.push(m);
  await m.ready();
  const names = m.tools().map((t) => t.name);
  const h = m.servers().find((s) => s.name === "h")!;
  expect(h.tools.map((t) => t.name)).toEqual(["a.b", "a_b", "a b", "echo"]);
  for (const t of h.tools) expect((await callTool(m, t.fullName)).content).toBe(`${t.name} got {}`);
  expect(new Set(names).size).toBe(names.length);
  const dotted = m.servers().find((s) => s.name === "my.srv")!.tools.find((t) => t.name === "echo")!.fullName;
  expect(dotted).toMatch(/^mcp__my_srv_[0-9a-f]{8}__echo$/);
  expect((await callTool(m, dotted, { text: "dot" })).content).toBe("echo: dot");
  expect((await callTool(m, "mcp__my_srv__echo", { text: "plain" })).content).toBe("echo: plain");
}, 60_000);

test("the names are stable: the same tools give the same names whatever their order", () => {
  const a = assignToolNames([
    { server: "s", tools: ["a.b", "a_b", "a b"] },
    { server: "s.t", tools: ["x"] },
    { server: "s_t", tools: ["x"] },
  ]);
  const b = assignToolNames([
    { server: "s_t", tools: ["x"] },
    { server: "s.t", tools: ["x"] },
    { server: "s", tools: ["a b", "a_b", "a.b"] },
  ]);
  expect(b.get("s")!.get("a.b")).toBe(a.get("s")!.get("a.b")!);
  expect(b.get("s")!.get("a b")).toBe(a.get("s")!.get("a b")!);
  expect(a.get("s")!.get("a_b")).toBe("mcp__s__a_b");
  expect(a.get("s_t")!.get("x")).toBe("mcp__s_t__x");
  // `a__b` + `c` and `a` + `b__c` clean to one name too; long names stay within 64 characters
  const c = assignToolNames([
    { server: "a__b", tools: ["c", "x".repeat(80)] },
    { server: "a", tools: ["b__c", `${"x".repeat(80)}.`] },
  ]);
  const all = [...c.values()].flatMap((m) => [...m.values()]);
  expect(new Set(all).size).toBe(4);
  for (const n of all) expect(n).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
});

test("a duplicate of a tool in one server's list is offered once", async () => {
  const m = assignToolNames([{ server: "s", tools: ["x", "x"] }]);
  expect([...m.get("s")!.entries()]).toEqual([["x", "mcp__s__x"]]);
});
