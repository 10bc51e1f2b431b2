// The few settings the composition root reads itself, from the files src/permissions locates
// (their permission rules belong to src/permissions). A broken file is reported and skipped, never fatal.
import { homedir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { EFFORT_LEVELS, lowerEffort } from "../model/effort.ts";
import type { EffortLevel } from "../model/types.ts";
import { readSettingsObject, settingsLocations, userConfigDir } from "../permissions/index.ts";
import { writeFileAtomic } from "../workspace/atomic-write.ts";
import { projectEnvVars, readEnvKey, type ProjectEnvVar } from "./settings-env.ts";
import { LIMITS, readTextIfExists } from "../workspace/safe-read.ts";

/** Claude Code's statusLine: a command whose first line of output joins the status line (src/modes/app/status-line-command.ts). */
const StatusLine = z.object({ type: z.literal("command"), command: z.string().min(1), padding: z.number().int().min(0).max(40).optional() });
export type StatusLineConfig = z.infer<typeof StatusLine>;

const Settings = z.looseObject({
  model: z.string().min(1).optional(),
  apiKey: z.string().min(1).optional(),
  /** A command whose stdout is the key (a gateway's short-lived keys): the user's own settings only. */
  apiKeyHelper: z.string().min(1).optional(),
  /** false: never offer the API's web search / web fetch (see src/model/web-tools.ts). */
  webSearch: z.boolean().optional(),
  webFetch: z.boolean().optional(),
  /** The app's notifications while its window is not focused (src/tui/term/notify.ts). */
  notifications: z.enum(["auto", "bell", "osc", "off"]).optional(),
  /** How long a turn runs before its end is worth a notification (default 5). */
  notifyAfterSeconds: z.number().min(0).max(86_400).optional(),
  /** How prose wraps in the app: between words (the default) or at the terminal's edge (copy-exact; see README). */
  wrap: z.enum(["edge", "words"]).optional(),
  /** "vim": the composer has vim's normal and insert modes (src/tui/app/vim-keys.ts). */
  editorMode: z.enum(["normal", "vim"]).optional(),
  /** Colours for a dark or light background; "auto" asks the terminal (src/tui/views/theme.ts). */
  theme: z.enum(["auto", "dark", "light"]).optional(),
  /** false: no automatic update check (src/install/update-check.ts); a project's file cannot turn it back on. */
  autoUpdates: z.boolean().optional(),
  statusLine: StatusLine.optional(),
  /** Claude Code's effortLevel (src/model/effort.ts); a project's file may only lower it. */
  effortLevel: z.enum(EFFORT_LEVELS as [EffortLevel, ...EffortLevel[]]).optional(),
});
export type Settings = z.infer<typeof Settings>;

const KEYS = new Set(["model", "apiKey", "apiKeyHelper", "webSearch", "webFetch", "notifications", "notifyAfterSeconds", "wrap", "editorMode", "theme", "autoUpdates", "statusLine", "effortLevel"]);

/** A model a file inside the project picks: it holds only where the project is trusted for it. */
export type ProjectModel = { model: string; file: string; scope: "project" | "local" };
/** A status-line command a file inside the project names: it runs only where the project is trusted for it. */
export type ProjectStatusLine = { statusLine: StatusLineConfig; file: string };

/**
 * Later files win (user < project < local). Problems are returned, not thrown. A file inside the
 * project comes with the repository: its apiKey and apiKeyHelper are never read (the session would go to someone
 * else's account), its model is returned apart for the trust check, and it can only turn the
 * web tools and the update check off.
 */
export type LoadedSettings = {
  settings: Settings;
  problems: string[];
  projectModel?: ProjectModel;
  projectStatusLine?: ProjectStatusLine;
  /** The user's `env` (Claude Code's file, then KHAELOR's: a later file wins a variable both set). */
  userEnv: Record<string, string>;
  /** The project's `env`, held for the trust check (the variables it may never set already left out, as problems). */
  projectEnv: ProjectEnvVar[];
};

export function loadSettings(projectRoot: string): LoadedSettings {
  const settings: Settings = {};
  const problems: string[] = [];
  const userEnv: Record<string, string> = {};
  const projectEnv = new Map<string, ProjectEnvVar>();
  let projectModel: ProjectModel | undefined;
  let projectStatusLine: ProjectStatusLine | undefined;
  for (const { file, scope, claude } of settingsLocations(projectRoot, userConfigDir(homedir()))) {
    // Unreadable files (missing, special, oversized) are reported by the permission loader, once.
    let text: string | null;
    try {
      text = readTextIfExists(file, LIMITS.settings);
    } catch {
      continue;
    }
    if (text === null) continue;
    try {
      const json: unknown = JSON.parse(text);
      const env = readEnvKey(json, file, problems);
      if (scope === "user") Object.assign(userEnv, env);
      else for (const v of projectEnvVars(env, file, problems)) projectEnv.set(v.name, v);
      // Claude Code's files hold many keys of its own (and values KHAELOR has no use for): each of
      // ours is taken where it fits, the rest of the file still counts.
      const parsed = claude ? { success: true as const, data: fittingKeys(json) } : Settings.safeParse(json);
      if (!parsed.success) {
        problems.push(`${file}: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")} (ignored)`);
        continue;
      }
      const known = Object.entries(parsed.data).filter(([k]) => KEYS.has(k));
      if (scope === "user") {
        Object.assign(settings, Object.fromEntries(known));
        continue;
      }
      for (const [k, v] of known) {
        // A helper would run a command the repository names, and send its output as the key.
        if (k === "apiKey" || k === "apiKeyHelper") problems.push(`${file}: ${k} is ignored: KHAELOR takes the key only from your environment or your own settings (${join(userConfigDir(homedir()), "settings.json")})`);
        else if (k === "model") projectModel = { model: v as string, file, scope };
        else if (k === "statusLine") projectStatusLine = { statusLine: v as StatusLineConfig, file };
        else if ((k === "webSearch" || k === "webFetch" || k === "autoUpdates") && v === true) continue;
        // Effort costs: a project's file may lower it below the user's (or the API's default, high), never raise it.
        else if (k === "effortLevel") settings.effortLevel = lowerEffort(v as EffortLevel, settings.effortLevel ?? "high");
        else Object.assign(settings, { [k]: v });
      }
    } catch {
      // Not JSON: the permission loader reports it (once) and fails closed.
    }
  }
  return { settings, problems, userEnv, projectEnv: [...projectEnv.values()], ...(projectModel ? { projectModel } : {}), ...(projectStatusLine ? { projectStatusLine } : {}) };
}

/** The keys of a Claude Code settings file that fit KHAELOR's schema; one that does not is left out. */
function fittingKeys(json: unknown): Settings {
  if (!json || typeof json !== "object" || Array.isArray(json)) return {};
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(json)) if (KEYS.has(k) && Settings.safeParse({ [k]: v }).success) out[k] = v;
  return out as Settings;
}

/**
 * Sets one key in the user's settings file, keeping every other key as it was (a choice made in
 * the app, such as /theme, holds for the next run). Returns the file; throws with a message to show.
 */
export function saveUserSetting<K extends keyof Settings>(key: K, value: Settings[K]): string {
  const file = join(userConfigDir(homedir()), "settings.json");
  const json = readSettingsObject(file);
  json[key] = value;
  writeFileAtomic(file, Buffer.from(JSON.stringify(json, null, 2) + "\n"));
  return file;
}
