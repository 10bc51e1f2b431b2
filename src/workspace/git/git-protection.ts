// Turn-by-turn protection of the work tree: a snapshot before and after every agent turn, /diff
// against the session start (or any snapshot), and /undo that puts back what the last turn changed,
// by any means (tools or bash), while leaving alone what the user changed since.
import { LIMITS, readRegularText } from "../safe-read.ts";
import { existsSync, mkdirSync, readdirSync, realpathSync, rmdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { recordBaseline, type GitBaseline } from "./baseline.ts";
import { findUserRepository, ShadowRepo } from "./shadow-repo.ts";
import { planRewind } from "./rewind-plan.ts";
import type { TreeChange } from "./tree-changes.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../../platform/private-files.ts";

export type GitProtectionOptions = {
  projectRoot: string;
  /**
   * KHAELOR's data directory for this project. The shadow repository lives here, shared by the
   * project's sessions so its objects are stored once; each session has its own index and turns.
   */
  dataDir: string;
  /** Names this session's index and turn history inside dataDir. */
  sessionId?: string;
  /** Continue the turn history saved in dataDir (for --resume) instead of starting afresh. */
  resume?: boolean;
};

export type FileChange = { path: string; status: TreeChange["status"] };

export type UndoResult = {
  /** The snapshot the work tree was restored to (UndoEvent.snapshot). */
  snapshot: string;
  /** Paths put back (rewritten, recreated or removed). */
  restored: string[];
  /** Those of `restored` that were removed: the agent's turn had created them. */
  removed: string[];
  /** Paths left as they are, and why (the user changed them after the turn, or the write failed). */
  skipped: Array<{ path: string; reason: string }>;
};

export interface GitProtection {
  /** Why snapshots are off (a huge directory outside git, the home directory); null when they work. */
  readonly unavailable: string | null;
  /** The directory snapshots cover: the repository root, or the project directory outside git. */
  readonly workTree: string;
  /** Null outside a git repository. */
  readonly baseline: GitBaseline | null;
  /** The tree recorded when the session started. */
  readonly sessionStart: string;
  /** Record the work tree now; returns the tree id. */
  snapshot(): Promise<string>;
  /** Call before an agent turn runs; returns the snapshot. `message`: the id of the user message that starts it (for rewind). */
  beginTurn(message?: string): Promise<string>;
  /** Call when the agent turn ends (TurnEndEvent.snapshot). */
  endTurn(): Promise<string>;
  /** What changed since `from` (default: the session start) up to now. */
  diff(from?: string): Promise<{ patch: string; files: FileChange[] }>;
  /** Undo the last agent turn not yet undone; null when there is none. */
  undo(): Promise<UndoResult | null>;
  /**
   * Rewind: the work tree back to before the first turn started by one of `messages` (the target
   * message and every one logged after it), every later turn with it; what the user changed after
   * the agent stays and is reported. Null when no turn since changed anything.
   */
  rewind(messages: readonly string[]): Promise<UndoResult | null>;
  /** How many turns /undo can still go back. */
  undoableTurns(): number;
  /**
   * A tool changed `abs`, which held `before` (null: it did not exist). Snapshots skip what git
   * ignores; from now on they cover this file, and the open turn's "before" gets its old content.
   */
  adopt(abs: string, before: Uint8Array | null): Promise<void>;
  /** The session is being thrown away (nothing was said in it): drop its index and turn list. */
  forget(): void;
}

type Turn = { before: string; after: string | null; message?: string };
type State = { sessionStart: string; turns: Turn[] };

/**
 * Outside git every file is hashed on the first snapshot (~130 µs each) and nothing is ignored, so
 * a session started in ~ or a directory of build outputs would stall. Above this many files we
 * switch snapshots off and say so, rather than make the user wait.
 */
export const PLAIN_DIRECTORY_FILE_LIMIT = 5_000;

export async function createGitProtection(opts: GitProtectionOptions): Promise<GitProtection> {
  try {
    return await openProtection(opts);
  } catch (e) {
    // No git on this machine, or a shadow repository git cannot use: work on, without undo.
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return new NoProtection(resolve(opts.projectRoot), `snapshots need git, and it failed: ${why}`);
  }
}

async function openProtection(opts: GitProtectionOptions): Promise<GitProtection> {
  const projectRoot = resolve(opts.projectRoot);
  const user = await findUserRepository(projectRoot);
  if (!user) {
    const why = plainDirectoryProblem(projectRoot);
    if (why) return new NoProtection(projectRoot, why);
  }
  const workTree = user?.root ?? projectRoot;
  ensurePrivateDir(opts.dataDir);
  const session = (opts.sessionId ?? "session").replace(/[^\w.-]/g, "_");
  const shadow = await ShadowRepo.open({ workTree, user, gitDir: join(opts.dataDir, "shadow.git"), indexName: `index-${session}` });
  const stateFile = join(opts.dataDir, `turns-${session}.json`);
  let state: State | null = null;
  if (opts.resume && existsSync(stateFile)) {
    try {
      state = JSON.parse(readRegularText(stateFile, LIMITS.sessionMeta * 64)) as State;
    } catch {
      state = null;
    }
  }
  const start = state?.sessionStart ?? (await shadow.snapshot());
  state ??= { sessionStart: start, turns: [] };
  const baseline = user ? await recordBaseline(user, shadow, start) : null;
  return new Protection(shadow, baseline, state, stateFile);
}

class Protection implements GitProtection {
  readonly unavailable = null;
  /** Snapshots and undo run one at a time: each reads and rewrites the shadow index. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private shadow: ShadowRepo,
    readonly baseline: GitBaseline | null,
    private state: State,
    private stateFile: string,
  ) {
    this.save();
  }

  get workTree(): string {
    return this.shadow.workTree;
  }

  get sessionStart(): string {
    return this.state.sessionStart;
  }

  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.queue.then(fn, fn);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private save(): void {
    writeFileSync(this.stateFile, JSON.stringify(this.state), { mode: PRIVATE_FILE_MODE });
  }

  snapshot(): Promise<string> {
    return this.serial(() => this.shadow.snapshot());
  }

  beginTurn(message?: string): Promise<string> {
    return this.serial(async () => {
      const before = await this.shadow.snapshot();
      this.state.turns.push({ before, after: null, ...(message ? { message } : {}) });
      this.save();
      return before;
    });
  }

  endTurn(): Promise<string> {
    return this.serial(async () => {
      const after = await this.shadow.snapshot();
      const turn = this.state.turns.at(-1);
      if (turn && turn.after === null) {
        turn.after = after;
        // a turn that changed nothing is not worth an /undo step
        if (turn.before === after) this.state.turns.pop();
        this.save();
      }
      return after;
    });
  }

  diff(from?: string): Promise<{ patch: string; files: FileChange[] }> {
    return this.serial(async () => {
      const now = await this.shadow.snapshot();
      const base = from ?? this.state.sessionStart;
      const [patch, changes] = await Promise.all([this.shadow.patch(base, now), this.shadow.changes(base, now)]);
      return { patch, files: changes.map((c) => ({ path: c.path, status: c.status })) };
    });
  }

  undoableTurns(): number {
    return this.state.turns.length;
  }

  forget(): void {
    rmSync(this.stateFile, { force: true });
    this.shadow.dropIndex();
  }

  adopt(abs: string, before: Uint8Array | null): Promise<void> {
    return this.serial(async () => {
      // The work tree is git's real path; the tool's may go through a symlink (macOS /tmp, /var).
      const rel = relative(realDir(this.workTree), join(realDir(dirname(abs)), basename(abs)));
      if (rel === "" || rel.startsWith("..") || isAbsolute(rel)) return;
      const posix = rel.split(sep).join("/");
      // .khaelor/ holds the user's saved rules: /undo must never take them back.
      if (posix === ".khaelor" || posix.startsWith(".khaelor/")) return;
      if (!(await this.shadow.adopt(posix))) return;
      // A file the tool created was in no snapshot: the older trees are right without it. One it
      // changed gets its old content into the open turn's "before" (for /undo) and into the
      // session start (so /diff shows a change, not a new file).
      if (before === null) return;
      const mode = isExecutable(abs);
      const turn = this.state.turns.at(-1);
      if (turn && turn.after === null) turn.before = await this.shadow.treeWith(turn.before, posix, before, mode);
      this.state.sessionStart = await this.shadow.treeWith(this.state.sessionStart, posix, before, mode);
      this.save();
    });
  }

  undo(): Promise<UndoResult | null> {
    return this.serial(async () => {
      const turn = this.state.turns.at(-1);
      if (!turn) return null;
      const now = await this.shadow.snapshot();
      // an interrupted turn never got its end snapshot: everything since it began is the agent's
      const after = turn.after ?? now;
      const agent = await this.shadow.changes(turn.before, after);
      const sinceTurn = new Map((await this.shadow.changes(after, now, agent.map((c) => c.path))).map((c) => [c.path, c]));
      const toCheckout: string[] = [];
      const toRemove: string[] = [];
      const skipped: UndoResult["skipped"] = [];
      for (const change of agent) {
        const later = sinceTurn.get(change.path);
        if (later) {
          const current = later.after;
          const already = current === null ? change.before === null : change.before !== null && current.id === change.before.id && current.mode === change.before.mode;
          if (!already) skipped.push({ path: change.path, reason: "changed again after the agent's turn; left as you have it" });
          continue;
        }
        if (change.before) toCheckout.push(change.path);
        else toRemove.push(change.path);
      }
      const result = await this.restore(turn.before, toCheckout, toRemove, skipped);
      this.state.turns.pop();
      this.save();
      return result;
    });
  }

  rewind(messages: readonly string[]): Promise<UndoResult | null> {
    return this.serial(async () => {
      const wanted = new Set(messages);
      const from = this.state.turns.findIndex((t) => t.message !== undefined && wanted.has(t.message));
      if (from < 0) return null;
      const turns = this.state.turns.slice(from);
      const plan = await planRewind((a, b, paths) => this.shadow.changes(a, b, paths), turns, await this.shadow.snapshot());
      const result = await this.restore(turns[0]!.before, plan.toCheckout, plan.toRemove, plan.skipped);
      this.state.turns.splice(from);
      this.save();
      return result;
    });
  }

  /** Removes `toRemove`, writes `toCheckout` back from `tree`; what failed joins `skipped`. */
  private async restore(tree: string, toCheckout: string[], toRemove: string[], skipped: UndoResult["skipped"]): Promise<UndoResult> {
    const restored: string[] = [];
    for (const path of toRemove) {
      try {
        rmSync(join(this.workTree, path), { force: true });
        removeEmptyParents(this.workTree, dirname(path));
        restored.push(path);
      } catch (e) {
        skipped.push({ path, reason: `could not remove: ${(e as Error).message}` });
      }
    }
    try {
      await this.shadow.checkout(tree, toCheckout);
      restored.push(...toCheckout);
    } catch {
      // one bad path fails the batch: retry one by one to say which
      for (const path of toCheckout) {
        try {
          await this.shadow.checkout(tree, [path]);
          restored.push(path);
        } catch (e) {
          skipped.push({ path, reason: `could not restore: ${(e as Error).message}` });
        }
      }
    }
    const removed = new Set(toRemove);
    return { snapshot: tree, restored: restored.sort(), removed: restored.filter((p) => removed.has(p)), skipped };
  }
}

/** Snapshots are off, for the reason given; every call is a cheap no-op. */
class NoProtection implements GitProtection {
  readonly baseline = null;
  readonly sessionStart = "";
  constructor(
    readonly workTree: string,
    readonly unavailable: string,
  ) {}
  snapshot = async () => "";
  beginTurn = async () => "";
  endTurn = async () => "";
  diff = async () => ({ patch: "", files: [] });
  undo = async () => null;
  rewind = async () => null;
  undoableTurns = () => 0;
  adopt = async () => {};
  forget = () => {};
}

function plainDirectoryProblem(dir: string): string | null {
  if (dir === resolve(homedir()) || dir === "/") return `${dir} is not a git repository and is too broad to snapshot`;
  const count = countFiles(dir, PLAIN_DIRECTORY_FILE_LIMIT + 1);
  if (count > PLAIN_DIRECTORY_FILE_LIMIT) return `${dir} is not a git repository and holds more than ${PLAIN_DIRECTORY_FILE_LIMIT.toLocaleString("en-US")} files (run git init to get undo)`;
  return null;
}

/** Files below `dir`, counting stops at `limit` so a huge tree costs no more than a small one. */
function countFiles(dir: string, limit: number): number {
  let count = 0;
  const stack = [dir];
  while (stack.length > 0 && count < limit) {
    let entries;
    try {
      entries = readdirSync(stack.pop()!, { withFileTypes: true });
    } catch {
      continue;
    }
    for (const e of entries) {
      if (e.isDirectory()) {
        if (e.name !== ".git") stack.push(join(e.parentPath, e.name));
      } else if (++count >= limit) break;
    }
  }
  return count;
}

function removeEmptyParents(root: string, rel: string): void {
  for (let dir = rel; dir !== "." && dir !== "" && dir !== "/"; dir = dirname(dir)) {
    const abs = join(root, dir);
    try {
      if (readdirSync(abs).length > 0) return;
      rmdirSync(abs);
    } catch {
      return;
    }
  }
}

function isExecutable(path: string): boolean {
  try {
    return (statSync(path).mode & 0o111) !== 0;
  } catch {
    return false;
  }
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
