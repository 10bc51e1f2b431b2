// Real git repositories and directories in temp dirs for the snapshot tests, and the shell the
// tests change them with (a real bash process, as the agent's bash tool is).
import { afterEach } from "bun:test";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const temps: string[] = [];
afterEach(() => {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true });
});

export function tempDir(): string {
  const d = realpathSync(mkdtempSync(join(tmpdir(), "khaelor-git-")));
  temps.push(d);
  return d;
}

export function sh(cwd: string, script: string): string {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: cwd, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@t", GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@t" };
  const r = Bun.spawnSync(["bash", "-c", script], { cwd, env });
  if (r.exitCode !== 0) throw new Error(`${script}: ${r.stderr.toString()}`);
  return r.stdout.toString().trim();
}

export function write(root: string, rel: string, text: string): void {
  mkdirSync(join(root, rel, ".."), { recursive: true });
  writeFileSync(join(root, rel), text);
}
export const read = (root: string, rel: string) => readFileSync(join(root, rel), "utf8");

/** Everything a user could notice about their repository's git state. */
export function userGitState(root: string) {
  return {
    index: readFileSync(join(root, ".git", "index")).toString("base64"),
    indexMtime: statSync(join(root, ".git", "index")).mtimeMs,
    refs: sh(root, "git for-each-ref --format='%(refname) %(objectname)'; git rev-parse HEAD; git symbolic-ref HEAD"),
    stash: sh(root, "git stash list"),
    objects: sh(root, "git rev-list --all | wc -l"),
    // optional locks off, or this very `git status` would refresh the index it is checking
    status: sh(root, "GIT_OPTIONAL_LOCKS=0 git status --porcelain=v1 --untracked-files=all"),
  };
}

export function makeRepo(): string {
  const root = tempDir();
  sh(root, "git init -q -b main . && git config user.name t && git config user.email t@t");
  write(root, "a.txt", "a1\n");
  write(root, "b.txt", "b1\n");
  write(root, "dir/c.txt", "c1\n");
  write(root, "run.sh", "#!/bin/sh\necho hi\n");
  chmodSync(join(root, "run.sh"), 0o755);
  write(root, ".gitignore", "node_modules/\n");
  sh(root, "git add -A && git commit -q -m init");
  // the user's own uncommitted work: one staged edit, one untracked file
  write(root, "a.txt", "a1 staged\n");
  sh(root, "git add a.txt");
  write(root, "notes.md", "mine\n");
  return root;
}

