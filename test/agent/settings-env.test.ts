// Claude Code's `env` settings key: {"env": {"FOO": "bar"}} applies to the session. The user's
// files set it for KHAELOR itself (ANTHROPIC_MODEL picks the model, as in Claude Code) and for
// everything it runs; a project's files can run code through it (NODE_OPTIONS, PATH, LD_PRELOAD),
// so their variables hold only once the project is trusted, and never pick the key, the endpoint,
// the provider or where KHAELOR keeps its data. Real files in a temp HOME and project, the real CLI.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fakeApiFixture, type ScenarioInput } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { DEFAULT_MODEL } from "../../src/model/models.ts";

const serve = fakeApiFixture();

function put(file: string, json: object): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, JSON.stringify(json));
}

/** The model runs `echo` of the variables; the tool result must match `seen`. */
const echoes = (command: string, seen: string): ScenarioInput => ({
  turns: [
    { content: [{ type: "tool_use", name: "bash", input: { command } }] },
    { content: [{ type: "text", text: "done" }], expect: { lastHasToolResult: { isError: false, contentMatches: seen } } },
  ],
});

const served = (server: { requests: Array<{ outcome: string; body: unknown }> }) => server.requests.filter((q) => q.outcome === "served").map((q) => (q.body as { model: string }).model);

describe("the user's env", () => {
  test("reaches the model's commands and hooks, and ANTHROPIC_MODEL picks KHAELOR's model", async () => {
    const dir = tempProject();
    const server = await serve(echoes('echo "greeting=$GREETING"', "greeting=from-user-settings"));
    const env = isolatedEnv(server.url);
    const mark = join(env.HOME!, "hook-saw");
    put(join(env.HOME!, ".claude", "settings.json"), {
      env: { GREETING: "from-user-settings", ANTHROPIC_MODEL: "claude-opus-4-1" },
      hooks: { PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: `printf %s "$GREETING" > ${mark}` }] }] },
    });
    const r = await runCli(["-p", "go", "--allowedTools", "Bash(echo:*)"], { cwd: dir, env });
    expect(server.checkFailures).toEqual([]);
    expect(readFileSync(mark, "utf8")).toBe("from-user-settings");
    expect(served(server)[0]).toBe("claude-opus-4-1");
    expect(r.code).toBe(0);
  });

  test("KHAELOR's own user file wins a variable both set; a value that is not a string is named and skipped", async () => {
    const dir = tempProject();
    const server = await serve(echoes('echo "a=$A b=$B"', "a=khaelor b=2"));
    const env = isolatedEnv(server.url);
    put(join(env.HOME!, ".claude", "settings.json"), { env: { A: "claude", B: 2 } });
    put(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), { env: { A: "khaelor", C: { nested: true } } });
    const r = await runCli(["-p", "go", "--allowedTools", "Bash(echo:*)"], { cwd: dir, env });
    expect(server.checkFailures).toEqual([]);
    expect(r.stderr).toContain(`${join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json")}: env.C: not a string; the variable is not set`);
  });
});

describe("a project's env is held until the project is trusted", () => {
  const projectEnv = { GREETING: "from-project", NODE_OPTIONS: "--no-warnings", ANTHROPIC_BASE_URL: "http://127.0.0.1:9", ANTHROPIC_MODEL: "claude-opus-4-1", HTTPS_PROXY: "http://127.0.0.1:9" };

  test("untrusted: no variable is set, each is named with its value, the dangerous ones with ⚠", async () => {
    const dir = tempProject();
    put(join(dir, ".claude", "settings.json"), { env: projectEnv });
    const server = await serve(echoes('echo "g=$GREETING n=$NODE_OPTIONS"', "^g= n=\\n"));
    const r = await runCli(["-p", "go", "--allowedTools", "Bash(echo:*)"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    expect(r.stderr).toContain(`env GREETING=from-project (${join(dir, ".claude", "settings.json")})`);
    expect(r.stderr).toMatch(/env NODE_OPTIONS=--no-warnings \([^)]*\): ⚠ /);
    expect(r.stderr).toContain("pass --trust-project");
    expect(r.code).toBe(0);
  });

  test("trusted: its variables reach the commands; the key, endpoint, model and proxy variables never come from it", async () => {
    const dir = tempProject();
    put(join(dir, ".khaelor", "settings.json"), { env: projectEnv });
    const server = await serve(echoes('echo "g=$GREETING n=$NODE_OPTIONS u=$ANTHROPIC_BASE_URL p=$HTTPS_PROXY"', `g=from-project n=--no-warnings u=http://127.0.0.1:\\d+ p=\\n`));
    const r = await runCli(["-p", "go", "--allowedTools", "Bash(echo:*)", "--trust-project"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    // The requests went to the user's endpoint with the user's model.
    expect(served(server)[0]).toBe(DEFAULT_MODEL);
    for (const name of ["ANTHROPIC_BASE_URL", "ANTHROPIC_MODEL", "HTTPS_PROXY"]) expect(r.stderr).toContain(`env.${name} is never taken from a file inside the project`);
    expect(r.code).toBe(0);
  });
});
