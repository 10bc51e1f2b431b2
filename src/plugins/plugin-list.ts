// What /plugin shows: this session's plugins, the installed ones, and what the marketplaces added
// offer that is not installed, each with whether it is on; and turning an installed one on or off
// in the user's own settings (it takes effect in the next session).
import { readEnabledPlugins, setPluginEnabled } from "./enabled.ts";
import { readMarketplace } from "./marketplace.ts";
import type { SessionPlugin } from "./session-plugins.ts";
import { readInstalled, readKnownMarketplaces } from "./store.ts";

export type PluginInfo = {
  id: string;
  description?: string;
  version?: string;
  /** Loaded in this session and on now. */
  on: boolean;
  state: "plugin-dir" | "enabled" | "disabled" | "not installed";
  /** A project's plugin, on only once the project is trusted. */
  project: boolean;
};

export function listPlugins(cwd: string, configDir: string, session: SessionPlugin[]): PluginInfo[] {
  const out = new Map<string, PluginInfo>();
  for (const p of session) {
    out.set(p.id, { id: p.id, ...(p.description ? { description: p.description } : {}), ...(p.version ? { version: p.version } : {}), on: p.active(), state: p.id.endsWith("@inline") ? "plugin-dir" : "enabled", project: p.owner === "project" });
  }
  const enabled = readEnabledPlugins(cwd, configDir);
  for (const [id, at] of Object.entries(readInstalled())) {
    if (out.has(id)) continue;
    const e = enabled.enabled.find((x) => x.id === id);
    out.set(id, { id, ...(at.version ? { version: at.version } : {}), on: false, state: e ? "enabled" : "disabled", project: e?.owner === "project" });
  }
  for (const [name, known] of Object.entries(readKnownMarketplaces())) {
    let plugins: Array<{ name: string; description?: string; version?: string }>;
    try {
      plugins = readMarketplace(known.location).plugins;
    } catch {
      continue;
    }
    for (const p of plugins) {
      const id = `${p.name}@${name}`;
      const seen = out.get(id);
      if (seen) {
        if (!seen.description && p.description) seen.description = p.description;
        continue;
      }
      out.set(id, { id, ...(p.description ? { description: p.description } : {}), ...(p.version ? { version: p.version } : {}), on: false, state: "not installed", project: false });
    }
  }
  return [...out.values()];
}

/** On or off in the user's own settings; the file written. */
export function togglePlugin(id: string, on: boolean, cwd: string, configDir: string): string {
  if (!readInstalled()[id]) throw new Error(`${id} is not installed: khaelor plugin install ${id}`);
  return setPluginEnabled(id, on, "user", cwd, configDir);
}
