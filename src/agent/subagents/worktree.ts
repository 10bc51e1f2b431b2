// isolation "worktree": the child works in a temporary git worktree of the project on a branch of
// its own, made from HEAD, in .claude/worktrees/ (where Claude Code keeps its own; no tool may
// write in .khaelor/). Kept, with its branch named, when the child changed something (the parent
// merges it or not); removed with its branch when not. A project that is not a git
// repository, has no commit, or has staged changes (the worktree would not hold them) gets no
// worktree and the call an error saying why.
import { join, relative } from "node:path";
import { excludeFromGit } from "../../permissions/index.ts";
import { git, gitMaybe } from "../../workspace/git/run-git.ts";

export type Worktree = { path: string; branch: string; root: string };

export async function makeWorktree(cwd: string, tag: string): Promise<Worktree | { error: string }> {
  const root = await gitMaybe(["rev-parse", "--show-toplevel"], { cwd });
  if (!root) return { error: `${cwd} is not in a git repository, so there is no worktree to isolate the agent in` };
  if ((await gitMaybe(["rev-parse", "--verify", "-q", "HEAD"], { cwd })) === null) return { error: "the repository has no commit yet, so there is nothing to make a worktree from" };
  const staged = await gitMaybe(["diff", "--cached", "--name-only"], { cwd });
  if (staged) return { error: `the index has staged changes (${staged.split("\n").slice(0, 3).join(", ")}${staged.split("\n").length > 3 ? ", …" : ""}), which a worktree made from HEAD would not have; commit or unstage them first` };
  const short = tag.replace(/[^A-Za-z0-9]/g, "").slice(-8) || Date.now().toString(36);
  const branch = `khaelor/agent-${short}`;
  // Inside the project, so the session's permission rules
  // cover the child's files as they cover the project's; kept out of git's status.
  const base = join(root, ".claude", "worktrees");
  const path = join(base, `agent-${short}`);
  excludeFromGit(base);
  try {
    await git(["worktree", "add", "-q", "-b", branch, path, "HEAD"], { cwd: root });
  } catch (e) {
    return { error: `git worktree add failed: ${e instanceof Error ? e.message : String(e)}` };
  }
  // The child starts where the parent is inside the repository.
  return { path: join(path, relative(root, cwd)), branch, root: path };
}

/** Keeps the worktree if the child changed anything in it (files or commits), else removes it and its branch. */
export async function settleWorktree(cwd: string, tree: Worktree): Promise<{ path: string; branch: string; note: string } | null> {
  const status = await gitMaybe(["status", "--porcelain"], { cwd: tree.root });
  const ahead = await gitMaybe(["rev-list", "--count", `HEAD..${tree.branch}`], { cwd });
  const changed = status === null || status !== "" || (ahead !== null && ahead !== "0");
  if (changed) return { path: tree.root, branch: tree.branch, note: `Its changes are kept in the worktree ${tree.root} on branch ${tree.branch} (not merged).` };
  await gitMaybe(["worktree", "remove", "--force", tree.root], { cwd });
  await gitMaybe(["branch", "-D", tree.branch], { cwd });
  return null;
}
