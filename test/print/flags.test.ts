// Flags and inputs that must not be misread: rules by our lowercase tool names, stdin left open,
// --resume ids, the budget of a resumed run, the permission mode on resume, bearer tokens.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { cliCommand, isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();
const say = (text: string) => ({ content: [{ type: "text" as const, text }] });
const bash = (id: string, command: string) => ({ content: [{ type: "tool_use" as const, id, name: "bash", input: { command } }] });

describe("print-mode flags", () => {
  test("--disallowedTools bash (our lowercase name) denies bash even in bypassPermissions", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [bash("t1", "echo hi > out.txt"), say("ok")] });
    const r = await runCli(["-p", "x", "--permission-mode", "bypassPermissions", "--disallowedTools", "bash", "--output-format", "json"], { cwd: dir, env: isolatedEnv(api.url) });
    expect(existsSync(join(dir, "out.txt"))).toBe(false);
    expect(parseNdjson(r.stdout)[0]!.permission_denials).toHaveLength(1);
  });

  test("a command-line rule that does not parse is a usage error, not silently dropped", async () => {
    const r = await runCli(["-p", "x", "--disallowedTools", "Bash(rm *"], { cwd: tempProject(), env: isolatedEnv("http://127.0.0.1:9") });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("--disallowedTools");
  });

  test("a task on the command line does not wait forever for a stdin pipe that stays open", async () => {
    const api = await serve({ turns: [say("done")] });
    const proc = Bun.spawn(cliCommand(["-p", "hello"]), { cwd: tempProject(), env: isolatedEnv(api.url), stdin: "pipe", stdout: "pipe", stderr: "pipe" });
    const out = await new Response(proc.stdout).text();
    expect(await proc.exited).toBe(0);
    expect(out).toBe("done\n");
    proc.stdin.end();
  });

  test("--resume takes any id-like word as the id; a bare --resume with a task is a usage error; /compact needs a session", async () => {
    const api = await serve({ turns: [say("first")] });
    const env = isolatedEnv(api.url);
    const dir = tempProject();
    await runCli(["-p", "start"], { cwd: dir, env });
    const typo = await runCli(["-p", "--resume", "zzz", "hi"], { cwd: dir, env });
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain("zzz");
    expect(api.requests.filter((r) => r.outcome === "served")).toHaveLength(1);
    const bare = await runCli(["-p", "hi", "--resume"], { cwd: tempProject(), env });
    expect(bare.code).toBe(2);
    const compact = await runCli(["-p", "/compact"], { cwd: tempProject(), env });
    expect(compact.code).toBe(2);
    expect(compact.stderr).toContain("--continue");
  });

  test("--max-budget-usd on a resumed session counts only this run's spending", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [say("first"), say("second")] });
    const env = isolatedEnv(api.url);
    const first = parseNdjson((await runCli(["-p", "one", "--output-format", "json"], { cwd: dir, env })).stdout)[0]!;
    const spent = first.total_cost_usd as number;
    expect(spent).toBeGreaterThan(0);
    const r = await runCli(["--continue", "-p", "two", "--max-budget-usd", String(spent / 2), "--output-format", "json"], { cwd: dir, env });
    expect(r.code).toBe(0);
    expect(parseNdjson(r.stdout)[0]).toMatchObject({ subtype: "success", result: "second" });
  });

  test("the permission mode is not carried over silently on resume", async () => {
    const dir = tempProject();
    writeFileSync(join(dir, "a.txt"), "one\n");
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", id: "w1", name: "write", input: { file_path: "b.txt", content: "x\n" } }] },
        say("wrote"),
        { content: [{ type: "tool_use", id: "w2", name: "write", input: { file_path: "c.txt", content: "y\n" } }] },
        say("tried"),
      ],
    });
    const env = isolatedEnv(api.url);
    await runCli(["-p", "write b", "--permission-mode", "acceptEdits", "--no-verify-nudge"], { cwd: dir, env });
    expect(existsSync(join(dir, "b.txt"))).toBe(true);
    const r = await runCli(["--continue", "-p", "write c"], { cwd: dir, env });
    expect(existsSync(join(dir, "c.txt"))).toBe(false);
    expect(r.stderr).toContain("last ran in acceptEdits mode");
  });

  test("a Read deny on a folder keeps its contents out of a grep over the whole project", async () => {
    const dir = tempProject();
    mkdirSync(join(dir, ".khaelor"));
    mkdirSync(join(dir, "secrets"));
    writeFileSync(join(dir, ".khaelor", "settings.json"), JSON.stringify({ permissions: { deny: ["Read(./secrets/**)"] } }));
    writeFileSync(join(dir, "secrets", "prod.txt"), "API_TOKEN=hunter2-prod\n");
    writeFileSync(join(dir, "app.txt"), "API_TOKEN is read from the vault\n");
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "grep", input: { pattern: "API_TOKEN", path: ".", output_mode: "content" } }] },
        { ...say("done"), expect: { lastHasToolResult: { contentMatches: "app.txt" } } },
      ],
    });
    const r = await runCli(["-p", "find the token", "--permission-mode", "bypassPermissions", "--output-format", "json"], { cwd: dir, env: isolatedEnv(api.url) });
    expect(r.code).toBe(0);
    const result = JSON.stringify((api.requests.at(-1)!.body as { messages: unknown[] }).messages.at(-1));
    expect(result).toContain("app.txt");
    expect(result).not.toContain("hunter2");
    expect(result).toContain("not searched: denied by Read(./secrets/**)");
  });

  test("ANTHROPIC_AUTH_TOKEN alone is enough (sent as a bearer token)", async () => {
    const api = await serve({ turns: [say("token ok")], apiKey: "tok-123" });
    const env = isolatedEnv(api.url);
    delete env.ANTHROPIC_API_KEY;
    env.ANTHROPIC_AUTH_TOKEN = "tok-123";
    const r = await runCli(["-p", "hi"], { cwd: tempProject(), env });
    expect(r.stdout).toBe("token ok\n");
    expect(r.code).toBe(0);
  });
});
