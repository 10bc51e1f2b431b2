// What a walking command reaches, as plain data: made by the *-walks.ts readers, judged by
// ./walk-coverage.ts.
import type { ShellWord } from "../shell/shell-words.ts";

/** What a walk does with what it reaches: `list` shows names only, the others pass on contents. */
export type WalkVerb = "read" | "list" | "copy" | "move" | "archive";

export type WalkRoot = {
  /** Where it starts, as written. */
  word: ShellWord;
  /** The directory `word` is relative to when it is not the shell's own (`tar -C`, `git -C`). */
  dir?: ShellWord;
  /** Not written at all: the command's default, the current directory. */
  implicit?: boolean;
};

/** A name left out wherever it occurs below a root (`grep --exclude-dir=secrets`, `rg -g '!secrets'`). */
export type NameSkip = { glob: string; dirs: boolean; files: boolean; ignoreCase?: boolean };

/** How one walk's start was spelled and where it really is, for skips matched on spelled paths. */
export type RootSpelling = { text: string; real: string; cwd: string; implicit: boolean };

/** Leaves out a path and everything below it (`find . -path ./secrets -prune`, `git grep x -- ':!secrets'`). */
export type PathSkip = { dirsOnly: boolean; test: (abs: string, root: RootSpelling) => boolean };

/**
 * A place the walk should leave out, for the hint: its name (a glob for rules like `Read(*.pem)`),
 * whether it is a folder, a file or could be either, and when known its path as the walk spells
 * it and relative to the directory the command runs in.
 */
export type LeaveOutTarget = { name: string; kind: "dir" | "file" | "any"; spelled: string | null; fromCwd: string | null };

export type Walk = {
  verb: WalkVerb;
  roots: WalkRoot[];
  /** Levels below a root it reaches: 0 is the root alone (`cat`), 1 a folder's entries (`ls`), Infinity all. */
  depth: number;
  /** Follows symbolic links below its roots, so it can reach anywhere. */
  followsLinks: boolean;
  /** Leaves out names starting with a dot (rg, tree, ls without -a). */
  skipsHidden: boolean;
  skipNames: NameSkip[];
  skipPaths: PathSkip[];
  /**
   * Reads only files with a name one of these may match (rg's positive `-g '*.ts'`, grep's
   * `--include` when it comes first); absent when any file may be read.
   */
  onlyNames?: NameSkip[];
  /**
   * A view of git history (`git log -p`, `git diff`): it prints only what git tracks, so a rule
   * counts where `tracked` says git tracks a file below the rule's folder (or with its name).
   */
  history?: { tracked: (abs: string | null, name: string | null) => boolean };
  /**
   * What the walk leaves out by git's view of its tree: `ignored`, what git ignores (rg and ag
   * without -u, --no-ignore and the like, and without a glob that overrides ignore files);
   * `untracked`, what git does not track (git grep of the work tree). `simple`: only patterns the
   * walker's own reading of the start's .gitignore surely understands count (ag's is partial).
   * Consulted for secret-bearing files only (see walk-coverage.ts secretsReached).
   */
  gitSkips?: { what: "ignored" | "untracked"; simple?: boolean };
  /** The option that would leave the target out, in a form this command verifiably honours. */
  leaveOut?: (target: LeaveOutTarget) => string | null;
  /** How to run it without following links. */
  unfollow?: string;
  /** The KHAELOR tool that does the same job and leaves denied paths out by itself. */
  tool?: "grep" | "glob";
};
