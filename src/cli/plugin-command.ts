// `khaelor plugin ...`: Claude Code's `claude plugin` for the plugins kept in the user's data
// directory (src/plugins/store.ts): marketplaces added, plugins installed from them, and whether
// each is on (`enabledPlugins` in a settings file; KHAELOR's own user file unless -s says).
import { homedir } from "node:os";
import { resolve } from "node:path";
import { userConfigDir } from "../permissions/index.ts";
import { forgetPlugin, readEnabledPlugins, setPluginEnabled } from "../plugins/enabled.ts";
import { installPlugin, parsePluginId, uninstallPlugin } from "../plugins/install.ts";
import { readPluginFolder } from "../plugins/manifest.ts";
import { addMarketplace, parseMarketplaceArg, PluginCommandError, readMarketplace, removeMarketplace, updateMarketplace } from "../plugins/marketplace.ts";
import { readInstalled, readKnownMarketplaces } from "../plugins/store.ts";

export const PLUGIN_HELP = `khaelor plugin: Claude Code plugins and marketplaces

Usage:
  khaelor plugin marketplace add <git URL | owner/repo | path>[#ref]
                                       add a marketplace (.claude-plugin/marketplace.json); #ref picks a
                                       branch or tag, a full commit id pins it there
  khaelor plugin marketplace list      the marketplaces added, their commits, what they offer
  khaelor plugin marketplace update [name]  fetch them again (a pinned one stays at its commit)
  khaelor plugin marketplace remove <name>
  khaelor plugin install <name@marketplace> [-s scope]   install and enable
  khaelor plugin list [--json]         installed plugins and whether each is on
  khaelor plugin enable <name@marketplace> [-s scope]
  khaelor plugin disable <name@marketplace> [-s scope]
  khaelor plugin uninstall <name@marketplace>

  -s, --scope <scope>   user (default: ~/.config/khaelor/settings.json), project (.khaelor/settings.json,
                        shared through the repository), local (.khaelor/settings.local.json)

For one session: khaelor --plugin-dir <folder>. Plugins live in $KHAELOR_HOME/plugins.
A plugin only the project's settings enable runs once you trust the project.
`;

type Io = { out: (s: string) => void; err: (s: string) => void };
const stdio: Io = { out: (s) => void process.stdout.write(s), err: (s) => void process.stderr.write(s) };
const SCOPES = ["user", "project", "local"] as const;
type Scope = (typeof SCOPES)[number];

export async function pluginCommand(args: string[], cwd: string, io: Io = stdio): Promise<number> {
  const root = resolve(cwd);
  const [verb, ...rest] = args;
  try {
    switch (verb) {
      case "marketplace":
        return await marketplace(rest, root, io);
      case "install":
        return await install(rest, root, io);
      case "list":
        return list(rest, root, io);
      case "enable":
      case "disable":
        return toggle(verb, rest, root, io);
      case "uninstall":
      case "remove":
        return uninstall(rest, root, io);
      case undefined:
      case "help":
      case "--help":
      case "-h":
        io.out(PLUGIN_HELP);
        return verb === undefined ? 2 : 0;
      default:
        throw new PluginCommandError(`unknown subcommand ${verb} (khaelor plugin --help)`);
    }
  } catch (e) {
    if (!(e instanceof PluginCommandError)) throw e;
    io.err(`khaelor plugin: ${e.message}\n`);
    return 1;
  }
}

async function marketplace(args: string[], root: string, io: Io): Promise<number> {
  const [verb, ...rest] = args;
  if (verb === "add") {
    const arg = one(rest, "khaelor plugin marketplace add <git URL | owner/repo | path>[#ref]");
    const r = await addMarketplace(parseMarketplaceArg(arg, root), root);
    const at = r.known.commit ? ` at ${r.known.commit.slice(0, 12)}${r.known.pinned ? " (pinned)" : ""}` : "";
    io.out(`added the marketplace ${r.name}${at}: ${r.plugins} plugin${r.plugins === 1 ? "" : "s"} (khaelor plugin install <name>@${r.name})\n`);
    return 0;
  }
  if (verb === "list") {
    const known = readKnownMarketplaces();
    if (Object.keys(known).length === 0) io.out("no marketplaces (khaelor plugin marketplace add <git URL | owner/repo | path>)\n");
    for (const [name, k] of Object.entries(known)) {
      const from = k.source.kind === "git" ? `${k.source.url}${k.source.ref ? `#${k.source.ref}` : ""}` : k.source.path;
      let offers: string;
      try {
        offers = readMarketplace(k.location).plugins.map((p) => `${p.name}${p.description ? ` (${p.description})` : ""}`).join(", ") || "no plugins";
      } catch (e) {
        offers = (e as Error).message;
      }
      io.out(`${name}  ${from}${k.commit ? `  ${k.commit.slice(0, 12)}${k.pinned ? " pinned" : ""}` : ""}\n  ${offers}\n`);
    }
    return 0;
  }
  if (verb === "update") {
    const names = rest.length > 0 ? rest : Object.keys(readKnownMarketplaces());
    let failed = 0;
    for (const name of names) {
      try {
        const r = await updateMarketplace(name);
        const moved = r.from && r.to && r.from !== r.to ? `${r.from.slice(0, 12)} → ${r.to.slice(0, 12)}` : r.to ? `at ${r.to.slice(0, 12)}` : "re-read";
        io.out(`${name}: ${r.pinned ? `pinned, stays ${moved}` : moved}\n`);
      } catch (e) {
        if (!(e instanceof PluginCommandError)) throw e;
        io.err(`khaelor plugin: ${e.message}\n`);
        failed++;
      }
    }
    return failed > 0 ? 1 : 0;
  }
  if (verb === "remove" || verb === "rm") {
    const name = one(rest, "khaelor plugin marketplace remove <name>");
    removeMarketplace(name);
    io.out(`removed the marketplace ${name} (its installed plugins stay installed)\n`);
    return 0;
  }
  throw new PluginCommandError(`unknown subcommand marketplace ${verb ?? ""} (add, list, update, remove)`);
}

async function install(args: string[], root: string, io: Io): Promise<number> {
  const { positional, scope } = scoped(args);
  const id = one(positional, "khaelor plugin install <name@marketplace> [-s scope]");
  const r = await installPlugin(id, root);
  for (const p of r.problems) io.err(`khaelor plugin: ${p}\n`);
  const file = setPluginEnabled(r.id, true, scope, root, userConfigDir(homedir()));
  io.out(`installed ${r.id}${r.installed.version ? ` ${r.installed.version}` : ""} in ${r.installed.path}; enabled in ${file}\n`);
  return 0;
}

function list(args: string[], root: string, io: Io): number {
  const json = args.includes("--json");
  const installed = readInstalled();
  const enabled = readEnabledPlugins(root, userConfigDir(homedir()));
  const rows = Object.entries(installed).map(([id, p]) => {
    const on = enabled.enabled.find((e) => e.id === id);
    const folder = readPluginFolder(p.path).plugin;
    return { id, version: p.version ?? null, description: folder?.description ?? null, enabled: !!on, enabledIn: on?.file ?? null, owner: on?.owner ?? null, path: p.path };
  });
  if (json) {
    io.out(`${JSON.stringify(rows, null, 2)}\n`);
    return 0;
  }
  if (rows.length === 0) io.out("no plugins installed (khaelor plugin marketplace add …, then khaelor plugin install name@marketplace)\n");
  for (const r of rows) io.out(`${r.enabled ? "on " : "off"}  ${r.id}${r.version ? ` ${r.version}` : ""}${r.description ? `  ${r.description}` : ""}${r.enabled && r.owner === "project" ? `  (enabled by ${r.enabledIn}: runs once the project is trusted)` : ""}\n`);
  for (const p of enabled.problems) io.err(`khaelor plugin: ${p}\n`);
  return 0;
}

function toggle(verb: "enable" | "disable", args: string[], root: string, io: Io): number {
  const { positional, scope } = scoped(args);
  const id = one(positional, `khaelor plugin ${verb} <name@marketplace> [-s scope]`);
  parsePluginId(id);
  if (!readInstalled()[id]) throw new PluginCommandError(`${id} is not installed (khaelor plugin install ${id})`);
  const file = setPluginEnabled(id, verb === "enable", scope, root, userConfigDir(homedir()));
  io.out(`${verb}d ${id} in ${file}\n`);
  return 0;
}

function uninstall(args: string[], root: string, io: Io): number {
  const id = one(args, "khaelor plugin uninstall <name@marketplace>");
  const p = uninstallPlugin(id);
  forgetPlugin(id, root, userConfigDir(homedir()));
  io.out(`uninstalled ${id} (removed ${p.path})\n`);
  return 0;
}

function scoped(args: string[]): { positional: string[]; scope: Scope } {
  const positional: string[] = [];
  let scope: Scope = "user";
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "-s" || a === "--scope") {
      const v = args[++i];
      if (!SCOPES.includes(v as Scope)) throw new PluginCommandError(`${a} must be one of ${SCOPES.join(", ")}, got ${JSON.stringify(v ?? "")}`);
      scope = v as Scope;
    } else positional.push(a);
  }
  return { positional, scope };
}

function one(args: string[], usage: string): string {
  if (args.length !== 1 || args[0]!.startsWith("-")) throw new PluginCommandError(`usage: ${usage}`);
  return args[0]!;
}
