// MCP tools under the permission rules: mcp__server, mcp__server__* and mcp__server__tool in
// allow/ask/deny (deny beats ask beats allow), the modes, and print mode denying what would ask.
import { afterEach, expect, test } from "bun:test";
import { createPermissionEngine } from "../../src/permissions/index.ts";
import { makeFixture, type Fixture, trustedProject } from "../permissions/fixture.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { mcpConfig, testServer, textOf, toolResults } from "./support.ts";

let fx: Fixture | undefined;
afterEach(() => fx?.cleanup());
const serve = fakeApiFixture();

const call = (tool: string, readOnly = false) => ({ tool, input: { text: "x" }, cwd: fx!.root, readOnly });

test("rule forms, precedence and modes", async () => {
  fx = makeFixture({
    project: { permissions: { allow: ["mcp__github", "mcp__db__query"], ask: ["mcp__github__delete_repo"], deny: ["mcp__db__drop", "mcp__files__*"] } },
  });
  const engine = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, configHome: fx.configHome, projectSettings: trustedProject });
  expect(engine.problems()).toEqual([]);
  const d = (tool: string, readOnly = false) => engine.decide(call(tool, readOnly));

  // default mode: an MCP call asks, and offers the tool's own rule
  expect(d("mcp__other__thing")).toMatchObject({ behavior: "ask", suggestion: { rule: "mcp__other__thing", rules: ["mcp__other__thing"] } });
  // the whole server, one tool, a wildcard
  expect(d("mcp__github__list_issues").behavior).toBe("allow");
  expect(d("mcp__db__query").behavior).toBe("allow");
  expect(d("mcp__db__insert").behavior).toBe("ask");
  expect(d("mcp__files__read").behavior).toBe("deny");
  // a server whose name only starts like a rule's is not covered
  expect(d("mcp__githubx__list").behavior).toBe("ask");
  // ask beats allow, deny beats allow
  expect(d("mcp__github__delete_repo")).toMatchObject({ behavior: "ask" });
  expect(d("mcp__github__delete_repo").suggestion).toBeUndefined();
  expect(d("mcp__db__drop").behavior).toBe("deny");

  // plan mode: runs what the server marks read-only, asks for the rest
  engine.setMode("plan");
  expect(d("mcp__other__search", true).behavior).toBe("allow");
  expect(d("mcp__other__write", false).behavior).toBe("ask");
  expect(d("mcp__files__read", true).behavior).toBe("deny");

  // bypass: everything but deny
  engine.setMode("bypassPermissions");
  expect(d("mcp__other__write").behavior).toBe("allow");
  expect(d("mcp__github__delete_repo").behavior).toBe("allow");
  expect(d("mcp__db__drop").behavior).toBe("deny");

  // a grant of the offered rule takes effect at once
  engine.setMode("default");
  expect(engine.grant("mcp__other__thing", "session")).toMatchObject({ ok: true });
  expect(d("mcp__other__thing").behavior).toBe("allow");
});

test("bad mcp rules are reported with their position", async () => {
  fx = makeFixture({ local: { permissions: { allow: ["mcp__", "mcp__a b", "mcp__ok__*"] } } });
  const engine = await createPermissionEngine({ projectRoot: fx.root, home: fx.home, configHome: fx.configHome, projectSettings: trustedProject });
  expect(engine.problems().map((p) => p.position)).toEqual(["permissions.allow[0]", "permissions.allow[1]"]);
  expect(engine.problems()[0]!.message).toContain("write mcp__server, mcp__server__* or mcp__server__tool");
});

test("print mode denies what would ask; --allowedTools and --disallowedTools take mcp names; plan mode runs read-only tools", async () => {
  const dir = tempProject();
  const turns = [
    {
      content: [
        { type: "tool_use" as const, id: "a", name: "mcp__t__echo", input: { text: "one" } },
        { type: "tool_use" as const, id: "b", name: "mcp__t__image", input: {} },
      ],
    },
    { content: [{ type: "text" as const, text: "done" }] },
  ];
  const config = mcpConfig({ t: testServer() });
  const run = async (...flags: string[]) => {
    const api = await serve({ turns });
    const r = await runCli(["-p", "go", "--mcp-config", config, "--output-format", "stream-json", "--verbose", ...flags], { cwd: dir, env: isolatedEnv(api.url) });
    expect(r.code).toBe(0);
    const results = toolResults(api.requests[1]!.body);
    const result = parseNdjson(r.stdout).at(-1) as { permission_denials: Array<{ tool_name: string }> };
    return {
      echo: results.find((x) => x.tool_use_id === "a")!,
      image: results.find((x) => x.tool_use_id === "b")!,
      denied: result.permission_denials.map((p) => p.tool_name),
    };
  };

  const plain = await run();
  expect(plain.echo.is_error).toBe(true);
  expect(textOf(plain.echo.content)).toContain("There is no one to ask in print mode");
  expect(plain.denied).toEqual(["mcp__t__echo", "mcp__t__image"]);

  const allowed = await run("--allowedTools", "mcp__t__echo", "--disallowedTools", "mcp__t__image");
  expect(allowed.echo.content).toBe("echo: one");
  expect(textOf(allowed.image.content)).toContain("denied by mcp__t__image");

  const deniedWins = await run("--allowedTools", "mcp__t", "--disallowedTools", "mcp__t__echo");
  expect(deniedWins.echo.is_error).toBe(true);
  expect(deniedWins.image.is_error).toBeFalsy();

  // echo carries readOnlyHint; image does not
  const plan = await run("--permission-mode", "plan");
  expect(plan.echo.content).toBe("echo: one");
  expect(plan.denied).toEqual(["mcp__t__image"]);
}, 120_000);
