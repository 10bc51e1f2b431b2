// The system prompt's cacheable prefix is the same bytes everywhere, so every session in every
// directory reads the cache the first one wrote; the dynamic part carries the project's context.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildSystemPrompt, gitStatusSummary, loadProjectInstructions } from "../../src/context/system-prompt.ts";
import { createAnthropicClient } from "../../src/model/anthropic-client.ts";
import type { ToolSpec } from "../../src/model/types.ts";
import { startFakeApi } from "../support/fake-api.ts";
import { firstRequest, requestSize } from "../support/first-request.ts";

const temps: string[] = [];
afterAll(() => {
  for (const d of temps) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "khaelor-sysprompt-"));
  temps.push(d);
  return d;
}

function sh(cwd: string, ...cmd: string[]) {
  const r = Bun.spawnSync(cmd, { cwd, env: { ...process.env, GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" } });
  if (r.exitCode !== 0) throw new Error(`${cmd.join(" ")}: ${r.stderr.toString()}`);
}

function gitRepo(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  sh(dir, "git", "init", "-q", "-b", "main");
  sh(dir, "git", "add", "-A");
  sh(dir, "git", "commit", "-q", "-m", "initial commit");
  return dir;
}

const TOOLS = ["read", "edit", "bash", "process"];
const specs: ToolSpec[] = TOOLS.map((name) => ({ name, description: `${name} tool`, input_schema: { type: "object" } }));

describe("the cached prefix", () => {
  test("is byte-identical across two sessions in different directories, and the second reads what the first wrote", async () => {
    const a = gitRepo({ "AGENTS.md": "Use tabs.", "src/x.ts": "x" });
    const b = gitRepo({ "CLAUDE.md": "Never use tabs.", "lib/y.py": "y" });
    writeFileSync(join(b, "lib/y.py"), "changed");
    const sessionPrompt = (cwd: string, date: Date) =>
      buildSystemPrompt({ cwd, date, gitStatus: gitStatusSummary(cwd), instructions: loadProjectInstructions(cwd, { configDir: tempDir() }), toolNames: TOOLS });
    const pa = sessionPrompt(a, new Date(2026, 0, 5));
    const pb = sessionPrompt(b, new Date(2026, 6, 9));
    expect(pa[1]!.text).not.toBe(pb[1]!.text);

    const api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "a" }] }, { content: [{ type: "text", text: "b" }] }] } });
    try {
      const client = createAnthropicClient({ apiKey: "k", baseURL: api.url });
      const usages: number[] = [];
      for (const system of [pa, pb])
        for await (const ev of client.stream({ model: "claude-sonnet-5-5", system, messages: [{ role: "user", content: `hi from ${system === pa ? a : b}` }], tools: specs }))
          if (ev.type === "message_done") usages.push(ev.message.usage.cache_read_input_tokens);
      const prefix = (i: number) => {
        const body = api.requests[i]!.body as { tools: unknown; system: unknown[] };
        return JSON.stringify(body.tools) + JSON.stringify(body.system[0]);
      };
      expect(prefix(1)).toBe(prefix(0));
      expect((api.requests[0]!.body as { system: Array<{ cache_control?: unknown }> }).system[0]!.cache_control).toEqual({ type: "ephemeral" });
      expect(usages[0]).toBe(0);
      expect(usages[1]).toBeGreaterThan(100);
    } finally {
      await api.close();
    }
  });

  test("the static block changes only with the tool set, and never mentions the directory or date", () => {
    const p1 = buildSystemPrompt({ cwd: "/one", date: new Date(2026, 1, 1), gitStatus: null, instructions: [], toolNames: TOOLS });
    const p2 = buildSystemPrompt({ cwd: "/two", date: new Date(2027, 5, 6), gitStatus: "Branch: x", instructions: [{ path: "/two/AGENTS.md", content: "hi" }], toolNames: [...TOOLS].reverse() });
    expect(p2[0]).toEqual(p1[0]!);
    expect(p1[0]!.text).not.toContain("/one");
    expect(p1[1]!.text).toContain("/one");
    expect(p1[1]!.text).toContain("2026-02-01");
    expect(p2[1]!.text).toContain("Branch: x");
    expect(p2[1]!.text).toContain("hi");
    // Shell equivalents are named only for tools the session has, and only when it has a shell.
    expect(p1[0]!.text).toContain("Prefer the dedicated tools to shell commands: read, not cat/head/tail; edit, not sed/awk.");
    const noShell = buildSystemPrompt({ cwd: "/one", date: new Date(), gitStatus: null, instructions: [], toolNames: ["read"] });
    expect(noShell[0]!.text).not.toContain("dedicated tools");
    expect(noShell[0]!.text).toContain("do not retry it unchanged");
  });
});

describe("the first request of a fresh session", () => {
  // pi sends 5.7 KB, OpenCode 32 KB, Claude Code 128 KB; every byte here is paid on every turn.
  // 12 KB until the agent tool (1,262 bytes with the three built-in types listed) joined the set;
  // 13 KB until send_message (a follow-up to an agent, ~600 bytes) did.
  const BUDGET = 14_336;

  test("carries system prompt and tool definitions in at most 14 KB, with every built-in tool and the web tools", async () => {
    const req = await firstRequest(tempDir());
    const size = requestSize(req);
    expect(req.tools.map((t) => t.name)).toEqual(["read", "write", "edit", "grep", "glob", "bash", "process", "agent", "send_message", "web_search", "web_fetch"]);
    expect(size.total).toBeLessThanOrEqual(BUDGET);
    expect(size.systemDynamic).toBeGreaterThan(0);
  });

  test("has a static prefix (tools and the cached system block) byte-identical across sessions in different projects", async () => {
    const fresh = await firstRequest(tempDir());
    const repo = gitRepo({ "AGENTS.md": "Use tabs.", ".claude/skills/deploy/SKILL.md": "---\nname: deploy\ndescription: Ship it\n---\nsteps\n", "src/a.ts": "a" });
    const other = await firstRequest(repo, "something else");
    const prefix = (r: typeof fresh) => JSON.stringify(r.tools) + JSON.stringify(r.system[0]);
    expect(prefix(other)).toBe(prefix(fresh));
    expect(other.system[1]!.text).not.toBe(fresh.system[1]!.text);
    expect(other.system[1]!.text).toContain("Use tabs.");
    expect(other.system[1]!.text).toContain("deploy: Ship it");
  });
});

describe("project instructions", () => {
  test("come from the user's config, then the git root down to cwd, nearest last; nothing above the root", () => {
    const outer = tempDir();
    writeFileSync(join(outer, "AGENTS.md"), "OUTSIDE THE REPO");
    const repo = join(outer, "repo");
    mkdirSync(join(repo, "pkg", "sub"), { recursive: true });
    sh(repo, "git", "init", "-q");
    writeFileSync(join(repo, "AGENTS.md"), "root agents");
    writeFileSync(join(repo, "pkg", "CLAUDE.md"), "pkg claude");
    writeFileSync(join(repo, "pkg", "AGENTS.md"), "pkg claude"); // same text: kept once
    const config = tempDir();
    writeFileSync(join(config, "AGENTS.md"), "my global rules");
    const got = loadProjectInstructions(join(repo, "pkg", "sub"), { configDir: config });
    expect(got.map((i) => i.content)).toEqual(["my global rules", "root agents", "pkg claude"]);
    expect(got[1]!.path).toBe(join(repo, "AGENTS.md"));
  });

  test("outside a git repository only cwd is searched", () => {
    const outer = tempDir();
    writeFileSync(join(outer, "AGENTS.md"), "parent");
    const cwd = join(outer, "here");
    mkdirSync(cwd);
    writeFileSync(join(cwd, "CLAUDE.md"), "here");
    expect(loadProjectInstructions(cwd, { configDir: tempDir() }).map((i) => i.content)).toEqual(["here"]);
  });
});

describe("git status summary", () => {
  test("names the branch, the changed files (bounded) and recent commits", () => {
    const repo = gitRepo({ "a.txt": "a" });
    writeFileSync(join(repo, "a.txt"), "changed");
    for (let i = 0; i < 40; i++) writeFileSync(join(repo, `new${String(i).padStart(2, "0")}.txt`), "n");
    const s = gitStatusSummary(repo);
    expect(s).toContain("Branch: main");
    expect(s).toContain(" M a.txt");
    expect(s).toContain("Changed files (41):");
    expect(s).toContain("... and 11 more");
    expect(s).toContain("initial commit");
  });

  test("is null outside a repository", () => {
    expect(gitStatusSummary(tempDir())).toBeNull();
  });
});
