// MCP server definitions in Claude Code's formats: `mcpServers` in the project's .mcp.json, in the
// three settings files, and in --mcp-config (a file or inline JSON). Reading never throws: a broken
// file or entry is a problem naming the file, the server and the field, and a broken entry stays
// listed with its reason (so /mcp and `khaelor mcp list` show it as failed) while the rest load.
import { nestedDeeperThan } from "./tool-limits.ts";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { existsSync } from "node:fs";
import { homedir } from "node:os";
import { join, resolve } from "node:path";
import { claudeConfigDir, ownLocation, readSettingsObject, settingsLocations, userConfigDir } from "../permissions/index.ts";
import { FileReadError, LIMITS, readTextIfExists } from "../workspace/safe-read.ts";
import { fingerprintOf, type TrustItem } from "../trust/project-trust.ts";

export type StdioSpec = { type: "stdio"; command: string; args: string[]; env: Record<string, string>; cwd?: string };
export type RemoteSpec = { type: "http" | "sse"; url: string; headers: Record<string, string> };
/** A server the host program runs in its own process (the Agent SDK's createSdkMcpServer), reached through `transport`. */
export type HostSpec = { type: "sdk"; transport: () => Transport };
/** What a config file can define. */
export type FileSpec = StdioSpec | RemoteSpec;
export type ServerSpec = FileSpec | HostSpec;

/** Where a definition came from. "project" and "local" live in the project's files and need trust. */
export type ConfigScope = "user" | "project" | "local" | "cli" | "sdk" | "plugin";

export type ServerConfig = {
  name: string;
  scope: ConfigScope;
  file: string;
  /** The entry as written (before ${VAR} expansion). */
  raw: unknown;
  /** Absent when the entry is invalid; `error` says why. */
  spec?: ServerSpec;
  error?: string;
  disabled: boolean;
  /** Defined in the project's own files: runs only in a trusted project. */
  needsTrust: boolean;
};

export type McpConfig = { servers: ServerConfig[]; problems: string[] };

export type ConfigSources = {
  projectRoot: string;
  /** --mcp-config values: paths or JSON text. */
  cliConfigs?: string[];
  /** --strict-mcp-config: only the --mcp-config servers. */
  strict?: boolean;
  home?: string;
  configHome?: string;
  /** Plugins' .mcp.json files: their servers are named plugin_<plugin>_<server>, ${CLAUDE_PLUGIN_ROOT} their folder. */
  plugins?: PluginMcp[];
};

export type PluginMcp = { name: string; root: string; file: string };

export type ConfigFile = { scope: ConfigScope; file: string };

/** The files in the order they are read; a later definition of a name wins. */
export function configFiles(projectRoot: string, home = homedir(), configHome?: string): ConfigFile[] {
  const settings = settingsLocations(resolve(projectRoot), userConfigDir(home, configHome));
  const at = (scope: "user" | "project" | "local") => ownLocation(settings, scope).file;
  return [
    { scope: "user", file: at("user") },
    { scope: "project", file: join(resolve(projectRoot), ".mcp.json") },
    { scope: "project", file: at("project") },
    { scope: "local", file: at("local") },
  ];
}

export function loadMcpConfig(src: ConfigSources): McpConfig {
  const byName = new Map<string, ServerConfig>();
  const problems: string[] = [];
  const take = (servers: ServerConfig[]) => {
    for (const s of servers) {
      byName.delete(s.name); // keep the order of the winning definition
      byName.set(s.name, s);
    }
  };
  if (!src.strict) {
    for (const f of configFiles(src.projectRoot, src.home, src.configHome)) {
      const r = readConfigFile(f);
      problems.push(...r.problems);
      take(r.servers);
    }
    const mcpJson = join(resolve(src.projectRoot), ".mcp.json");
    const fromMcpJson = [...byName.values()].filter((s) => s.file === mcpJson);
    const off = mcpjsonSettings(src, problems, fromMcpJson.length > 0);
    for (const s of fromMcpJson) if (off.has(s.name)) s.disabled = true;
    for (const p of src.plugins ?? []) {
      const r = readPluginMcp(p);
      problems.push(...r.problems);
      take(r.servers);
    }
  }
  for (const value of src.cliConfigs ?? []) {
    const inline = value.trimStart().startsWith("{");
    const file = inline ? "--mcp-config" : resolve(value);
    if (!inline && !existsSync(file)) {
      problems.push(`--mcp-config ${value}: no such file (pass a path to a JSON file or the JSON itself)`);
      continue;
    }
    const r = inline ? parseConfigText(value, { scope: "cli", file }) : readConfigFile({ scope: "cli", file });
    problems.push(...r.problems);
    take(r.servers);
  }
  return { servers: [...byName.values()], problems };
}

/** false or an empty list approves nothing: KHAELOR does just that. */
const approves = (v: unknown): boolean => v === true || (Array.isArray(v) && v.length > 0);

/**
 * Claude Code's `disabledMcpjsonServers`: .mcp.json servers the user (or the project's own
 * settings: turning a server off only restricts) keeps off, from every settings file. Its approvals
 * (`enableAllProjectMcpServers`, `enabledMcpjsonServers`) are said not to be followed where there
 * are servers to approve: KHAELOR's trust question decides, so `khaelor -p` in a clone runs none.
 */
function mcpjsonSettings(src: ConfigSources, problems: string[], anyServer: boolean): Set<string> {
  const home = src.home ?? homedir();
  const off = new Set<string>();
  for (const { file } of settingsLocations(resolve(src.projectRoot), userConfigDir(home, src.configHome), claudeConfigDir(home))) {
    let json: Record<string, unknown>;
    try {
      json = readSettingsObject(file);
    } catch {
      continue; // a broken settings file is reported where its servers are read
    }
    const approvals = ["enableAllProjectMcpServers", "enabledMcpjsonServers"].filter((k) => approves(json[k]));
    if (anyServer && approvals.length) problems.push(`${file}: ${approvals.join(", ")} not followed: a project's MCP servers run once you trust the project (KHAELOR asks once, and remembers)`);
    const names = json.disabledMcpjsonServers;
    if (names === undefined) continue;
    if (!Array.isArray(names) || !names.every((n) => typeof n === "string")) problems.push(`${file}: disabledMcpjsonServers must be a list of server names (ignored)`);
    else for (const n of names) off.add(n);
  }
  return off;
}

export function readConfigFile(f: ConfigFile): { servers: ServerConfig[]; problems: string[] } {
  let text: string;
  try {
    // .mcp.json and settings come from the repository: a FIFO or a link to /dev/zero must not hang us.
    const read = readTextIfExists(f.file, LIMITS.settings);
    if (read === null) return { servers: [], problems: [] };
    text = read;
  } catch (e) {
    return { servers: [], problems: [`${f.file}: cannot read (${e instanceof FileReadError ? e.reason : (e as Error).message}); its MCP servers are not loaded`] };
  }
  return parseConfigText(text, f);
}

/**
 * A plugin's .mcp.json: `{ mcpServers: {...} }` or the map itself, as Claude Code's plugins write
 * both. `${CLAUDE_PLUGIN_ROOT}` anywhere in it is the plugin's folder, and a stdio server gets it in
 * its environment too. The plugin's own trust decided whether it loads at all (src/plugins).
 */
export function readPluginMcp(p: PluginMcp): { servers: ServerConfig[]; problems: string[] } {
  const f: ConfigFile = { scope: "plugin", file: p.file };
  let text: string | null;
  try {
    text = readTextIfExists(p.file, LIMITS.settings);
  } catch (e) {
    return { servers: [], problems: [`${p.file}: cannot read (${e instanceof FileReadError ? e.reason : (e as Error).message}); its MCP servers are not loaded`] };
  }
  if (text === null) return { servers: [], problems: [] };
  const json = parseJson(text, f);
  if ("problem" in json) return { servers: [], problems: [json.problem] };
  const root = (v: unknown): unknown =>
    typeof v === "string" ? v.replaceAll("${CLAUDE_PLUGIN_ROOT}", p.root) : Array.isArray(v) ? v.map(root) : v && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, root(x)])) : v;
  const obj = json.value as Record<string, unknown> | null;
  const map = obj && typeof obj === "object" && !Array.isArray(obj) && obj.mcpServers === undefined ? obj : obj?.mcpServers;
  if (!map || typeof map !== "object" || Array.isArray(map) || nestedDeeperThan(map, MAX_ENTRY_DEPTH + 1)) return parsedConfig({ mcpServers: map }, f);
  const named = Object.fromEntries(Object.entries(map).map(([name, def]) => [`plugin_${p.name}_${name}`.replace(/[^A-Za-z0-9_.-]/g, "_"), withRootEnv(root(def), p.root)]));
  return parsedConfig({ mcpServers: named }, f);
}

function withRootEnv(def: unknown, rootDir: string): unknown {
  if (!def || typeof def !== "object" || Array.isArray(def) || (def as Record<string, unknown>).url !== undefined) return def;
  const d = def as Record<string, unknown>;
  const env = d.env && typeof d.env === "object" && !Array.isArray(d.env) ? d.env : {};
  return { ...d, env: { CLAUDE_PLUGIN_ROOT: rootDir, ...env } };
}

function parseJson(text: string, f: ConfigFile): { value: unknown } | { problem: string } {
  try {
    return { value: JSON.parse(text) };
  } catch (e) {
    return { problem: `${f.file}: not valid JSON (${(e as Error).message}); its MCP servers are not loaded` };
  }
}

export function parseConfigText(text: string, f: ConfigFile): { servers: ServerConfig[]; problems: string[] } {
  const parsed = parseJson(text, f);
  if ("problem" in parsed) return { servers: [], problems: [parsed.problem] };
  return parsedConfig(parsed.value, f);
}

function parsedConfig(json: unknown, f: ConfigFile): { servers: ServerConfig[]; problems: string[] } {
  if (!json || typeof json !== "object" || Array.isArray(json)) return { servers: [], problems: [`${f.file}: expected a JSON object with "mcpServers"`] };
  const list = (json as Record<string, unknown>).mcpServers;
  if (list === undefined) return { servers: [], problems: [] };
  if (!list || typeof list !== "object" || Array.isArray(list))
    return { servers: [], problems: [`${f.file}: mcpServers: expected an object of server name → definition`] };
  const servers: ServerConfig[] = [];
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(list as Record<string, unknown>)) {
    // Checked before anything walks it (the trust fingerprint does, recursively): a definition
    // nested 200,000 deep in a repository's .mcp.json crashed every session opened there.
    const r: EntryParse = nestedDeeperThan(raw, MAX_ENTRY_DEPTH) ? { error: `nested more than ${MAX_ENTRY_DEPTH} levels deep; the server is left out` } : parseServerEntry(name, raw);
    const needsTrust = f.scope === "project" || f.scope === "local";
    const disabled = !!raw && typeof raw === "object" && (raw as Record<string, unknown>).disabled === true;
    if ("error" in r) {
      problems.push(`${f.file}: mcpServers.${name}${r.field ? `.${r.field}` : ""}: ${r.error}`);
      servers.push({ name, scope: f.scope, file: f.file, raw, error: `${r.field ? `${r.field}: ` : ""}${r.error} (in ${f.file})`, disabled, needsTrust });
    } else servers.push({ name, scope: f.scope, file: f.file, raw, spec: r.spec, disabled, needsTrust });
  }
  return { servers, problems };
}

type EntryParse = { spec: FileSpec } | { error: string; field?: string };

/** No server definition needs more: command, args, env, headers and a few flags. */
const MAX_ENTRY_DEPTH = 16;

const isStringRecord = (v: unknown): v is Record<string, string> =>
  !!v && typeof v === "object" && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");

export function parseServerEntry(name: string, raw: unknown): EntryParse {
  if (!/^[A-Za-z0-9_.-]+$/.test(name)) return { error: `the server name "${name}" may only hold letters, digits, _, - and .` };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { error: "expected an object with command (stdio) or type and url (http, sse)" };
  const e = raw as Record<string, unknown>;
  const type = e.type ?? (e.url !== undefined && e.command === undefined ? "http" : "stdio");
  if (type !== "stdio" && type !== "http" && type !== "sse")
    return { field: "type", error: `unknown transport ${JSON.stringify(type)}; use "stdio", "http" or "sse"` };
  if (type === "stdio") {
    if (e.command === undefined) return { field: "command", error: "missing: a stdio server needs the command that starts it" };
    if (typeof e.command !== "string" || !e.command.trim()) return { field: "command", error: "expected a non-empty string" };
    if (e.args !== undefined && !(Array.isArray(e.args) && e.args.every((a) => typeof a === "string"))) return { field: "args", error: "expected an array of strings" };
    if (e.env !== undefined && !isStringRecord(e.env)) return { field: "env", error: "expected an object of string values" };
    if (e.cwd !== undefined && typeof e.cwd !== "string") return { field: "cwd", error: "expected a string" };
    return {
      spec: { type, command: e.command, args: (e.args as string[] | undefined) ?? [], env: (e.env as Record<string, string> | undefined) ?? {}, ...(e.cwd ? { cwd: e.cwd as string } : {}) },
    };
  }
  if (typeof e.url !== "string" || !e.url) return { field: "url", error: `missing: an ${type} server needs its url` };
  if (e.headers !== undefined && !isStringRecord(e.headers)) return { field: "headers", error: "expected an object of string values" };
  return { spec: { type, url: e.url, headers: (e.headers as Record<string, string> | undefined) ?? {} } };
}

/** `${VAR}` and `${VAR:-default}`, as Claude Code expands them; unset names are collected. */
export function expandVars(text: string, env: Record<string, string | undefined>, missing: Set<string>): string {
  return text.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_, name: string, fallback: string | undefined) => {
    const v = env[name];
    if (v !== undefined && v !== "") return v;
    if (fallback !== undefined) return fallback;
    if (v === undefined) missing.add(name);
    return "";
  });
}

/** The spec with every ${VAR} expanded, or the names that are not set. */
export function expandSpec(spec: ServerSpec, env: Record<string, string | undefined>): { spec: ServerSpec } | { missing: string[] } {
  const missing = new Set<string>();
  const x = (s: string) => expandVars(s, env, missing);
  const map = (r: Record<string, string>) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, x(v)]));
  if (spec.type === "sdk") return { spec };
  const out: ServerSpec =
    spec.type === "stdio"
      ? { type: "stdio", command: x(spec.command), args: spec.args.map(x), env: map(spec.env), ...(spec.cwd ? { cwd: x(spec.cwd) } : {}) }
      : { type: spec.type, url: x(spec.url), headers: map(spec.headers) };
  return missing.size > 0 ? { missing: [...missing] } : { spec: out };
}

/** How a definition reads to a person deciding whether to run it. */
export function describeSpec(spec: ServerSpec | undefined, raw: unknown): string {
  // An invalid entry is shown as written, unless it cannot be (JSON.stringify recurses).
  if (!spec) return nestedDeeperThan(raw, MAX_ENTRY_DEPTH) ? "(a definition nested too deeply to show)" : (JSON.stringify(raw) ?? String(raw));
  if (spec.type === "sdk") return "in the host program's own process (an SDK MCP server)";
  if (spec.type !== "stdio") {
    const host = hostOf(spec.url);
    const headers = Object.entries(spec.headers).map(([k, v]) => `${k}: ${shown(k, v)}${secretNote(v, `to ${host}`)}`);
    return `${spec.type} ${spec.url}${headers.length ? ` (headers: ${headers.join("; ")})` : ""}`;
  }
  const words = [spec.command, ...spec.args].map(shellWord);
  // Values as written, ${VAR} unexpanded: a name alone (NODE_OPTIONS) hides what it does.
  const env = Object.entries(spec.env).map(([k, v]) => `${k}=${shellWord(shown(k, v))}${LOADS_CODE.test(k) ? " ⚠ changes how programs load code" : ""}${secretNote(v, "to the server")}`);
  return `${words.join(" ")}${env.length ? ` (env: ${env.join("; ")})` : ""}${spec.cwd ? ` (in ${spec.cwd})` : ""}`;
}

/** A secret written into the file itself stays off the screen and out of the pid file; ${VAR} shows. */
function shown(name: string, value: string): string {
  return SECRET_NAME.test(name) && !value.includes("${") ? "(a literal value, hidden)" : value;
}
const SECRET_NAME = /token|key|secret|password|passwd|authorization|cookie|credential/i;

function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`;
}

/** Variables that make a program load or run other code than the command shows. */
const LOADS_CODE = /^(?:NODE_OPTIONS|NODE_PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_\w*|PYTHONPATH|PYTHONSTARTUP|PYTHONHOME|PATH|BASH_ENV|ENV|PERL5OPT|PERL5LIB|RUBYOPT|RUBYLIB|JAVA_TOOL_OPTIONS|_JAVA_OPTIONS|GIT_SSH_COMMAND|PROMPT_COMMAND)$/;
/** `${NAME}` of a variable that holds one of the user's secrets. */
const SECRET_VARS = /\$\{((?:ANTHROPIC_API_KEY|ANTHROPIC_AUTH_TOKEN)|\w*(?:_TOKEN|_KEY|_SECRET|_PASSWORD|_PAT|_CREDENTIALS))(?::-[^}]*)?\}/gi;

function secretNote(value: string, where: string): string {
  const names = [...new Set([...value.matchAll(SECRET_VARS)].map((m) => m[1]!))];
  return names.length > 0 ? ` ⚠ sends your ${names.join(", ")} ${where}` : "";
}

function hostOf(url: string): string {
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

/** What the trust question shows for a project-defined server. */
export function trustItemOf(s: ServerConfig): TrustItem {
  return { kind: "MCP server", name: s.name, file: s.file, command: describeSpec(s.spec, s.raw), fingerprint: fingerprintOf({ mcpServer: s.name, definition: s.raw }) };
}
