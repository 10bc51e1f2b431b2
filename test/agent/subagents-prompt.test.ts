// A child's system prompt: its definition's body, then what the main prompt knows of the project,
// the instruction files (CLAUDE.md, AGENTS.md) and the git status, as Claude Code gives its
// subagents; Explore and Plan leave both out (as Claude Code's do: they only look around).
import { expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

const use = (id: string, type: string, prompt: string) => ({ type: "tool_use" as const, id, name: "agent", input: { description: type, prompt, subagent_type: type } });
type Body = { system: Array<{ text: string }> };
const systemOf = (r: { body: unknown }) => (r.body as Body).system.map((b) => b.text).join("\n");

test("a general-purpose or custom child's system prompt has the project's instruction files and git status; Explore's has neither", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    writeFileSync(join(dir, "CLAUDE.md"), "Always answer in haiku. MARK-CLAUDE\n");
    writeFileSync(join(dir, "AGENTS.md"), "Tabs, never spaces. MARK-AGENTS\n");
    writeFileSync(join(dir, "untracked.txt"), "x\n");
    const api = await serve({
      turns: [{ content: [use("toolu_a", "general-purpose", "CHILD-GP: go"), use("toolu_b", "mine", "CHILD-MINE: go"), use("toolu_c", "Explore", "CHILD-EX: go")] }, { content: [{ type: "text", text: "done" }] }],
      routes: [
        { firstMessage: "^CHILD-GP:", turns: [{ content: [{ type: "text", text: "ok" }] }] },
        { firstMessage: "^CHILD-MINE:", turns: [{ content: [{ type: "text", text: "ok" }] }] },
        { firstMessage: "^CHILD-EX:", turns: [{ content: [{ type: "text", text: "ok" }] }] },
      ],
    });
    const session = await openOn(api, dir, { agents: [{ name: "mine", description: "my own", prompt: "You are mine. MARK-BODY", disallowedTools: [], source: "session" }] });
    try {
      await session.runTurn("go", signal());
      expect(api.checkFailures).toEqual([]);
      const [gp, mine, ex] = [0, 1, 2].map((route) => systemOf(api.requests.find((q) => q.route === route)!));
      for (const s of [gp!, mine!]) {
        expect(s).toContain("MARK-CLAUDE");
        expect(s).toContain("MARK-AGENTS");
        expect(s).toContain(`# Instructions from ${join(dir, "CLAUDE.md")}`);
        expect(s).toMatch(/# Git status[^\n]*\nBranch: /);
        expect(s).toContain("?? untracked.txt");
        expect(s).toContain(`Working directory: ${dir}`);
      }
      expect(mine!.startsWith("You are mine. MARK-BODY")).toBe(true);
      expect(ex).not.toContain("MARK-CLAUDE");
      expect(ex).not.toContain("# Git status");
      expect(ex).toContain(`Working directory: ${dir}`);
    } finally {
      await session.close();
    }
  });
}, 60_000);
