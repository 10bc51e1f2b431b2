// `effort` in a command's frontmatter: the level for that command's turn, sent as the API's
// output_config.effort. A project's command raises it only in a trusted project (as its model
// holds only there); a level that is not one is a problem naming the file.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();

function put(dir: string, rel: string, text: string) {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

async function effortSent(args: string[], commands: Record<string, string>): Promise<{ effort: string | null; stderr: string }> {
  const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
  const dir = tempProject();
  const env = isolatedEnv(server.url);
  for (const [rel, text] of Object.entries(commands)) put(rel.startsWith("~/") ? env.HOME! : dir, rel.replace(/^~\//, ""), text);
  const r = await runCli(["-p", "/go", "--model", "claude-opus-4-7", ...args], { cwd: dir, env });
  expect(server.checkFailures).toEqual([]);
  const body = server.requests.find((q) => q.outcome === "served")!.body as { output_config?: { effort?: string } };
  return { effort: body.output_config?.effort ?? null, stderr: r.stderr };
}

describe("effort frontmatter", () => {
  test("a user command's effort is sent for its turn", async () => {
    expect((await effortSent(["--effort", "low"], { "~/.claude/commands/go.md": "---\neffort: max\n---\nGo.\n" })).effort).toBe("max");
  });

  test("a skill's effort too", async () => {
    expect((await effortSent([], { "~/.claude/skills/go/SKILL.md": "---\nname: go\ndescription: go on\neffort: medium\n---\nGo.\n" })).effort).toBe("medium");
  });

  test("a project's command raises it only once the project is trusted", async () => {
    const cmd = { ".claude/commands/go.md": "---\neffort: max\n---\nGo.\n" };
    expect((await effortSent(["--effort", "low"], cmd)).effort).toBe("low");
    expect((await effortSent(["--effort", "low", "--trust-project"], cmd)).effort).toBe("max");
  });

  test("a level that is not one is said, naming the file", async () => {
    const r = await effortSent(["--effort", "low"], { "~/.claude/commands/go.md": "---\neffort: ludicrous\n---\nGo.\n" });
    expect(r.effort).toBe("low");
    expect(r.stderr).toContain("go.md: effort ludicrous is not one of low, medium, high, xhigh, max");
  });
});

// An agent's effort goes to its child's requests as the parent's does: output_config.effort for a
// model that takes it (adaptive thinking with it), nothing for one that does not; never a thinking
// budget of its own. An agent without one works at the parent's level.
describe("effort in agent definitions", () => {
  type Body = { model: string; output_config?: { effort?: string }; thinking?: { type: string; budget_tokens?: number } };
  async function childRequest(agent: string, args: string[]): Promise<Body> {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "agent", input: { description: "think", prompt: "CHILD-T: think hard", subagent_type: "thinker" } }] },
        { content: [{ type: "text", text: "done" }], expect: { lastHasToolResult: { isError: false } } },
      ],
      routes: [{ firstMessage: "^CHILD-T:", turns: [{ content: [{ type: "text", text: "thought" }] }] }],
    });
    const dir = tempProject();
    const env = isolatedEnv(server.url);
    put(env.HOME!, ".claude/agents/thinker.md", `---\nname: thinker\ndescription: Thinks\n${agent}---\nThink.\n`);
    const r = await runCli(["-p", "go", "--model", "claude-opus-4-7", ...args], { cwd: dir, env });
    expect(server.checkFailures).toEqual([]);
    expect(r.code).toBe(0);
    return server.requests.find((q) => q.route === 0)!.body as Body;
  }

  test("effort: low is sent as output_config.effort low, with no thinking budget", async () => {
    const body = await childRequest("effort: low\n", ["--effort", "high"]);
    expect(body.output_config?.effort).toBe("low");
    expect(body.thinking?.budget_tokens).toBeUndefined();
  });

  test("without effort the child works at the parent's level", async () => {
    expect((await childRequest("", ["--effort", "medium"])).output_config?.effort).toBe("medium");
  });

  test("a model that takes no effort level gets none, and no thinking budget in its place", async () => {
    const body = await childRequest("model: claude-haiku-4-5\neffort: max\n", []);
    expect(body.model).toBe("claude-haiku-4-5");
    expect(body.output_config?.effort).toBeUndefined();
    expect(body.thinking).toBeUndefined();
  });
});
