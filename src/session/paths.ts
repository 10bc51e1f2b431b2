// Where sessions live: $KHAELOR_HOME/sessions/<project-slug>/<id>.jsonl, with KHAELOR_HOME
// defaulting to $XDG_DATA_HOME/khaelor (XDG_DATA_HOME defaulting to ~/.local/share), on macOS too.
import { createHash } from "node:crypto";
import { realpathSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { trimChars } from "../text/trim-chars.ts";
import { userDirs } from "../platform/dirs.ts";

type Env = Record<string, string | undefined>;

/** The root of KHAELOR's data (sessions and anything else it keeps between runs). */
export function dataRoot(env: Env = process.env): string {
  if (env.KHAELOR_HOME) return resolve(env.KHAELOR_HOME);
  return join(userDirs(env).data, "khaelor");
}

export function sessionsRoot(env: Env = process.env): string {
  return join(dataRoot(env), "sessions");
}

/**
 * A readable, collision-free directory name for a project: the folder's name plus a hash of its
 * real path (two checkouts both named "app" stay apart; a symlinked path maps to the same slug).
 */
export function projectSlug(cwd: string): string {
  let real = resolve(cwd);
  try {
    real = realpathSync(real);
  } catch {
    // A project directory that no longer exists still has a slug: its sessions stay listable.
  }
  const name = trimChars(basename(real).replace(/[^A-Za-z0-9._-]+/g, "-"), "-").slice(0, 40) || "root";
  const hash = createHash("sha256").update(real).digest("hex").slice(0, 10);
  return `${name}-${hash}`;
}

export function projectSessionsDir(cwd: string, env: Env = process.env): string {
  return join(sessionsRoot(env), projectSlug(cwd));
}

export function sessionPath(cwd: string, sessionId: string, env: Env = process.env): string {
  return join(projectSessionsDir(cwd, env), `${sessionId}.jsonl`);
}

/**
 * A session's plan file (plan mode writes the plan there; the user reads it and edits it by hand):
 * in the data directory, per project and per session, never inside the project.
 */
export function planPath(cwd: string, sessionId: string, env: Env = process.env): string {
  return join(dataRoot(env), "plans", projectSlug(cwd), `${sessionId}.md`);
}

/** Beside each log: its writer lock and its cached summary (both derived, both safe to delete). */
export const lockPathOf = (logPath: string): string => logPath.replace(/\.jsonl$/, "") + ".lock";
export const metaPathOf = (logPath: string): string => logPath.replace(/\.jsonl$/, "") + ".meta.json";
export const sessionIdOf = (logPath: string): string => basename(logPath).replace(/\.jsonl$/, "");
