// Claude Code's `enabledPlugins: { "name@marketplace": true | false }`, read from every settings
// file the settings layer reads (Claude Code's and KHAELOR's, user, project and local), a later file
// winning as it does for every key. Who a plugin belongs to follows from where it is enabled: one
// the user's own settings enable is the user's; one that only a file inside the project enables
// is the project's, and runs only where the user trusted the project for it.
import { LIMITS, readTextIfExists } from "../workspace/safe-read.ts";
import { ownLocation, readSettingsObject, settingsLocations } from "../permissions/index.ts";

type FileScope = "user" | "project" | "local";
import { writeFileAtomic } from "../workspace/atomic-write.ts";

export type EnabledPlugin = { id: string; owner: "user" | "project"; /** The file whose value holds. */ file: string };
export type EnabledState = { enabled: EnabledPlugin[]; disabled: Array<{ id: string; file: string }>; problems: string[] };

export function readEnabledPlugins(projectRoot: string, configDir: string, claudeDir?: string): EnabledState {
  const last = new Map<string, { value: boolean; file: string }>();
  const byUser = new Set<string>();
  const problems: string[] = [];
  for (const loc of settingsLocations(projectRoot, configDir, claudeDir)) {
    let json: unknown;
    try {
      const text = readTextIfExists(loc.file, LIMITS.settings);
      if (text === null) continue;
      json = JSON.parse(text);
    } catch {
      continue; // the settings loader reports a broken file, once
    }
    const map = (json as { enabledPlugins?: unknown } | null)?.enabledPlugins;
    if (map === undefined) continue;
    if (!map || typeof map !== "object" || Array.isArray(map)) {
      problems.push(`${loc.file}: enabledPlugins must map "name@marketplace" to true or false (ignored)`);
      continue;
    }
    for (const [id, value] of Object.entries(map)) {
      if (typeof value !== "boolean") {
        problems.push(`${loc.file}: enabledPlugins.${id} must be true or false (ignored)`);
        continue;
      }
      last.set(id, { value, file: loc.file });
      if (loc.scope === "user" && value) byUser.add(id);
    }
  }
  const enabled: EnabledPlugin[] = [];
  const disabled: Array<{ id: string; file: string }> = [];
  for (const [id, { value, file }] of last) {
    if (value) enabled.push({ id, owner: byUser.has(id) ? "user" : "project", file });
    else disabled.push({ id, file });
  }
  return { enabled, disabled, problems };
}

/** Sets one plugin's value in KHAELOR's own file of a scope (never Claude Code's), keeping every other key. */
export function setPluginEnabled(id: string, value: boolean, scope: FileScope, projectRoot: string, configDir: string): string {
  const { file } = ownLocation(settingsLocations(projectRoot, configDir), scope);
  const json = readSettingsObject(file);
  const map = json.enabledPlugins && typeof json.enabledPlugins === "object" && !Array.isArray(json.enabledPlugins) ? (json.enabledPlugins as Record<string, unknown>) : {};
  map[id] = value;
  json.enabledPlugins = map;
  writeFileAtomic(file, new TextEncoder().encode(`${JSON.stringify(json, null, 2)}\n`));
  return file;
}

/** Takes a plugin out of KHAELOR's own file of each scope (uninstalling it). */
export function forgetPlugin(id: string, projectRoot: string, configDir: string): void {
  for (const loc of settingsLocations(projectRoot, configDir)) {
    if (loc.claude) continue;
    let json: Record<string, unknown>;
    try {
      json = readSettingsObject(loc.file);
    } catch {
      continue;
    }
    const map = json.enabledPlugins as Record<string, unknown> | undefined;
    if (!map || typeof map !== "object" || !(id in map)) continue;
    delete map[id];
    writeFileAtomic(loc.file, new TextEncoder().encode(`${JSON.stringify(json, null, 2)}\n`));
  }
}
