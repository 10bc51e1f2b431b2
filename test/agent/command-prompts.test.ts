// /init's and /review's prompts, built from real directories and real git repositories.
import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initPrompt, reviewPrompt, REVIEW_DIFF_LIMIT } from "../../src/agent/command-prompts.ts";
import { tempProject } from "../support/cli.ts";

const prompt = (r: { prompt: string } | { message: string }) => ("prompt" in r ? r.prompt : `MESSAGE: ${r.message}`);

function repo(): string {
  const dir = tempProject();
  const g = (...args: string[]) => {
    const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  };
  g("init", "-q");
  writeFileSync(join(dir, "a.ts"), "export const a = 1;\n");
  g("add", ".");
  g("commit", "-qm", "first");
  writeFileSync(join(dir, "a.ts"), "export const a = 2;\n");
  g("commit", "-qam", "second");
  return dir;
}

test("/init in an empty directory (or one with only .git) says so and sends nothing", () => {
  const dir = tempProject();
  mkdirSync(join(dir, ".git"));
  const r = initPrompt(dir);
  expect("message" in r && r.message).toContain("is empty: there is nothing to study");
});

test("/init writes AGENTS.md when there is none, and updates an existing CLAUDE.md or AGENTS.md instead of adding one", () => {
  const dir = tempProject();
  writeFileSync(join(dir, "main.go"), "package main\n");
  writeFileSync(join(dir, ".cursorrules"), "tabs\n");
  const fresh = prompt(initPrompt(dir));
  expect(fresh.split("\n")[0]).toBe("/init: study this repository and write AGENTS.md at its root");
  expect(fresh).toContain("create ./AGENTS.md with the write tool");
  expect(fresh).toContain("found: .cursorrules");
  expect(fresh).not.toContain("{{");

  writeFileSync(join(dir, "CLAUDE.md"), "# old\n");
  const claude = prompt(initPrompt(dir));
  expect(claude.split("\n")[0]).toBe("/init: study this repository and update its CLAUDE.md");
  expect(claude).toContain("Do not create AGENTS.md or any second instruction file");
});

test("/review alone: the work tree's diff against HEAD, untracked files by name; nothing to review says so", async () => {
  const dir = repo();
  expect(prompt(await reviewPrompt(dir, ""))).toContain("MESSAGE: /review: nothing to review");
  writeFileSync(join(dir, "a.ts"), "export const a = 3;\n");
  writeFileSync(join(dir, "new.ts"), "x\n");
  const p = prompt(await reviewPrompt(dir, ""));
  expect(p.split("\n")[0]).toContain("/review: review the uncommitted changes");
  expect(p).toContain("-export const a = 2;\n+export const a = 3;");
  expect(p).toContain("New files git does not track yet (not in the diff; read them): new.ts");
});

test("/review REF: that diff; a bad ref or an option is a clear message; outside git too", async () => {
  const dir = repo();
  const p = prompt(await reviewPrompt(dir, "HEAD~1..HEAD"));
  expect(p).toContain("git diff HEAD~1..HEAD");
  expect(p).toContain("-export const a = 1;\n+export const a = 2;");
  expect(prompt(await reviewPrompt(dir, "--output=/tmp/x"))).toContain("MESSAGE: /review takes a git ref or range");
  expect(prompt(await reviewPrompt(dir, "no-such-branch"))).toContain("MESSAGE: /review could not get the diff of no-such-branch");
  expect(prompt(await reviewPrompt(tempProject(), ""))).toContain("is not in a git repository");
});

test("a diff longer than the limit is cut, and the model is told how to read the rest", async () => {
  const dir = repo();
  writeFileSync(join(dir, "a.ts"), "x".repeat(REVIEW_DIFF_LIMIT + 10) + "\n");
  const p = prompt(await reviewPrompt(dir, ""));
  expect(p).toContain(`cut at ${REVIEW_DIFF_LIMIT.toLocaleString("en-US")} of its`);
  expect(p.length).toBeLessThan(REVIEW_DIFF_LIMIT + 5000);
});
