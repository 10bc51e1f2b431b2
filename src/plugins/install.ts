// Installing a plugin from a marketplace the user added: its entry's source copied (a path inside
// the marketplace) or cloned (another repository, at its ref or pinned sha) into
// plugins/cache/<marketplace>/<plugin>, checked to be a plugin folder, and recorded in
// installed_plugins.json. A plugin the user installs is the user's own: enabling it is theirs too.
import { cpSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { isAbsolute, join, relative, resolve } from "node:path";
import { cloneAt } from "./git-source.ts";
import { readPluginFolder } from "./manifest.ts";
import { PluginCommandError, readMarketplace, type MarketplaceEntry } from "./marketplace.ts";
import { pluginsRoot, readInstalled, readKnownMarketplaces, writeInstalled, type InstalledPlugin } from "./store.ts";

/** `name@marketplace`, split; a usage error naming the form otherwise. */
export function parsePluginId(id: string): { name: string; marketplace: string } {
  const at = id.lastIndexOf("@");
  if (at <= 0 || at === id.length - 1) throw new PluginCommandError(`${JSON.stringify(id)}: name a plugin as name@marketplace (khaelor plugin list shows them)`);
  return { name: id.slice(0, at), marketplace: id.slice(at + 1) };
}

export async function installPlugin(id: string, cwd: string): Promise<{ id: string; installed: InstalledPlugin; problems: string[] }> {
  const { name, marketplace } = parsePluginId(id);
  const known = readKnownMarketplaces()[marketplace];
  if (!known) throw new PluginCommandError(`no marketplace named ${marketplace}: add it first (khaelor plugin marketplace add <git URL | owner/repo | path>)`);
  const m = readMarketplace(known.location);
  const entry = m.plugins.find((p) => p.name === name);
  if (!entry) throw new PluginCommandError(`the marketplace ${marketplace} has no plugin ${name} (it has: ${m.plugins.map((p) => p.name).join(", ") || "none"})`);
  const dest = join(pluginsRoot(), "cache", marketplace, name);
  const temp = `${dest}.installing-${process.pid}`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(join(dest, ".."), { recursive: true });
  try {
    const commit = await fetchEntry(entry, known.location, m.metadata?.pluginRoot, temp, cwd);
    const read = readPluginFolder(temp);
    if (!read.plugin) throw new PluginCommandError(`${id}: ${read.problems.join("; ")}`);
    if (read.plugin.name !== name) read.problems.push(`${id}: its plugin.json names it ${read.plugin.name}; it is installed as ${name}@${marketplace}`);
    rmSync(dest, { recursive: true, force: true });
    renameSync(temp, dest);
    const version = entry.version ?? read.plugin.version;
    const installed: InstalledPlugin = { path: dest, ...(version ? { version } : {}), ...(commit ? { commit } : {}), installedAt: new Date().toISOString() };
    const all = readInstalled();
    all[`${name}@${marketplace}`] = installed;
    writeInstalled(all);
    return { id: `${name}@${marketplace}`, installed, problems: read.problems.map((p) => p.replaceAll(temp, dest)) };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** Puts the entry's plugin folder at `dest`; the commit when it was cloned. */
async function fetchEntry(entry: MarketplaceEntry, location: string, pluginRoot: string | undefined, dest: string, cwd: string): Promise<string | undefined> {
  const src = entry.source;
  if (typeof src === "string") {
    const base = resolve(location, pluginRoot ?? ".");
    const from = resolve(base, src);
    const rel = relative(resolve(location), from);
    if (rel.startsWith("..") || isAbsolute(rel)) throw new PluginCommandError(`${entry.name}: its source ${JSON.stringify(src)} points outside the marketplace; not installed`);
    cpSync(from, dest, { recursive: true, filter: (p) => !p.split(/[\\/]/).includes(".git") });
    return undefined;
  }
  const s = src as { source: string; repo?: string; url?: string; ref?: string; sha?: string };
  if (s.source !== "github" && s.source !== "url") throw new PluginCommandError(`${entry.name}: its source type ${JSON.stringify(s.source)} is not one KHAELOR installs (a path in the marketplace, "github" or "url")`);
  const url = s.source === "github" ? `https://github.com/${s.repo}.git` : s.url!;
  const commit = await cloneAt(url, dest, s.sha ?? s.ref, cwd).catch((e: unknown) => {
    throw new PluginCommandError(`${entry.name}: cannot fetch ${url}: ${(e as Error).message}`);
  });
  rmSync(join(dest, ".git"), { recursive: true, force: true });
  return commit;
}

export function uninstallPlugin(id: string): InstalledPlugin {
  const all = readInstalled();
  const installed = all[id];
  if (!installed) throw new PluginCommandError(`${id} is not installed (khaelor plugin list)`);
  rmSync(installed.path, { recursive: true, force: true });
  delete all[id];
  writeInstalled(all);
  return installed;
}
