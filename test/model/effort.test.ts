// Effort as Claude Code sends it (read from Claude Code 2.1's own requests to our fake API): the
// API's effort parameter (`output_config.effort`) where the model takes it, with adaptive thinking
// on the models that think adaptively, lowered to the highest level the model takes, and nothing
// for a model without it. From --effort, or the effortLevel setting (a project's file only lowers it).
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();

type Body = { model: string; output_config?: { effort?: string }; thinking?: { type: string } };

async function sent(args: string[], files: Record<string, object> = {}): Promise<{ body: Body; stderr: string; code: number }> {
  const dir = tempProject();
  const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
  const env = isolatedEnv(server.url);
  for (const [file, json] of Object.entries(files)) {
    const abs = file.startsWith("$XDG_CONFIG_HOME/") ? join(env.XDG_CONFIG_HOME!, file.slice(17)) : file.startsWith("~/") ? join(env.HOME!, file.slice(2)) : join(dir, file);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, JSON.stringify(json));
  }
  const r = await runCli(["-p", "hi", ...args], { cwd: dir, env });
  expect(server.checkFailures).toEqual([]);
  return { body: server.requests.find((q) => q.outcome === "served")!.body as Body, stderr: r.stderr, code: r.code };
}

describe("--effort", () => {
  test("a model that thinks adaptively: output_config.effort and adaptive thinking", async () => {
    const { body } = await sent(["--model", "claude-opus-4-7", "--effort", "max"]);
    expect(body.output_config).toEqual({ effort: "max" });
    expect(body.thinking).toEqual({ type: "adaptive" });
  });

  test("claude-opus-4-5 takes up to high: max is sent as high, its thinking left as it was", async () => {
    const { body } = await sent(["--model", "claude-opus-4-5", "--effort", "max"]);
    expect(body.output_config).toEqual({ effort: "high" });
    expect(body.thinking).toBeUndefined();
  });

  test("a model without the effort parameter gets none, and the run says so", async () => {
    const { body, stderr, code } = await sent(["--model", "claude-haiku-4-5", "--effort", "low"]);
    expect(body.output_config).toBeUndefined();
    expect(stderr).toContain("claude-haiku-4-5 takes no effort level: effort low is not sent to it");
    expect(code).toBe(0);
  });

  test("without --effort or a setting nothing is sent", async () => {
    const { body } = await sent(["--model", "claude-opus-4-7"]);
    expect(body.output_config).toBeUndefined();
  });
});

describe("the effortLevel setting", () => {
  test("from ~/.claude/settings.json; --effort wins over it", async () => {
    expect((await sent(["--model", "claude-opus-4-7"], { "~/.claude/settings.json": { effortLevel: "low" } })).body.output_config).toEqual({ effort: "low" });
    expect((await sent(["--model", "claude-opus-4-7", "--effort", "medium"], { "~/.claude/settings.json": { effortLevel: "low" } })).body.output_config).toEqual({ effort: "medium" });
  });

  test("a project's file may lower it, never raise it", async () => {
    expect((await sent(["--model", "claude-opus-4-7"], { ".claude/settings.json": { effortLevel: "low" } })).body.output_config).toEqual({ effort: "low" });
    expect((await sent(["--model", "claude-opus-4-7"], { ".claude/settings.json": { effortLevel: "xhigh" } })).body.output_config).toEqual({ effort: "high" });
    const user = { "$XDG_CONFIG_HOME/khaelor/settings.json": { effortLevel: "medium" }, ".khaelor/settings.json": { effortLevel: "max" } };
    expect((await sent(["--model", "claude-opus-4-7"], user)).body.output_config).toEqual({ effort: "medium" });
  });
});
