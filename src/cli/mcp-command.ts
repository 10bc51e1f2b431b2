// `khaelor mcp list | get | add | remove`, with Claude Code's verbs and flags:
//   khaelor mcp add [-s local|project|user] [-t stdio|http|sse] [-e KEY=VALUE]... [-H "Name: value"]... <name> <command|url> [args...]
//   khaelor mcp add-json [-s scope] <name> '<json>'
//   khaelor mcp remove [-s scope] <name>
//   khaelor mcp list        every server with its status (a project's servers run only when it is trusted)
//   khaelor mcp get <name>  one server in detail, with its tools
// Scopes: local is .khaelor/settings.local.json (kept out of git), project is .mcp.json (shared
// with the team), user is the user settings file.
import { readFileSync } from "node:fs";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { configFiles, describeSpec, loadMcpConfig, parseServerEntry, trustItemOf, type ConfigScope, type ServerConfig } from "../mcp/config.ts";
import { createMcpManager, type ServerView } from "../mcp/manager.ts";
import { excludeFromGit } from "../permissions/index.ts";
import { recordTrust, trustState } from "../trust/project-trust.ts";
import { writeFileAtomic } from "../workspace/atomic-write.ts";
import { EXIT } from "../modes/shared/exit-codes.ts";

export const MCP_HELP = `khaelor mcp — manage MCP servers

Usage:
  khaelor mcp list                               servers from every scope, with their status
  khaelor mcp get <name>                         one server: where it is defined, what runs, its tools
  khaelor mcp add [options] <name> <command> [args...]   a stdio server (put -- before args that start with -)
  khaelor mcp add -t http|sse [options] <name> <url>     a remote server
  khaelor mcp add-json [-s scope] <name> <json>  a server from its JSON definition
  khaelor mcp remove [-s scope] <name>

Options:
  -s, --scope <scope>        local (default: .khaelor/settings.local.json, only you, this project),
                             project (.mcp.json, shared through the repository), user (all projects)
  -t, --transport <kind>     stdio (default), http or sse
  -e, --env KEY=VALUE        environment for a stdio server (repeatable)
  -H, --header "Name: value" header for an http or sse server (repeatable)

\${VAR} and \${VAR:-default} are expanded when the server starts.
A project's servers (.mcp.json, .khaelor/settings*.json) run only once the project is trusted.
`;

const SCOPES = ["local", "project", "user"] as const;
type WritableScope = (typeof SCOPES)[number];

class McpUsage extends Error {}

type Out = { out: (s: string) => void; err: (s: string) => void };

export async function mcpCommand(args: string[], cwd = process.cwd(), io: Out = { out: (s) => void process.stdout.write(s), err: (s) => void process.stderr.write(s) }): Promise<number> {
  const root = resolve(cwd);
  try {
    const [verb, ...rest] = args;
    switch (verb) {
      case "list":
        return await list(root, io);
      case "get":
        return await get(root, rest, io);
      case "add":
        return add(root, rest, io, false);
      case "add-json":
        return add(root, rest, io, true);
      case "remove":
        return remove(root, rest, io);
      case undefined:
      case "-h":
      case "--help":
      case "help":
        io.out(MCP_HELP);
        return verb === undefined ? EXIT.usage : EXIT.ok;
      default:
        throw new McpUsage(`unknown mcp command "${verb}"; use list, get, add, add-json or remove`);
    }
  } catch (e) {
    if (e instanceof McpUsage) {
      io.err(`khaelor mcp: ${e.message}\n`);
      return EXIT.usage;
    }
    throw e;
  }
}

/** Flags and positionals; words after `--` are positionals even when they start with -. */
function parseFlags(args: string[]) {
  const flags = { scope: undefined as WritableScope | undefined, transport: "stdio" as "stdio" | "http" | "sse", env: [] as string[], headers: [] as string[] };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined) throw new McpUsage(`${a} needs a value`);
      return v;
    };
    // After the command (name and command seen), everything belongs to the server.
    if (positional.length >= 2) {
      positional.push(a);
      continue;
    }
    switch (a) {
      case "--":
        positional.push(...args.slice(i + 1));
        i = args.length;
        break;
      case "-s":
      case "--scope": {
        const s = value();
        if (!SCOPES.includes(s as WritableScope)) throw new McpUsage(`--scope must be local, project or user, got "${s}"`);
        flags.scope = s as WritableScope;
        break;
      }
      case "-t":
      case "--transport": {
        const t = value();
        if (t !== "stdio" && t !== "http" && t !== "sse") throw new McpUsage(`--transport must be stdio, http or sse, got "${t}"`);
        flags.transport = t;
        break;
      }
      case "-e":
      case "--env":
        flags.env.push(value());
        break;
      case "-H":
      case "--header":
        flags.headers.push(value());
        break;
      default:
        if (a.startsWith("-") && a !== "-") throw new McpUsage(`unknown option ${a} (khaelor mcp --help)`);
        positional.push(a);
    }
  }
  return { flags, positional };
}

function fileFor(root: string, scope: WritableScope): string {
  const files = configFiles(root, homedir());
  if (scope === "project") return files.find((f) => f.file.endsWith(".mcp.json"))!.file;
  return files.find((f) => f.scope === scope)!.file;
}

/** The file's JSON object (missing file: empty); a file that is not JSON is never overwritten. */
function readObject(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new McpUsage(`cannot read ${file}: ${(e as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new McpUsage(`${file} is not valid JSON (${(e as Error).message}); fix it first, nothing was changed`);
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) throw new McpUsage(`${file} does not hold a JSON object; nothing was changed`);
  return json as Record<string, unknown>;
}

function writeObject(file: string, obj: Record<string, unknown>): void {
  writeFileAtomic(file, new TextEncoder().encode(`${JSON.stringify(obj, null, 2)}\n`));
}

function add(root: string, args: string[], io: Out, fromJson: boolean): number {
  const { flags, positional } = parseFlags(args);
  const scope = flags.scope ?? "local";
  const [name, target, ...rest] = positional;
  if (!name || !target) throw new McpUsage(fromJson ? "usage: khaelor mcp add-json <name> '<json>'" : "usage: khaelor mcp add [options] <name> <command|url> [args...]");
  let entry: Record<string, unknown>;
  if (fromJson) {
    try {
      entry = JSON.parse(target) as Record<string, unknown>;
    } catch (e) {
      throw new McpUsage(`the definition is not valid JSON (${(e as Error).message})`);
    }
  } else if (flags.transport === "stdio") {
    if (flags.headers.length) throw new McpUsage("-H is for http and sse servers; a stdio server takes -e KEY=VALUE");
    entry = { command: target, args: rest };
    if (flags.env.length) entry.env = Object.fromEntries(flags.env.map(keyValue));
  } else {
    if (rest.length) throw new McpUsage(`an ${flags.transport} server takes a url only, got extra words: ${rest.join(" ")}`);
    if (flags.env.length) throw new McpUsage("-e is for stdio servers; an http or sse server takes -H \"Name: value\"");
    entry = { type: flags.transport, url: target };
    if (flags.headers.length) entry.headers = Object.fromEntries(flags.headers.map(header));
  }
  const parsed = parseServerEntry(name, entry);
  if ("error" in parsed) throw new McpUsage(`${parsed.field ? `${parsed.field}: ` : ""}${parsed.error}`);
  if (parsed.spec.type !== "stdio") {
    try {
      new URL(parsed.spec.url.replace(/\$\{[^}]*\}/g, "x"));
    } catch {
      throw new McpUsage(`"${parsed.spec.url}" is not a URL`);
    }
  }
  const file = fileFor(root, scope);
  const obj = readObject(file);
  const servers = (obj.mcpServers && typeof obj.mcpServers === "object" && !Array.isArray(obj.mcpServers) ? obj.mcpServers : {}) as Record<string, unknown>;
  if (name in servers) throw new McpUsage(`an MCP server named ${name} is already in ${scope} scope (${file}); remove it first (khaelor mcp remove -s ${scope} ${name})`);
  servers[name] = entry;
  obj.mcpServers = servers;
  writeObject(file, obj);
  if (scope === "local") excludeFromGit(file);
  // The user wrote this one: it needs no trust question in their own project.
  if (scope !== "user") {
    const added = loadMcpConfig({ projectRoot: root }).servers.find((s) => s.name === name && s.file === file);
    if (added) recordTrust(root, [trustItemOf(added)], "trust");
  }
  io.out(`Added ${parsed.spec.type} MCP server ${name} to ${scope} scope (${file}): ${describeSpec(parsed.spec, entry)}\n`);
  return EXIT.ok;
}

function keyValue(s: string): [string, string] {
  const eq = s.indexOf("=");
  if (eq <= 0) throw new McpUsage(`-e expects KEY=VALUE, got "${s}"`);
  return [s.slice(0, eq), s.slice(eq + 1)];
}

function header(s: string): [string, string] {
  const colon = s.indexOf(":");
  if (colon <= 0) throw new McpUsage(`-H expects "Name: value", got "${s}"`);
  return [s.slice(0, colon).trim(), s.slice(colon + 1).trim()];
}

function remove(root: string, args: string[], io: Out): number {
  const { flags, positional } = parseFlags(args);
  const [name] = positional;
  if (!name || positional.length > 1) throw new McpUsage("usage: khaelor mcp remove [-s scope] <name>");
  const scopes = flags.scope ? [flags.scope] : [...SCOPES];
  const holding = scopes.map((scope) => ({ scope, file: fileFor(root, scope) })).filter(({ file }) => {
    const servers = readObjectOrEmpty(file).mcpServers;
    return !!servers && typeof servers === "object" && name in servers;
  });
  if (holding.length === 0) {
    const elsewhere = loadMcpConfig({ projectRoot: root }).servers.find((s) => s.name === name);
    throw new McpUsage(
      elsewhere ? `${name} is defined in ${elsewhere.file}, which khaelor mcp does not edit; remove it there` : `no MCP server named ${name}${flags.scope ? ` in ${flags.scope} scope` : ""}`,
    );
  }
  if (holding.length > 1) throw new McpUsage(`${name} is defined in ${holding.map((h) => `${h.scope} (${h.file})`).join(" and ")}; say which with -s`);
  const { scope, file } = holding[0]!;
  const obj = readObject(file);
  delete (obj.mcpServers as Record<string, unknown>)[name];
  writeObject(file, obj);
  io.out(`Removed MCP server ${name} from ${scope} scope (${file})\n`);
  return EXIT.ok;
}

function readObjectOrEmpty(file: string): Record<string, unknown> {
  try {
    return readObject(file);
  } catch {
    return {};
  }
}

/** Connects to the servers that may run here (a project's only when trusted), for list and get. */
async function probe(root: string, servers: ServerConfig[]): Promise<ServerView[]> {
  const gated = servers.filter((s) => s.needsTrust && s.spec && !s.disabled);
  const trusted = new Set(trustState(root, gated.map(trustItemOf)).trusted.map((i) => i.name));
  const untrusted = new Set(gated.filter((s) => !trusted.has(s.name)).map((s) => s.name));
  const env = Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined));
  const startupTimeoutMs = Number(process.env.MCP_TIMEOUT) > 0 ? Number(process.env.MCP_TIMEOUT) : undefined;
  const manager = createMcpManager({ servers, untrusted, cwd: root, env, ...(startupTimeoutMs ? { startupTimeoutMs } : {}) });
  manager.start();
  try {
    await manager.ready();
    return manager.servers();
  } finally {
    await manager.close();
  }
}

export function statusWords(s: ServerView): string {
  switch (s.status.state) {
    case "connected":
      return `connected (${s.tools.length} tool${s.tools.length === 1 ? "" : "s"})`;
    case "failed":
      return `failed: ${s.status.reason}`;
    case "needs-approval":
      return `needs approval: ${s.status.reason}; open khaelor here to review and trust it`;
    case "disabled":
      return "disabled";
    case "pending":
      return "still connecting (MCP_TIMEOUT passed)";
  }
}

async function list(root: string, io: Out): Promise<number> {
  const config = loadMcpConfig({ projectRoot: root });
  for (const p of config.problems) io.err(`khaelor mcp: ${p}\n`);
  if (config.servers.length === 0) {
    io.out("No MCP servers configured. Add one with khaelor mcp add <name> <command> [args...]\n");
    return EXIT.ok;
  }
  for (const s of await probe(root, config.servers)) io.out(`${s.name} (${s.scope}): ${s.target} - ${statusWords(s)}\n`);
  return EXIT.ok;
}

async function get(root: string, args: string[], io: Out): Promise<number> {
  const [name] = args;
  if (!name || args.length > 1) throw new McpUsage("usage: khaelor mcp get <name>");
  const config = loadMcpConfig({ projectRoot: root });
  const server = config.servers.find((s) => s.name === name);
  if (!server) throw new McpUsage(`no MCP server named ${name}${config.servers.length ? ` (there are: ${config.servers.map((s) => s.name).join(", ")})` : ""}`);
  const [view] = await probe(root, [server]);
  const spec = server.spec;
  const lines = [`${name}:`, `  Scope: ${server.scope} (${server.file})`, `  Type: ${spec?.type ?? "invalid"}`];
  if (spec?.type === "stdio") {
    lines.push(`  Command: ${spec.command}`, `  Args: ${spec.args.join(" ")}`);
    if (Object.keys(spec.env).length) lines.push(`  Environment: ${Object.keys(spec.env).join(", ")}`);
  } else if (spec && spec.type !== "sdk") {
    lines.push(`  URL: ${spec.url}`);
    if (Object.keys(spec.headers).length) lines.push(`  Headers: ${Object.keys(spec.headers).join(", ")}`);
  }
  lines.push(`  Status: ${statusWords(view!)}`);
  for (const t of view!.tools) lines.push(`    ${t.fullName}${t.readOnly ? " (read-only)" : ""}${t.description ? ` — ${t.description.split("\n")[0]!.slice(0, 100)}` : ""}`);
  lines.push(`  To remove: khaelor mcp remove ${server.scope === "cli" ? "" : `-s ${server.scope} `}${name}`);
  io.out(`${lines.join("\n")}\n`);
  return EXIT.ok;
}

export type { ConfigScope };
