// The plugins one session loads: each --plugin-dir folder, then each installed plugin the settings
// enable. The user's own (named with --plugin-dir, or enabled in their settings) are on; one that
// only the project's settings enable is the project's, on only where the user trusted it: one trust
// item per plugin, listing what it runs (its hooks, its MCP servers, its commands). Untrusted, it
// stays off: print mode says so, the app asks (and the plugin joins once trusted).
import { loadHooks } from "../hooks/config.ts";
import { describeSpec, readPluginMcp } from "../mcp/config.ts";
import { fingerprintOf, recordTrust, trustState, type TrustItem } from "../trust/project-trust.ts";
import { LIMITS, readTextIfExists } from "../workspace/safe-read.ts";
import { readEnabledPlugins } from "./enabled.ts";
import { readPluginFolder, type PluginFolder } from "./manifest.ts";
import { readInstalled } from "./store.ts";

export type SessionPlugin = PluginFolder & {
  /** name@marketplace; name@inline for a --plugin-dir folder, as Claude Code calls them. */
  id: string;
  owner: "user" | "project";
  /** Whether it is on now: a project's plugin waits for the trust question. */
  active: () => boolean;
};

export type SessionPlugins = {
  plugins: SessionPlugin[];
  notices: string[];
  /** Project plugins not yet answered (the app's trust question lists these). */
  pending(): TrustItem[];
  /** The trust answer for the pending ones; returns the names of the plugins now on. */
  answer(answer: "trust" | "decline"): string[];
};

export type SessionPluginsOptions = {
  cwd: string;
  configDir: string;
  claudeDir?: string;
  pluginDirs: string[];
  trustProject: boolean;
  interactive: boolean;
};

export function openSessionPlugins(o: SessionPluginsOptions): SessionPlugins {
  const notices: string[] = [];
  const byName = new Map<string, SessionPlugin>();
  const add = (folder: PluginFolder, id: string, owner: "user" | "project") => {
    const earlier = byName.get(folder.name);
    if (earlier) return void notices.push(`plugin ${id}: the plugin ${earlier.id} has the name ${folder.name} too and is used (${earlier.root}); ${folder.root} is not`);
    byName.set(folder.name, { ...folder, id, owner, active: () => true });
  };
  for (const dir of o.pluginDirs) {
    const r = readPluginFolder(dir);
    notices.push(...r.problems);
    if (r.plugin) add(r.plugin, `${r.plugin.name}@inline`, "user");
  }
  const enabled = readEnabledPlugins(o.cwd, o.configDir, o.claudeDir);
  notices.push(...enabled.problems);
  const installed = readInstalled();
  for (const e of enabled.enabled) {
    const at = installed[e.id];
    if (!at) {
      notices.push(`plugin ${e.id} is enabled in ${e.file} but not installed: khaelor plugin install ${e.id}`);
      continue;
    }
    const r = readPluginFolder(at.path);
    notices.push(...r.problems);
    if (r.plugin) add(r.plugin, e.id, e.owner);
  }
  return gateProjectPlugins(o, [...byName.values()], enabled.enabled, notices);
}

/** The project's plugins behind the trust question; the rest as they are. */
function gateProjectPlugins(o: SessionPluginsOptions, all: SessionPlugin[], enabled: Array<{ id: string; file: string }>, notices: string[]): SessionPlugins {
  const items = new Map<string, TrustItem>();
  for (const p of all) if (p.owner === "project") items.set(p.id, pluginTrustItem(p, enabled.find((e) => e.id === p.id)?.file ?? p.manifestFile));
  const state = trustState(o.cwd, [...items.values()]);
  const on = new Set<string>(o.trustProject ? [...items.keys()] : state.trusted.map((i) => i.name));
  const unasked = o.trustProject ? [] : [...state.unasked];
  const off = [...items.values()].filter((i) => !on.has(i.name) && !(o.interactive && unasked.includes(i)));
  if (off.length > 0) {
    const declined = off.filter((i) => state.declined.includes(i));
    const skipped = off.filter((i) => !declined.includes(i));
    if (skipped.length > 0) notices.push(offMessage(o.cwd, skipped));
    if (declined.length > 0) notices.push(`not loading the plugin${declined.length > 1 ? "s" : ""} ${declined.map((i) => i.name).join(", ")}: you declined ${declined.length > 1 ? "them" : "it"} for ${o.cwd} (pass --trust-project, or enable ${declined.length > 1 ? "them" : "it"} in your own settings: khaelor plugin enable <name@marketplace>)`);
  }
  const gone = new Set(off.map((i) => i.name));
  const plugins = all.filter((p) => !gone.has(p.id)).map((p) => (items.has(p.id) ? { ...p, active: () => on.has(p.id) } : p));
  return {
    plugins,
    notices,
    pending: () => (o.interactive ? [...unasked] : []),
    answer(answer) {
      const answered = unasked.splice(0);
      if (answered.length === 0) return [];
      recordTrust(o.cwd, answered, answer);
      if (answer !== "trust") return [];
      for (const i of answered) on.add(i.name);
      return plugins.filter((p) => answered.some((i) => i.name === p.id)).map((p) => p.name);
    },
  };
}

/** What the trust question shows for a project's plugin: everything it would run, fingerprinted by the files that say so. */
export function pluginTrustItem(p: PluginFolder & { id: string }, enabledIn: string): TrustItem {
  const hooks = loadHooks([{ scope: "user", file: p.hooksFile, plugin: { name: p.name, root: p.root, active: () => false } }]).entries;
  const servers = readPluginMcp({ name: p.name, root: p.root, file: p.mcpFile }).servers;
  const runs = [
    ...hooks.map((h) => `hook ${h.event}${h.matcher ? ` (${h.matcher})` : ""}: ${h.command}`),
    ...servers.map((s) => `MCP server ${s.name}: ${describeSpec(s.spec, s.raw)}`),
  ];
  const read = (f: string) => {
    try {
      return readTextIfExists(f, LIMITS.settings);
    } catch {
      return "(unreadable)";
    }
  };
  return {
    kind: "plugin",
    name: p.id,
    file: enabledIn,
    command: `${p.root}${runs.length > 0 ? `; runs ${runs.join("; ")}` : "; its commands and skills (no hooks or MCP servers)"}`,
    fingerprint: fingerprintOf({ plugin: p.id, root: p.root, hooks: read(p.hooksFile), mcp: read(p.mcpFile), manifest: read(p.manifestFile) }),
  };
}

function offMessage(cwd: string, items: TrustItem[]): string {
  return [
    `not loading ${items.length === 1 ? "a plugin" : `${items.length} plugins`} this project's settings enable, as ${cwd} is not trusted:`,
    ...items.map((i) => `  ${i.kind} ${i.name} (${i.file}): ${i.command}`),
    `  To trust ${items.length === 1 ? "it" : "them"}: open khaelor here once and answer the trust question, or pass --trust-project to this run.`,
  ].join("\n");
}
