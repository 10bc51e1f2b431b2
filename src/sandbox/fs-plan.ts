// What a confined command may write and read, as paths: the project, its git directories and the
// temporary directories writable; inside them, what runs later or widens permissions (git hooks and
// config, KHAELOR's and Claude Code's settings, shell rc files) read-only, even where it does not
// exist yet; credentials and what the user's Read() deny rules name unreadable. Both enforcers
// (bubblewrap, Seatbelt) are written from this one plan.
import { existsSync, lstatSync, readFileSync, realpathSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, isAbsolute, join, resolve, sep } from "node:path";
import type { SandboxSettings } from "./settings.ts";
import { matchReadGlobs, MAX_ENTRIES } from "./read-globs.ts";

export type FsPlan = {
  /** Writable trees (they exist). */
  writable: string[];
  /** Inside a writable tree: existing paths bound read-only. */
  readOnly: string[];
  /** Inside a writable tree: protected paths that do not exist yet, at their first missing component. */
  blockCreate: string[];
  /** Existing paths whose content is hidden: a directory shows empty, a file as /dev/null. */
  denyRead: string[];
  /** Read deny rules the plan could not turn into paths (a glob outside the project, a project too large to walk), said in /sandbox. */
  unenforced: string[];
};

/** Credentials a confined command never reads, relative to home. */
export const CREDENTIAL_PLACES = [
  ".ssh", ".aws", ".config/gh", ".gnupg", ".docker/config.json", ".kube", ".netrc", ".npmrc", ".pypirc",
  ".git-credentials", ".config/gcloud", ".azure", ".password-store", ".local/share/keyrings", "Library/Keychains",
  ".config/khaelor/credentials.json", ".claude/.credentials.json",
];

/** Files that run later as the user or widen what KHAELOR lets run: never written from inside. */
const SHELL_RC = [".bashrc", ".bash_profile", ".bash_login", ".profile", ".zshrc", ".zshenv", ".zprofile", ".zlogin", ".config/fish/config.fish", ".gitconfig", ".config/git/config"];
const PROJECT_PROTECTED = [".khaelor/settings.json", ".khaelor/settings.local.json", ".claude/settings.json", ".claude/settings.local.json", ".mcp.json"];
const USER_PROTECTED = [".config/khaelor/settings.json", ".claude/settings.json", ".claude.json"];

export type PlanInput = {
  root: string;
  home: string;
  settings: Pick<SandboxSettings, "allowWrite" | "denyWrite" | "denyRead">;
  /** The specifiers of the user's Read(...) deny rules (`./secrets/**`, `~/.env`). */
  readDenyRules?: string[];
  /** Temporary directories (default: the OS's, /tmp, /var/tmp, /dev/shm). */
  tempDirs?: string[];
};

export function planFilesystem(p: PlanInput): FsPlan {
  const real = (x: string) => {
    try {
      return realpathSync(x);
    } catch {
      return resolve(x);
    }
  };
  const expand = (x: string) => (x === "~" ? p.home : x.startsWith("~/") ? join(p.home, x.slice(2)) : isAbsolute(x) ? x : resolve(p.root, x));
  const git = gitDirs(p.root);
  const temps = p.tempDirs ?? [tmpdir(), "/tmp", "/var/tmp", "/dev/shm"];
  const writable = unique([p.root, ...git.dirs, ...temps, ...p.settings.allowWrite.map(expand)].filter(existsSync).map(real));

  const protectedPaths = [
    ...PROJECT_PROTECTED.map((f) => join(p.root, f)),
    ...git.protect,
    ...SHELL_RC.map((f) => join(p.home, f)),
    ...USER_PROTECTED.map((f) => join(p.home, f)),
    ...p.settings.denyWrite.map(expand),
  ];
  const readOnly: string[] = [];
  const blockCreate: string[] = [];
  for (const path of protectedPaths) {
    if (!writable.some((w) => inside(w, path) || inside(w, real(path)))) continue;
    if (lexists(path)) readOnly.push(real(path));
    else {
      const missing = firstMissing(path);
      if (missing && writable.some((w) => inside(w, missing))) blockCreate.push(missing);
    }
  }

  const unenforced: string[] = [];
  const denyRead: string[] = [];
  for (const place of [...CREDENTIAL_PLACES.map((c) => join(p.home, c)), ...p.settings.denyRead.map(expand)]) if (lexists(place)) denyRead.push(real(place));
  const globs: string[] = [];
  for (const spec of p.readDenyRules ?? []) {
    const path = ruleLiteralPath(spec, p.root, p.home);
    // A glob with no fixed place: the project's matches, found now (a home-wide one cannot be walked).
    if (path === null) (/^(~|\/\/|\.\.\/)/.test(spec) ? unenforced : globs).push(spec);
    else if (lexists(path)) denyRead.push(real(path));
  }
  const found = matchReadGlobs(p.root, globs);
  for (const m of found.paths) denyRead.push(real(m));
  unenforced.push(...found.partial.map((g) => `${g} (beyond the first ${MAX_ENTRIES} entries of the project)`));
  return { writable, readOnly: unique(readOnly), blockCreate: unique(blockCreate), denyRead: unique(denyRead), unenforced };
}

/**
 * The directory or file a Read rule names, up to its first glob: `./secrets/**` is ./secrets,
 * `~/.env` is ~/.env; a rule whose glob starts the path (`**\/.env`) or picks among what is below
 * (`~/**\/.env`, `./config/*.key`) names no one place.
 */
export function ruleLiteralPath(spec: string, root: string, home: string): string | null {
  const cut = spec.search(/[*?[{]/);
  const literal = (cut === -1 ? spec : spec.slice(0, cut)).replace(/\/+$/, "");
  if (cut !== -1 && !spec.slice(0, cut).endsWith("/")) return null;
  // Only "everything below" names the directory: `~/**/.env` is not all of home.
  if (cut !== -1 && !/^(\*\*|\*|\*\*\/\*)$/.test(spec.slice(cut))) return null;
  if (literal === "" || literal === ".") return null;
  if (literal.startsWith("//")) return literal.slice(1);
  if (literal === "~" || literal.startsWith("~/")) return join(home, literal.slice(1));
  if (literal.startsWith("/")) return join(root, literal);
  return resolve(root, literal);
}

/** The project's git directories: a worktree's own and its repository's common one. */
function gitDirs(root: string): { dirs: string[]; protect: string[] } {
  const dotGit = join(root, ".git");
  let gitDir = dotGit;
  try {
    if (lstatSync(dotGit).isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(dotGit, "utf8"));
      if (!m) return { dirs: [], protect: [] };
      gitDir = resolve(root, m[1]!.trim());
    }
  } catch {
    return { dirs: [], protect: [join(dotGit, "hooks"), join(dotGit, "config")] };
  }
  let common = gitDir;
  try {
    common = resolve(gitDir, readFileSync(join(gitDir, "commondir"), "utf8").trim());
  } catch {
    // not a linked worktree
  }
  const dirs = unique([gitDir, common]);
  return { dirs, protect: [join(common, "hooks"), join(common, "config"), join(gitDir, "config.worktree")] };
}

/** Whether anything (a dangling link too) is at `path`. */
export function lexists(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function firstMissing(path: string): string | null {
  let cur = path;
  while (!lexists(dirname(cur))) {
    if (dirname(cur) === cur) return null;
    cur = dirname(cur);
  }
  return cur;
}

export const inside = (dir: string, path: string) => path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
const unique = (xs: string[]) => [...new Set(xs)];
