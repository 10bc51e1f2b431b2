// Where servers come from and how their definitions are read: --mcp-config files and JSON
// (repeatable, later wins), --strict-mcp-config, ${VAR} and ${VAR:-default} in what reaches the
// server, and legacy SSE against server-everything.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expandSpec, expandVars, loadMcpConfig } from "../../src/mcp/config.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { EVERYTHING, freePort, mcpConfig, testServer, textOf, toolResults, until } from "./support.ts";

const serve = fakeApiFixture();

test("${VAR} and ${VAR:-default}", () => {
  const missing = new Set<string>();
  const env = { A: "1", EMPTY: "" };
  expect(expandVars("x${A}y ${B:-two} ${EMPTY:-dflt} $A ${A:-z}", env, missing)).toBe("x1y two dflt $A 1");
  expect([...missing]).toEqual([]);
  expandVars("${NOPE} ${EMPTY}", env, missing);
  expect([...missing]).toEqual(["NOPE"]);
  expect(expandSpec({ type: "http", url: "https://h/${A}", headers: { Authorization: "Bearer ${TOKEN:-anon}" } }, env)).toEqual({
    spec: { type: "http", url: "https://h/1", headers: { Authorization: "Bearer anon" } },
  });
  expect(expandSpec({ type: "stdio", command: "${BIN}", args: [], env: {} }, env)).toEqual({ missing: ["BIN"] });
});

test("--mcp-config files and JSON, repeated, later wins; --strict-mcp-config leaves out the rest", () => {
  const dir = tempProject();
  const home = tempProject("khaelor-home-");
  mkdirSync(join(home, "cfg", "khaelor"), { recursive: true });
  writeFileSync(join(home, "cfg", "khaelor", "settings.json"), mcpConfig({ fromUser: { command: "u" }, shared: { command: "user-version" } }));
  writeFileSync(join(dir, "extra.json"), mcpConfig({ fromFile: { command: "f" }, shared: { command: "file-version" } }));
  const sources = { projectRoot: dir, home, configHome: join(home, "cfg"), cliConfigs: [join(dir, "extra.json"), mcpConfig({ inline: { type: "sse", url: "http://x/sse" } })] };
  const all = loadMcpConfig(sources);
  expect(all.servers.map((s) => `${s.name}:${s.scope}`)).toEqual(["fromUser:user", "fromFile:cli", "shared:cli", "inline:cli"]);
  expect(all.servers.find((s) => s.name === "shared")!.spec).toMatchObject({ command: "file-version" });
  const strict = loadMcpConfig({ ...sources, strict: true });
  expect(strict.servers.map((s) => s.name)).toEqual(["fromFile", "shared", "inline"]);
  expect(loadMcpConfig({ projectRoot: dir, cliConfigs: ["nope.json"] }).problems).toEqual(["--mcp-config nope.json: no such file (pass a path to a JSON file or the JSON itself)"]);
});

test("expanded values reach the server; --strict-mcp-config in a real run; SSE against server-everything", async () => {
  const port = await freePort();
  const sse = Bun.spawn([process.execPath, EVERYTHING, "sse"], { env: { ...process.env, PORT: String(port) }, stdout: "ignore", stderr: "pipe" });
  try {
    let said = "";
    const reader = sse.stderr.getReader();
    await until("the SSE server to listen", async () => {
      const { value } = await reader.read();
      said += new TextDecoder().decode(value ?? new Uint8Array());
      return said.includes("running on port");
    });
    reader.releaseLock();
    const dir = tempProject();
    // A project server that --strict-mcp-config must leave out (trusted or not).
    writeFileSync(join(dir, ".mcp.json"), mcpConfig({ project: testServer() }));
    const api = await serve({
      turns: [
        {
          content: [
            { type: "tool_use", id: "g1", name: "mcp__env__get-env", input: {} },
            { type: "tool_use", id: "g2", name: "mcp__legacy__echo", input: { message: "over sse" } },
          ],
        },
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const config = mcpConfig({
      env: { command: process.execPath, args: [EVERYTHING, "${MODE:-stdio}"], env: { FROM_CONFIG: "${KHAELOR_TEST_SECRET}", WITH_DEFAULT: "${UNSET_ONE:-fallback}" } },
      legacy: { type: "sse", url: `http://127.0.0.1:${port}/sse` },
    });
    const r = await runCli(["-p", "go", "--trust-project", "--strict-mcp-config", "--mcp-config", config, "--allowedTools", "mcp__env,mcp__legacy", "--output-format", "stream-json", "--verbose"], {
      cwd: dir,
      env: isolatedEnv(api.url, { KHAELOR_TEST_SECRET: "s3cret" }),
    });
    expect(r.code).toBe(0);
    expect((parseNdjson(r.stdout)[0]!.mcp_servers as Array<{ name: string }>).map((s) => s.name)).toEqual(["env", "legacy"]);
    const results = toolResults(api.requests[1]!.body);
    const envOut = JSON.parse(textOf(results.find((x) => x.tool_use_id === "g1")!.content)) as Record<string, string>;
    expect(envOut.FROM_CONFIG).toBe("s3cret");
    expect(envOut.WITH_DEFAULT).toBe("fallback");
    expect(textOf(results.find((x) => x.tool_use_id === "g2")!.content)).toContain("over sse");
  } finally {
    sse.kill();
    await sse.exited;
  }
}, 90_000);

test("disabledMcpjsonServers (Claude Code's) keeps a .mcp.json server off, from the user's settings or the project's; a server defined elsewhere is not touched", () => {
  const dir = tempProject();
  const home = tempProject("khaelor-home-");
  mkdirSync(join(home, "cfg", "khaelor"), { recursive: true });
  mkdirSync(join(dir, ".claude"), { recursive: true });
  writeFileSync(join(dir, ".mcp.json"), mcpConfig({ noisy: { command: "n" }, risky: { command: "r" }, fine: { command: "f" } }));
  writeFileSync(join(home, "cfg", "khaelor", "settings.json"), JSON.stringify({ ...JSON.parse(mcpConfig({ mine: { command: "m" } })), disabledMcpjsonServers: ["noisy", "mine"] }));
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ disabledMcpjsonServers: ["risky"] }));
  const c = loadMcpConfig({ projectRoot: dir, home, configHome: join(home, "cfg") });
  expect(c.servers.map((s) => `${s.name}:${s.disabled ? "off" : "on"}`)).toEqual(["mine:on", "noisy:off", "risky:off", "fine:on"]);
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ disabledMcpjsonServers: "risky" }));
  expect(loadMcpConfig({ projectRoot: dir, home, configHome: join(home, "cfg") }).problems).toEqual([`${join(dir, ".claude", "settings.json")}: disabledMcpjsonServers must be a list of server names (ignored)`]);
});

test("enableAllProjectMcpServers and enabledMcpjsonServers are said not to be followed where a .mcp.json has servers: the trust question decides", () => {
  const dir = tempProject();
  const home = tempProject("khaelor-home-");
  mkdirSync(join(dir, ".claude"), { recursive: true });
  const local = join(dir, ".claude", "settings.local.json");
  writeFileSync(local, JSON.stringify({ enableAllProjectMcpServers: true, enabledMcpjsonServers: ["a"] }));
  const sources = { projectRoot: dir, home, configHome: join(home, "cfg") };
  expect(loadMcpConfig(sources).problems).toEqual([]);
  writeFileSync(join(dir, ".mcp.json"), mcpConfig({ a: { command: "a" } }));
  const c = loadMcpConfig(sources);
  expect(c.problems).toEqual([`${local}: enableAllProjectMcpServers, enabledMcpjsonServers not followed: a project's MCP servers run once you trust the project (KHAELOR asks once, and remembers)`]);
  expect(c.servers[0]).toMatchObject({ name: "a", needsTrust: true, disabled: false });
  writeFileSync(local, JSON.stringify({ enableAllProjectMcpServers: false, enabledMcpjsonServers: [] }));
  expect(loadMcpConfig(sources).problems).toEqual([]);
});
