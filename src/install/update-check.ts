// The start-up check for a newer release: on by default, at most once a day, in the background.
// It never holds anything up: it starts after the first frame (the app) or beside the work (print
// mode), and what it learns is one line shown when it arrives, or at the next start (the last
// answer is kept in the cache directory). "autoUpdates": false in settings, or DISABLE_AUTOUPDATER
// (Claude Code's variable) set to anything but 0 or false, turns it off: no file is read and no
// request is made. A khaelor run from source never checks (it is updated with git).
import { mkdirSync, readFileSync, writeFileSync, renameSync } from "node:fs";
import { dirname, join } from "node:path";
import { userDirs } from "../platform/dirs.ts";
import { installKind, updateCommand, type InstallKind } from "./install-kind.ts";
import { compareVersions } from "./manifest.ts";
import { latestRelease } from "./self-update.ts";

type Env = Record<string, string | undefined>;
export const CHECK_EVERY_MS = 24 * 60 * 60 * 1000;

/** Why automatic checks are off, or null when they are on. */
export function updateChecksOff(env: Env, autoUpdates: boolean | undefined): string | null {
  const v = env.DISABLE_AUTOUPDATER?.trim().toLowerCase();
  if (v && v !== "0" && v !== "false") return "DISABLE_AUTOUPDATER is set";
  if (autoUpdates === false) return '"autoUpdates": false in settings';
  return null;
}

export function updateStateFile(env: Env = process.env): string {
  return join(env.KHAELOR_CACHE_DIR || join(userDirs(env).cache, "khaelor"), "update-check.json");
}

export type UpdateState = { checkedAt: number; latest: string | null };

export function readUpdateState(file: string): UpdateState | null {
  try {
    const j = JSON.parse(readFileSync(file, "utf8")) as Partial<UpdateState>;
    if (typeof j.checkedAt !== "number" || !(j.latest === null || typeof j.latest === "string")) return null;
    return { checkedAt: j.checkedAt, latest: j.latest };
  } catch {
    return null;
  }
}

function writeState(file: string, state: UpdateState): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(state) + "\n");
    renameSync(tmp, file);
  } catch {
    // A cache that cannot be written only means the next start checks again.
  }
}

export type UpdateCheckOptions = {
  version: string;
  /** Read when the check starts (settings are read off the start-up path). */
  autoUpdates: () => boolean | undefined;
  env?: Env;
  kind?: InstallKind;
  now?: () => number;
};

export type UpdateCheck = {
  /** The line to show, as known now: from the last check, or this one once it answered. */
  known(): string | null;
  /** Settles once (never rejects): the line, from the cache at once or from the check when it answers; null if none. */
  done: Promise<string | null>;
  /** Settles when the check has nothing left to do: no request, or its answer (or failure) handled. */
  finished: Promise<void>;
};

export function startUpdateCheck(o: UpdateCheckOptions): UpdateCheck {
  const env = o.env ?? process.env;
  const kind = o.kind ?? installKind();
  let line: string | null = null;
  let finish: () => void = () => {};
  const finished = new Promise<void>((r) => (finish = r));
  const say = (latest: string | null) => (latest !== null && compareVersions(latest, o.version) > 0 ? `khaelor ${latest} is available (you have ${o.version}): run ${updateCommand(kind)}` : null);
  const done = new Promise<string | null>((resolveLine) => {
    const resolve = (l: string | null) => {
      resolveLine(l);
      finish();
    };
    // Nothing the check meets (an unreadable settings file, a cache it cannot write) may reach the session.
    setImmediate(() => {
      try {
        decide();
      } catch {
        resolve(line);
      }
    });
    function decide(): void {
      if (kind.kind === "source" || updateChecksOff(env, o.autoUpdates()) !== null) return void resolve(null);
      const file = updateStateFile(env);
      const state = readUpdateState(file);
      line = say(state?.latest ?? null);
      if (line) resolveLine(line);
      const now = (o.now ?? Date.now)();
      // A time in the future (a clock set back) counts as due, so a bad clock cannot stop checks for good.
      if (state && now - state.checkedAt < CHECK_EVERY_MS && now >= state.checkedAt) return void resolve(line);
      // Recorded before asking, so starts in parallel (or a host that never answers) ask once a day.
      writeState(file, { checkedAt: now, latest: state?.latest ?? null });
      latestRelease(env).then(
        (m) => {
          writeState(file, { checkedAt: now, latest: m.version });
          line = say(m.version);
          resolve(line);
        },
        () => resolve(line),
      );
    }
  });
  return { known: () => line, done, finished };
}
