// A git repository of KHAELOR's own that records the user's work tree as tree objects, without ever
// writing to the user's .git: its GIT_DIR and index live under KHAELOR's data directory, and it
// borrows the user's objects through alternates, so unchanged files cost nothing to store. Seeding
// its index from a copy of the user's index lets the first snapshot of a large repository reuse the
// stat data git already has, hashing only files that changed.
import { LIMITS, readTextIfExists } from "../safe-read.ts";
import { copyFileSync, existsSync, mkdirSync, readdirSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { git, gitMaybe } from "./run-git.ts";
import { parseRawDiff, type TreeChange } from "./tree-changes.ts";

export type ShadowRepoOptions = {
  /** The directory recorded: the user's repository root, or the project directory outside git. */
  workTree: string;
  /** The user's repository, when there is one: objects are borrowed from it, its index copied once. */
  user: UserRepository | null;
  gitDir: string;
  /** This session's index file inside gitDir (sessions share the objects, not the index). */
  indexName?: string;
};

const SHADOW_CONFIG: Array<[string, string]> = [
  ["core.bare", "false"],
  ["core.autocrlf", "false"],
  ["core.safecrlf", "false"],
  ["core.fsmonitor", "false"],
  ["core.quotepath", "false"],
  ["core.symlinks", "true"],
  ["gc.auto", "0"], // snapshot trees are unreferenced; never let gc prune them
  ["advice.addEmbeddedRepo", "false"],
  ["advice.addIgnoredFile", "false"],
];

export class ShadowRepo {
  private constructor(private opts: ShadowRepoOptions) {}

  static async open(opts: ShadowRepoOptions): Promise<ShadowRepo> {
    const repo = new ShadowRepo(opts);
    if (!existsSync(join(opts.gitDir, "HEAD"))) {
      mkdirSync(opts.gitDir, { recursive: true });
      // no template: nothing of the user's template directory (hooks) comes along
      await git(["init", "-q", "--template="], { cwd: opts.workTree, env: { GIT_DIR: opts.gitDir } });
      for (const [k, v] of SHADOW_CONFIG) await git(["config", k, v], { cwd: opts.workTree, env: { GIT_DIR: opts.gitDir } });
    }
    repo.linkUserRepository();
    return repo;
  }

  private get indexFile(): string {
    return join(this.opts.gitDir, this.opts.indexName ?? "index");
  }

  private get env(): Record<string, string> {
    return { GIT_DIR: this.opts.gitDir, GIT_WORK_TREE: this.opts.workTree, GIT_INDEX_FILE: this.indexFile };
  }

  private run(args: string[], extra: { env?: Record<string, string>; stdin?: string | Uint8Array; allowExit?: number[] } = {}): Promise<string> {
    return git(args, {
      cwd: this.opts.workTree,
      env: { ...this.env, ...extra.env },
      ...(extra.stdin !== undefined ? { stdin: extra.stdin } : {}),
      ...(extra.allowExit ? { allowExit: extra.allowExit } : {}),
    });
  }

  /** Alternates, the user's excludes, and a first index copied from the user's (read, never written). */
  private linkUserRepository(): void {
    const info = join(this.opts.gitDir, "info");
    mkdirSync(info, { recursive: true });
    mkdirSync(join(this.opts.gitDir, "objects", "info"), { recursive: true });
    // The work tree's .gitattributes may name a filter driver (the user's own, as git-lfs, or one
    // a repository's config defines): `add` would run its clean command on every snapshot and
    // checkout-index its smudge on /undo. info/attributes outranks every other attributes file,
    // and `!filter` leaves the attribute unspecified: snapshots hold the bytes on disk, and /undo
    // writes back exactly those.
    writeFileSync(join(info, "attributes"), "* !filter\n");
    const excludes: string[] = [];
    const user = this.opts.user;
    if (user) {
      writeFileSync(join(this.opts.gitDir, "objects", "info", "alternates"), join(user.commonDir, "objects") + "\n");
      const userExclude = join(user.commonDir, "info", "exclude");
      const text = readTextIfExists(userExclude, LIMITS.smallConfig);
      if (text !== null) excludes.push(text);
    }
    // A new session's index starts from the freshest one we know (an earlier session's here, else
    // the user's): its stat data lets the first snapshot hash only the files that changed since.
    if (!existsSync(this.indexFile)) {
      const seed = newestIndex(this.opts.gitDir) ?? (user && existsSync(join(user.gitDir, "index")) ? join(user.gitDir, "index") : null);
      if (seed) {
        try {
          copyFileSync(seed, this.indexFile);
        } catch {
          // the seed is being rewritten right now; the first snapshot just hashes more
        }
      }
    }
    // KHAELOR's own settings (rules the user saved with "allow always") are not the agent's work:
    // /diff must not list them, /undo must not take them back.
    excludes.push("/.khaelor/");
    const rel = relative(this.opts.workTree, this.opts.gitDir);
    if (rel !== "" && !rel.startsWith("..") && !isAbsolute(rel)) excludes.push(`/${rel.split("\\").join("/")}/`);
    writeFileSync(join(info, "exclude"), excludes.join("\n") + "\n");
  }

  /** Record the work tree as it is now; returns the tree id. */
  async snapshot(): Promise<string> {
    // Streaming new blobs into one pack per snapshot instead of a loose file per blob: ~10× faster
    // where creating files is slow (a first snapshot outside git writes every file). Only for add:
    // set in config it would also make /diff treat every file as binary.
    const add = ["-c", "core.bigFileThreshold=1", "add", "-A", "--ignore-errors", "--", "."];
    try {
      await this.skipGitlinks();
      await this.run(add);
    } catch (e) {
      // A copied index git cannot use (split index, newer format): start from an empty one.
      const index = this.indexFile;
      if (!existsSync(index)) throw e;
      unlinkSync(index);
      await this.run(add);
    }
    return (await this.run(["write-tree"])).trim();
  }

  /**
   * A submodule, or any repository nested in the work tree, is a gitlink in the index, and `add -A`
   * asks `git status` inside it whether it has changes: a git run with that repository's own
   * config, out of reach of ours, which would run the filters its attributes name. Marked
   * skip-worktree, a gitlink is left alone by add: snapshots keep the commit it had when first
   * seen. Nothing is lost to /undo, which never could move a submodule (checkout-index skips
   * gitlinks); /diff no longer shows a submodule's commit move.
   */
  private async skipGitlinks(): Promise<void> {
    if (!existsSync(this.indexFile)) return;
    // "<tag> <mode> <id> <stage>\t<path>": tag S is skip-worktree already
    const entries = (await this.run(["ls-files", "-s", "-t", "-z"])).split("\0");
    const fresh = entries.filter((e) => e.slice(1, 9) === " 160000 " && e[0] !== "S").map((e) => e.slice(e.indexOf("\t") + 1));
    if (fresh.length > 0) await this.run(["update-index", "--skip-worktree", "-z", "--stdin"], { stdin: fresh.join("\0") + "\0" });
  }

  /**
   * Make later snapshots cover `rel` (a path relative to the work tree, "/"-separated) although
   * git ignores it: a file the agent changed must be undoable, .env or not. Once in the index it
   * stays tracked by every `add -A`. False when snapshots covered it already.
   */
  async adopt(rel: string): Promise<boolean> {
    const literal = { GIT_LITERAL_PATHSPECS: "1" };
    if ((await this.run(["ls-files", "-z", "--", rel], { env: literal })) !== "") return false;
    // check-ignore prints the path when ignored and exits 1 when not (paths on stdin are literal).
    if ((await this.run(["check-ignore", "-z", "--stdin"], { stdin: `${rel}\0`, allowExit: [1] })) === "") return false;
    if (existsSync(join(this.opts.workTree, rel))) await this.run(["add", "-f", "--", rel], { env: literal });
    return true;
  }

  /** The session's index goes with the session; the objects stay, shared by the project's sessions. */
  dropIndex(): void {
    rmSync(this.indexFile, { force: true });
  }

  /** `tree` with `rel` holding `bytes`; returns the new tree id. */
  async treeWith(tree: string, rel: string, bytes: Uint8Array, executable: boolean): Promise<string> {
    const env = { GIT_INDEX_FILE: join(this.opts.gitDir, `adopt-index-${process.pid}`), GIT_LITERAL_PATHSPECS: "1" };
    try {
      await this.run(["read-tree", tree], { env });
      const blob = (await this.run(["hash-object", "-w", "--stdin"], { env, stdin: bytes })).trim();
      await this.run(["update-index", "--add", "--cacheinfo", `${executable ? "100755" : "100644"},${blob},${rel}`], { env });
      return (await this.run(["write-tree"], { env })).trim();
    } finally {
      rmSync(env.GIT_INDEX_FILE, { force: true });
    }
  }

  async changes(from: string, to: string, paths?: string[]): Promise<TreeChange[]> {
    const args = ["diff-tree", "-r", "-z", "--raw", "--no-renames", "--no-commit-id", from, to];
    if (paths) {
      if (paths.length === 0) return [];
      return parseRawDiff(await this.run([...args, "--", ...paths], { env: { GIT_LITERAL_PATHSPECS: "1" } }));
    }
    return parseRawDiff(await this.run(args));
  }

  /** A unified diff between two trees (renames detected), for /diff. */
  patch(from: string, to: string): Promise<string> {
    return this.run(["diff-tree", "-p", "-M", "--no-color", "--no-commit-id", from, to]);
  }

  /**
   * Write the given paths into the work tree exactly as they are in `tree` (content, mode, symlinks),
   * through a throwaway index so neither our snapshot index nor the user's is involved.
   */
  async checkout(tree: string, paths: string[]): Promise<void> {
    if (paths.length === 0) return;
    const tmpIndex = join(this.opts.gitDir, `undo-index-${process.pid}`);
    try {
      await this.run(["read-tree", tree], { env: { GIT_INDEX_FILE: tmpIndex } });
      await this.run(["checkout-index", "-f", "-z", "--stdin"], { env: { GIT_INDEX_FILE: tmpIndex }, stdin: paths.join("\0") + "\0" });
    } finally {
      rmSync(tmpIndex, { force: true });
    }
  }

  get workTree(): string {
    return this.opts.workTree;
  }
}

function newestIndex(gitDir: string): string | null {
  let best: { path: string; mtime: number } | null = null;
  for (const name of readdirSync(gitDir)) {
    if ((name !== "index" && !name.startsWith("index-")) || name.endsWith(".lock")) continue;
    const path = join(gitDir, name);
    const mtime = statSync(path).mtimeMs;
    if (!best || mtime > best.mtime) best = { path, mtime };
  }
  return best?.path ?? null;
}

export type UserRepository = { root: string; gitDir: string; commonDir: string };

/** The user's repository around `dir` (top level, git dir, common dir for worktrees), or null outside git. */
export async function findUserRepository(dir: string): Promise<UserRepository | null> {
  const out = await gitMaybe(["rev-parse", "--show-toplevel", "--absolute-git-dir", "--git-common-dir"], { cwd: dir });
  if (!out) return null;
  const [root, gitDir, common] = out.split("\n");
  if (!root || !gitDir || !common) return null;
  return { root, gitDir, commonDir: resolve(dir, common) };
}
