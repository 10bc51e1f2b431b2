// What a session needs of MCP, in one place so the composition root only wires it: the servers
// from every config source, the project-trust decision for the ones a project's files define, the
// manager that runs them, and the notices the user should read.
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { loadMcpConfig, trustItemOf, type PluginMcp, type ServerConfig } from "./config.ts";
import { createMcpManager, DEFAULT_STARTUP_TIMEOUT_MS, DEFAULT_TOOL_TIMEOUT_MS, type McpManager, type ServerView } from "./manager.ts";
import { recordTrust, skippedMessage, trustState, type TrustItem } from "../trust/project-trust.ts";

export type SessionMcpOptions = {
  projectRoot: string;
  cliConfigs: string[];
  strict: boolean;
  /** --trust-project: this run runs the project's servers unasked (nothing is remembered). */
  trustProject: boolean;
  /** The app can ask; print mode cannot. */
  interactive: boolean;
  env: Record<string, string | undefined>;
  /** The environment stdio servers get (the session's mark added). */
  serverEnv: Record<string, string>;
  pidFile?: string;
  trustFile?: string;
  /** Servers the host program runs in its own process (the Agent SDK's sdkMcpServers); a config server of the same name gives way. */
  hostServers?: Array<{ name: string; transport: () => Transport }>;
  /** The session's plugins' .mcp.json; a plugin not on yet (a project's, waiting for trust) starts its servers once it is (startPlugin). */
  plugins?: Array<PluginMcp & { active: () => boolean }>;
};

/** What a mode sees of the session's MCP servers (src/agent's AgentSession.mcp). */
export interface McpView {
  /** Resolves when every server connected or failed, or the startup deadline passed. */
  ready(): Promise<void>;
  servers(): ServerView[];
  /** The MCP tools offered now (mcp__server__tool). */
  toolNames(): string[];
  /** Stop and start one server again (also one the user just trusted). */
  reconnect(name: string): Promise<void>;
  /** A server's status or tool list changed. Returns the unsubscribe. */
  onChange(listener: () => void): () => void;
  /** Project-defined servers never asked about: the app asks once (answerTrust); print mode skipped them. */
  pendingTrust(): TrustItem[];
  /** Every project-defined server, asked about or not (for /mcp to trust one later). */
  trustItems(): TrustItem[];
  /** Remember the answer about these servers (default: the pending ones); trusted ones start. */
  answerTrust(answer: "trust" | "decline", names?: string[]): Promise<void>;
  /** A plugin was trusted: its servers start. */
  startPlugin(plugin: string): Promise<void>;
}

export type SessionMcp = { manager: McpManager; notices: string[]; view: McpView };

/** A positive whole number of milliseconds from the environment, or the default (with a notice when set badly). */
function msFromEnv(env: Record<string, string | undefined>, name: string, fallback: number, notices: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (Number.isInteger(n) && n > 0) return n;
  notices.push(`${name}=${raw} is not a positive number of milliseconds; using ${fallback}`);
  return fallback;
}

export function openSessionMcp(o: SessionMcpOptions): SessionMcp {
  const notices: string[] = [];
  const loaded = loadMcpConfig({ projectRoot: o.projectRoot, cliConfigs: o.cliConfigs, strict: o.strict, ...(o.plugins ? { plugins: o.plugins } : {}) });
  const pluginOf = (server: ServerConfig) => (server.scope === "plugin" ? o.plugins?.find((p) => p.file === server.file) : undefined);
  notices.push(...loaded.problems.map((p) => `MCP: ${p}`));
  const hosted = (o.hostServers ?? []).map(
    (h): ServerConfig => ({ name: h.name, scope: "sdk", file: "the host program (initialize's sdkMcpServers)", raw: { type: "sdk", name: h.name }, spec: { type: "sdk", transport: h.transport }, disabled: false, needsTrust: false }),
  );
  for (const h of hosted) if (loaded.servers.some((c) => c.name === h.name)) notices.push(`MCP: the host program's server ${h.name} is used; the configured server of that name is not`);
  const config = { servers: [...loaded.servers.filter((c) => !hosted.some((h) => h.name === c.name)), ...hosted] };
  const gated = config.servers.filter((s) => s.needsTrust && s.spec && !s.disabled);
  const items = new Map<string, TrustItem>(gated.map((s) => [s.name, trustItemOf(s)]));
  const state = trustState(o.projectRoot, [...items.values()], o.trustFile);
  const allowed = new Set(o.trustProject ? [...items.keys()] : state.trusted.map((i) => i.name));
  const untrusted = new Set([...items.keys()].filter((n) => !allowed.has(n)));
  for (const s of config.servers) if (pluginOf(s) && !pluginOf(s)!.active()) untrusted.add(s.name);
  const pendingTrust = o.interactive && !o.trustProject ? state.unasked : [];
  if (!o.interactive && untrusted.size > 0) notices.push(skippedMessage(o.projectRoot, [...items.values()].filter((i) => untrusted.has(i.name))));

  const manager = createMcpManager({
    servers: config.servers,
    untrusted,
    cwd: o.projectRoot,
    env: o.serverEnv,
    startupTimeoutMs: msFromEnv(o.env, "MCP_TIMEOUT", DEFAULT_STARTUP_TIMEOUT_MS, notices),
    toolTimeoutMs: msFromEnv(o.env, "MCP_TOOL_TIMEOUT", DEFAULT_TOOL_TIMEOUT_MS, notices),
    ...(o.pidFile ? { pidFile: o.pidFile } : {}),
  });
  manager.start();
  const view: McpView = {
    ready: () => manager.ready(),
    servers: () => manager.servers(),
    toolNames: () => manager.tools().map((t) => t.name),
    async reconnect(name) {
      await manager.reconnect(name);
    },
    onChange: (l) => manager.onChange(l),
    pendingTrust: () => [...pendingTrust],
    trustItems: () => [...items.values()],
    async answerTrust(answer, names) {
      const asked = names ? [...items.values()].filter((i) => names.includes(i.name)) : [...pendingTrust];
      for (const i of asked) if (pendingTrust.includes(i)) pendingTrust.splice(pendingTrust.indexOf(i), 1);
      recordTrust(o.projectRoot, asked, answer, o.trustFile);
      if (answer !== "trust") return;
      for (const i of asked) manager.allow(i.name);
      await Promise.all(asked.map((i) => manager.reconnect(i.name)));
    },
    async startPlugin(plugin) {
      const names = config.servers.filter((s) => pluginOf(s)?.name === plugin).map((s) => s.name);
      for (const n of names) manager.allow(n);
      await Promise.all(names.map((n) => manager.reconnect(n)));
    },
  };
  return { manager, notices, view };
}

/** One line per server that did not connect and per thing a server's tool list lost, for stderr or a notice. */
export function serverNotices(servers: ServerView[]): string[] {
  return servers.flatMap((s) => [...(s.status.state === "failed" ? [`MCP server ${s.name} failed: ${"reason" in s.status ? s.status.reason : ""}`] : []), ...s.notices.map((n) => `MCP server ${s.name}: ${n}`)]);
}

export type { ServerConfig };
