// Commands the model runs never wait for a pager, a prompt or an editor nobody sees. In bash (a
// pipe) and in the process tool's terminal, where a pager would start and wait for keys forever.
// A real git repository whose config asks for `less` and `vim`, real man pages.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { leftovers, makeHarness, type Harness } from "./harness.ts";

let h: Harness;
beforeAll(() => {
  h = makeHarness("khaelor-env-");
  const git = (...args: string[]) => execFileSync("git", args, { cwd: h.dir, stdio: "ignore" });
  git("init", "-q");
  git("config", "user.email", "t@example.com");
  git("config", "user.name", "T");
  // What a user's config often says: both would wait for a human.
  git("config", "core.pager", "less");
  git("config", "core.editor", "vim");
  writeFileSync(join(h.dir, "a.txt"), "one\n");
  git("add", "a.txt");
  git("commit", "-q", "-m", "first commit");
  writeFileSync(join(h.dir, "a.txt"), "one\ntwo\n");
});
afterAll(() => h.cleanup());

describe("commands do not page, prompt or open editors", () => {
  test("bash: git log, git diff and man return; git commit without -m does not open vim", async () => {
    const env = await h.call("bash", { command: "echo $PAGER $GIT_PAGER $MANPAGER $GIT_EDITOR $GIT_TERMINAL_PROMPT" });
    expect(env.text).toStartWith("cat cat cat true 0\n");
    const log = await h.call("bash", { command: "git log", timeout: 20_000 });
    expect(log.isError).toBe(false);
    expect(log.text).toContain("first commit");
    const diff = await h.call("bash", { command: "git diff", timeout: 20_000 });
    expect(diff.text).toContain("+two");
    const man = await h.call("bash", { command: "man ls", timeout: 20_000 });
    expect(man.isError).toBe(false);
    expect(man.text).toMatch(/list directory contents/);
    const commit = await h.call("bash", { command: "git commit -a", timeout: 20_000 });
    expect(commit.text).not.toContain("timed out");
    expect(commit.text).toContain("Aborting commit due to empty commit message");
    expect(await leftovers(h.dir)).toEqual([]);
  });

  test("process tool: in a terminal, git log and man print and exit instead of starting a pager", async () => {
    for (const [name, command, expected] of [
      ["log", "git log", "first commit"],
      ["diff", "git diff", "+two"],
      ["man", "man ls", "list directory contents"],
    ] as const) {
      await h.call("process", { action: "start", name, command });
      const r = await h.call("process", { action: "read", id: name, wait_for: "never printed", timeout: 20_000 });
      expect(r.text).toContain(expected);
      expect(r.text).toContain(`${name} (p`);
      expect(r.text).toContain("exited with code 0");
    }
    h.ws.processes.takeExitNotices();
  });
});
