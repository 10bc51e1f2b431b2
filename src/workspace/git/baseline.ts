// What the repository looked like when the session started: root, branch, HEAD, and every file that
// differed from HEAD with its content hash. Read from the shadow snapshot, so recording it needs no
// `git status` (which may refresh and rewrite the user's index).
import { gitMaybe } from "./run-git.ts";
import type { ShadowRepo, UserRepository } from "./shadow-repo.ts";
import { EMPTY_TREE } from "./tree-changes.ts";

/** The shape of SessionHeader.git. */
export type GitBaseline = {
  root: string;
  branch: string | null;
  head: string | null;
  /** Files that differ from HEAD (staged, unstaged or untracked); hash null when deleted. */
  dirty: Array<{ path: string; hash: string | null }>;
};

export async function recordBaseline(user: UserRepository, shadow: ShadowRepo, startTree: string): Promise<GitBaseline> {
  const opts = { cwd: user.root };
  const branch = await gitMaybe(["symbolic-ref", "--short", "-q", "HEAD"], opts);
  const head = await gitMaybe(["rev-parse", "-q", "--verify", "HEAD^{commit}"], opts);
  const headTree = head ? await gitMaybe(["rev-parse", `${head}^{tree}`], opts) : null;
  const changes = await shadow.changes(headTree ?? EMPTY_TREE, startTree);
  return {
    root: user.root,
    branch: branch || null,
    head: head || null,
    dirty: changes.map((c) => ({ path: c.path, hash: c.after?.id ?? null })),
  };
}
