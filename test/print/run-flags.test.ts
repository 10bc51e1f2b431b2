// The flags test/cli/every-flag.test.ts once proved at the parse level only, each proven here on a
// real run: the real CLI against the fake API, its request log and the files the run left.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();
type Body = { system: Array<{ text: string }>; thinking?: { type: string; budget_tokens?: number } };
const bodies = (server: { requests: Array<{ outcome: string; body: unknown }> }) => server.requests.filter((q) => q.outcome === "served").map((q) => q.body as Body);

describe("flags proven end to end", () => {
  test("--dangerously-skip-permissions: the model's rm runs without a question, init says bypassPermissions", async () => {
    const dir = tempProject();
    writeFileSync(join(dir, "victim.txt"), "x\n");
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "rm victim.txt" } }] },
        { content: [{ type: "text", text: "removed" }], expect: { lastHasToolResult: { isError: false } } },
      ],
    });
    const r = await runCli(["-p", "clean", "--dangerously-skip-permissions", "--output-format", "stream-json", "--verbose"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    expect(existsSync(join(dir, "victim.txt"))).toBe(false);
    expect(parseNdjson(r.stdout)[0]).toMatchObject({ type: "system", subtype: "init", permissionMode: "bypassPermissions" });
    expect(r.code).toBe(0);
  });

  test("--system-prompt replaces KHAELOR's system prompt", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }], expect: { systemMatches: "^You are SYS-PROMPT-X" } }] });
    const r = await runCli(["-p", "hi", "--system-prompt", "You are SYS-PROMPT-X."], { cwd: tempProject(), env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    const system = bodies(server)[0]!.system.map((b) => b.text).join("\n");
    expect(system).not.toContain("KHAELOR");
    expect(r.code).toBe(0);
  });

  test("--thinking enabled sends a thinking budget to a model that takes one; disabled sends none", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "a" }] }, { content: [{ type: "text", text: "b" }] }] });
    const env = isolatedEnv(server.url);
    const dir = tempProject();
    await runCli(["-p", "hi", "--model", "claude-sonnet-4-5", "--thinking", "enabled"], { cwd: dir, env });
    await runCli(["-p", "hi", "--model", "claude-sonnet-4-5", "--max-thinking-tokens", "2048", "--thinking", "disabled"], { cwd: dir, env });
    const [on, off] = bodies(server);
    expect(on!.thinking).toEqual({ type: "enabled", budget_tokens: 16_000 });
    expect(off!.thinking).toBeUndefined();
  });

  test("--max-time: a turn past its wall time stops at the next step with exit 4", async () => {
    const server = await serve({
      turns: [
        // The step takes longer than the limit: its command runs 300 ms against a 50 ms limit.
        { content: [{ type: "tool_use", name: "bash", input: { command: "sleep 0.3" } }] },
        { content: [{ type: "text", text: "never asked for" }] },
      ],
    });
    const r = await runCli(["-p", "go", "--max-time", "0.05", "--allowedTools", "Bash(sleep:*)", "--output-format", "json"], { cwd: tempProject(), env: isolatedEnv(server.url) });
    expect(bodies(server)).toHaveLength(1);
    expect(r.code).toBe(4);
    expect(parseNdjson(r.stdout)[0]).toMatchObject({ type: "result", is_error: true });
  });

  test("--cwd: the session works in that directory, not where it was started", async () => {
    const started = tempProject();
    const target = join(tempProject(), "work");
    mkdirSync(target);
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "write", input: { file_path: "made.txt", content: "here\n" } }] },
        { content: [{ type: "text", text: "written" }], expect: { lastHasToolResult: { isError: false } } },
      ],
    });
    const r = await runCli(["-p", "make it", "--cwd", target, "--permission-mode", "acceptEdits"], { cwd: started, env: isolatedEnv(server.url) });
    expect(server.checkFailures).toEqual([]);
    expect(existsSync(join(target, "made.txt"))).toBe(true);
    expect(existsSync(join(started, "made.txt"))).toBe(false);
    expect(bodies(server)[0]!.system.map((b) => b.text).join("\n")).toContain(realpathSync(target));
    expect(r.code).toBe(0);
  });
});
