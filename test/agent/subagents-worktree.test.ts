// isolation "worktree" with a real git repository: the child works on a branch of its own in a
// worktree; kept (branch named in the result) when it changed something, removed when not; a
// project that is not a repository, or has staged changes, gets an error result saying why.
import { expect, test } from "bun:test";
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readSessionLog } from "../../src/session/log.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

function committedProject(): string {
  const dir = gitProject();
  writeFileSync(join(dir, "a.txt"), "a\n");
  execSync("git add a.txt && git -c user.name=t -c user.email=t@t commit -qm init", { cwd: dir });
  return dir;
}

const call = (id: string, tag: string) => ({ type: "tool_use" as const, id, name: "agent", input: { description: tag, prompt: `${tag}: work`, isolation: "worktree" } });

test("a child that writes keeps its worktree and names its branch; one that changes nothing leaves none", async () => {
  await inIsolatedHome(async () => {
    const dir = committedProject();
    const api = await serve({
      turns: [
        { content: [call("toolu_w1", "CHILD-W")] },
        { content: [call("toolu_w2", "CHILD-N")], expect: { lastHasToolResult: { isError: false, contentMatches: "kept in the worktree .* on branch khaelor/agent-" } } },
        { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: false, contentMatches: "^NOTHING" } } },
      ],
      routes: [
        { firstMessage: "^CHILD-W:", turns: [{ content: [{ type: "tool_use", name: "write", input: { file_path: "new.txt", content: "from the child\n" } }] }, { content: [{ type: "text", text: "WROTE" }] }] },
        { firstMessage: "^CHILD-N:", turns: [{ content: [{ type: "text", text: "NOTHING" }] }] },
      ],
    });
    const session = await openOn(api, dir, { permissionMode: "acceptEdits" });
    try {
      await session.runTurn("go", signal());
      expect(api.checkFailures).toEqual([]);
      // The parent's tree is untouched; the child's file is in its worktree, on its branch.
      expect(existsSync(join(dir, "new.txt"))).toBe(false);
      const ends = readSessionLog(session.logPath).events.filter((e) => e.type === "agent_end");
      const kept = ends[0]?.type === "agent_end" ? ends[0].worktree : undefined;
      expect(kept?.branch).toMatch(/^khaelor\/agent-/);
      expect(existsSync(join(kept!.path, "new.txt"))).toBe(true);
      expect(execSync("git branch --list 'khaelor/*'", { cwd: dir, encoding: "utf8" }).trim().split("\n").length).toBe(1);
      expect(ends[1]?.type === "agent_end" && ends[1].worktree).toBeFalsy();
      // Only the kept worktree is left, and git's status of the project does not show it.
      expect(execSync("git worktree list", { cwd: dir, encoding: "utf8" }).trim().split("\n").length).toBe(2);
      expect(execSync("git status --porcelain", { cwd: dir, encoding: "utf8" })).toBe("");
    } finally {
      await session.close();
    }
  });
});

test("no worktree outside a git repository or with staged changes: an error result saying why", async () => {
  await inIsolatedHome(async () => {
    const plain = mkdtempSync(join(tmpdir(), "khaelor-plain-"));
    const api = await serve({
      turns: [{ content: [call("toolu_x", "CHILD-X")] }, { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: true, contentMatches: "not in a git repository" } } }],
    });
    const s1 = await openOn(api, plain);
    try {
      await s1.runTurn("go", signal());
      expect(api.checkFailures).toEqual([]);
    } finally {
      await s1.close();
    }
    const dir = committedProject();
    writeFileSync(join(dir, "a.txt"), "changed\n");
    execSync("git add a.txt", { cwd: dir });
    const api2 = await serve({
      turns: [{ content: [call("toolu_y", "CHILD-Y")] }, { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: true, contentMatches: "the index has staged changes \\(a.txt\\)" } } }],
    });
    const s2 = await openOn(api2, dir);
    try {
      await s2.runTurn("go", signal());
      expect(api2.checkFailures).toEqual([]);
      expect(api2.requests.some((q) => q.route !== undefined)).toBe(false);
    } finally {
      await s2.close();
    }
  });
});
