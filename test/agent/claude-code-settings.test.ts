// Claude Code's own settings files are a layer of KHAELOR's: ~/.claude/settings.json (or
// $CLAUDE_CONFIG_DIR/settings.json) and a project's .claude/settings.json and settings.local.json.
// A switcher's rules, hooks and model work without edits; KHAELOR's file of the same scope wins a
// key both set; the project's files obey the trust rules of KHAELOR's own project files; doctor
// names the file each rule and hook came from. Real files in a temp HOME and project, the real CLI.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fakeApiFixture, type ScenarioInput } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();

function put(file: string, json: object): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(json));
}

const rmVictim = (expectDenied: boolean): ScenarioInput => ({
  turns: [
    { content: [{ type: "tool_use", name: "bash", input: { command: "rm victim.txt" } }] },
    { content: [{ type: "text", text: "done" }], expect: { lastHasToolResult: { isError: expectDenied } } },
  ],
});

function project(): string {
  const dir = tempProject();
  writeFileSync(join(dir, "victim.txt"), "x\n");
  return dir;
}

describe("the user's Claude Code settings", () => {
  test("an allow rule in ~/.claude/settings.json holds: the model's rm runs without a question", async () => {
    const dir = project();
    const server = await serve(rmVictim(false));
    const env = isolatedEnv(server.url);
    put(join(env.HOME!, ".claude", "settings.json"), { permissions: { allow: ["Bash(rm victim.txt)"] } });
    const r = await runCli(["-p", "clean up"], { cwd: dir, env });
    expect(server.checkFailures).toEqual([]);
    expect(existsSync(join(dir, "victim.txt"))).toBe(false);
    expect(r.code).toBe(0);
  });

  test("CLAUDE_CONFIG_DIR moves it, as in Claude Code: ~/.claude is then not read", async () => {
    const dir = project();
    const server = await serve(rmVictim(false));
    const env = isolatedEnv(server.url);
    const elsewhere = join(env.HOME!, "cc-profile");
    put(join(elsewhere, "settings.json"), { permissions: { allow: ["Bash(rm victim.txt)"] } });
    put(join(env.HOME!, ".claude", "settings.json"), { permissions: { deny: ["Bash(rm:*)"] } });
    const r = await runCli(["-p", "clean up"], { cwd: dir, env: { ...env, CLAUDE_CONFIG_DIR: elsewhere } });
    expect(server.checkFailures).toEqual([]);
    expect(existsSync(join(dir, "victim.txt"))).toBe(false);
    expect(r.code).toBe(0);
  });

  test("the model: Claude Code's file sets it; KHAELOR's own file of the same scope wins where both set it", async () => {
    const dir = project();
    const server = await serve({ turns: [{ content: [{ type: "text", text: "a" }] }, { content: [{ type: "text", text: "b" }] }] });
    const env = isolatedEnv(server.url);
    put(join(env.HOME!, ".claude", "settings.json"), { model: "claude-opus-4-7", theme: "dark-daltonized", statusLine: { type: "command", command: "echo hi" } });
    await runCli(["-p", "hi"], { cwd: dir, env });
    put(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), { model: "claude-haiku-4-5" });
    await runCli(["-p", "hi"], { cwd: dir, env });
    const models = server.requests.filter((q) => q.outcome === "served").map((q) => (q.body as { model: string }).model);
    expect(models).toEqual(["claude-opus-4-7", "claude-haiku-4-5"]);
  });

  test("a hook in ~/.claude/settings.json runs", async () => {
    const dir = project();
    const server = await serve({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "true" } }] }, { content: [{ type: "text", text: "done" }] }] });
    const env = isolatedEnv(server.url);
    const mark = join(env.HOME!, "hook-ran");
    put(join(env.HOME!, ".claude", "settings.json"), { hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `touch ${mark}` }] }] } });
    await runCli(["-p", "go", "--allowedTools", "Bash(true)"], { cwd: dir, env });
    expect(existsSync(mark)).toBe(true);
  });
});

describe("a project's Claude Code settings obey the project's trust rules", () => {
  test("untrusted: its allow rule is held and named; its deny rule holds at once", async () => {
    const dir = project();
    put(join(dir, ".claude", "settings.json"), { permissions: { allow: ["Bash(rm victim.txt)"], deny: ["Read(secret.txt)"] } });
    const server = await serve(rmVictim(true));
    const r = await runCli(["-p", "clean up"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
    expect(r.stderr).toContain(`permissions.allow Bash(rm victim.txt) (${join(dir, ".claude", "settings.json")})`);
    expect(r.stderr).toContain("pass --trust-project");
  });

  test("trusted (--trust-project): its allow rule holds", async () => {
    const dir = project();
    put(join(dir, ".claude", "settings.local.json"), { permissions: { allow: ["Bash(rm victim.txt)"] } });
    const server = await serve(rmVictim(false));
    await runCli(["-p", "clean up", "--trust-project"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    expect(existsSync(join(dir, "victim.txt"))).toBe(false);
  });

  test("bypassPermissions is never taken from it, trusted or not", async () => {
    const dir = project();
    put(join(dir, ".claude", "settings.json"), { permissions: { defaultMode: "bypassPermissions" } });
    const server = await serve(rmVictim(true));
    const r = await runCli(["-p", "clean up", "--trust-project"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
    expect(r.stderr).toContain("bypassPermissions is never taken from a file inside the project");
  });

  test("its hook does not run untrusted, and runs with --trust-project", async () => {
    const dir = project();
    const env = isolatedEnv(null);
    const mark = join(env.HOME!, "project-hook-ran");
    put(join(dir, ".claude", "settings.json"), { hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: `touch ${mark}` }] }] } });
    const server = await serve({ turns: [{ content: [{ type: "text", text: "a" }] }, { content: [{ type: "text", text: "b" }] }] });
    const r = await runCli(["-p", "hi"], { cwd: dir, env: { ...env, ANTHROPIC_BASE_URL: server.url } });
    expect(existsSync(mark)).toBe(false);
    expect(r.stderr).toContain(join(dir, ".claude", "settings.json"));
    await runCli(["-p", "hi", "--trust-project"], { cwd: dir, env: { ...env, ANTHROPIC_BASE_URL: server.url } });
    expect(existsSync(mark)).toBe(true);
  });
});

test("'allow always' saves into KHAELOR's file, never into Claude Code's", async () => {
  const { createPermissionEngine } = await import("../../src/permissions/index.ts");
  const dir = project();
  const home = tempProject("khaelor-home-");
  put(join(home, ".claude", "settings.json"), { permissions: { allow: ["Read"] } });
  const engine = await createPermissionEngine({ projectRoot: dir, home, configHome: join(home, "config") });
  expect(engine.rules().find((r) => r.rule === "Read")?.file).toBe(join(home, ".claude", "settings.json"));
  const saved = engine.grant("Bash(npm test)", "user");
  expect(saved).toMatchObject({ ok: true, file: join(home, "config", "khaelor", "settings.json") });
  expect(readFileSync(join(home, ".claude", "settings.json"), "utf8")).not.toContain("npm test");
});

test("khaelor doctor names each settings file with the rules and hooks it holds, Claude Code's marked as such", async () => {
  const dir = project();
  const env = isolatedEnv("http://127.0.0.1:9");
  put(join(env.HOME!, ".claude", "settings.json"), { permissions: { deny: ["Read(.env)"] }, hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "true" }] }] } });
  put(join(dir, ".khaelor", "settings.json"), { permissions: { allow: ["Bash(npm test)"] } });
  const r = await runCli(["doctor"], { cwd: dir, env });
  expect(r.stdout).toContain(`${join(env.HOME!, ".claude", "settings.json")} (user, Claude Code's, read under KHAELOR's); rules: deny Read(.env); hooks: PreToolUse (Bash)`);
  expect(r.stdout).toContain(`${join(dir, ".khaelor", "settings.json")} (project); rules: allow Bash(npm test)`);
});
