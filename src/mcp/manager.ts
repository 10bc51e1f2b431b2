// The session's MCP servers: started in parallel when the session opens, offered to the model as
// tools once connected, stopped with the session. Nothing here blocks the first frame; the first
// request waits for the servers at most until the startup deadline (MCP_TIMEOUT).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import type { JsonSchema } from "../model/types.ts";
import type { Tool } from "../tools/types.ts";
import { SpillFiles } from "../workspace/spill.ts";
import { isLocalWorkspace } from "../workspace/types.ts";
import type { StartedProcess } from "../workspace/types.ts";
import type { ServerConfig } from "./config.ts";
import { ServerConnection, type ServerState } from "./connection.ts";
import { convertResult } from "./results.ts";
import { capTotal, toolDescription } from "./tool-limits.ts";
import { assignToolNames } from "./tool-names.ts";

export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 10 * 60_000;
const READY_SLACK_MS = 300;

export type ServerView = {
  name: string;
  scope: ServerConfig["scope"];
  file: string;
  /** What runs: the command line or the URL. */
  target: string;
  transport: "stdio" | "http" | "sse" | "sdk" | "invalid";
  status: ServerState;
  tools: Array<{ name: string; fullName: string; description: string; readOnly: boolean }>;
  /** Tools of its list left out, and why (too deep, malformed, over a cap): one line each. */
  notices: string[];
};

type Offer = { tools: Map<string, McpTool[]>; names: Map<string, Map<string, string>>; notices: Map<string, string> };

export type McpManagerOptions = {
  servers: ServerConfig[];
  /** Project-defined servers the user has not trusted: listed as needing approval, never started. */
  untrusted?: Set<string>;
  cwd: string;
  env: Record<string, string>;
  startupTimeoutMs?: number;
  toolTimeoutMs?: number;
  /** The clock that tells a server flooding tools/list_changed; for tests. */
  now?: () => number;
  /** The longest message a stdio server may send; for tests (the default is the transport's). */
  maxMessageBytes?: number;
  /** Where the pids of running stdio servers are kept, for --resume after a kill -9. */
  pidFile?: string;
};

export type McpManager = ReturnType<typeof createMcpManager>;

export function createMcpManager(opts: McpManagerOptions) {
  const startupTimeoutMs = opts.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS;
  const listeners = new Set<() => void>();
  let toolCache: Tool[] | null = null;
  let offerCache: Offer | null = null;
  const changed = () => {
    toolCache = null;
    offerCache = null;
    if (opts.pidFile) writePidFile(opts.pidFile, connections);
    for (const l of listeners) l();
  };
  const connections = opts.servers.map(
    (config) =>
      new ServerConnection(config, { cwd: opts.cwd, env: opts.env, startupTimeoutMs, toolTimeoutMs: opts.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS, ...(opts.maxMessageBytes ? { maxMessageBytes: opts.maxMessageBytes } : {}), ...(opts.now ? { now: opts.now } : {}), onChange: changed }),
  );
  const untrusted = opts.untrusted ?? new Set<string>();
  const approvalNeeded = (c: ServerConnection) => untrusted.has(c.name);
  let started = false;
  /** When the first request stops waiting: the startup timeout after the latest start (the session's, or one the user asked for). */
  let waitUntil = 0;
  const extendWait = () => {
    waitUntil = Math.max(waitUntil, Date.now() + startupTimeoutMs + READY_SLACK_MS);
  };

  const rmQuietly = (path: string) => {
    try {
      rmSync(path, { force: true });
    } catch {
      // nothing to clean up in a data directory that cannot be written
    }
  };

  /** What each server offers once all servers' tools are capped together, and their API names. */
  function offer(): Offer {
    if (offerCache) return offerCache;
    const capped = capTotal(connections.map((c) => ({ name: c.name, tools: c.offersTools ? c.tools : [] })));
    const names = assignToolNames(connections.map((c) => ({ server: c.name, tools: capped.kept.get(c.name)!.map((t) => t.name) })));
    offerCache = { tools: capped.kept, names, notices: capped.notices };
    return offerCache;
  }

  function toolsOf(c: ServerConnection): Tool[] {
    const { tools, names } = offer();
    const named = names.get(c.name)!;
    return tools.get(c.name)!.map((t) => asTool(c, t, named.get(t.name)!));
  }

  return {
    /** Starts every server that may run, all at once. Returns at once. */
    start(): void {
      if (started) return;
      started = true;
      extendWait();
      for (const c of connections) if (approvalNeeded(c)) c.state = { state: "needs-approval", reason: "defined in this project's files, which are not trusted" };
      for (const c of connections) if (!approvalNeeded(c)) void c.connect();
    },
    /** Resolves when every server connected or failed, or the startup deadline passed. */
    async ready(): Promise<void> {
      // A little past the servers' own deadline, so one that times out is seen failed, not pending.
      const left = waitUntil - Date.now();
      if (!started || left <= 0) return;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const settled = Promise.all(connections.map((c) => c.settled())).then(() => undefined);
      await Promise.race([settled, new Promise<void>((r) => (timer = setTimeout(r, left)))]).finally(() => clearTimeout(timer));
    },
    /** Resolves when no server is starting or listing its tools again. */
    async listed(): Promise<void> {
      await Promise.all(connections.map((c) => c.listed()));
    },
    /** The tools of every connected server; a new array only when something changed. */
    tools(): Tool[] {
      toolCache ??= connections.flatMap(toolsOf);
      return toolCache;
    },
    servers(): ServerView[] {
      return connections.map((c) => ({
        name: c.name,
        scope: c.config.scope,
        file: c.config.file,
        target: c.description,
        transport: c.config.spec?.type ?? "invalid",
        status: c.state,
        tools: offer()
          .tools.get(c.name)!
          .map((t) => ({ name: t.name, fullName: offer().names.get(c.name)!.get(t.name)!, description: t.description ?? "", readOnly: t.annotations?.readOnlyHint === true })),
        notices: [...c.notices, ...(offer().notices.has(c.name) ? [offer().notices.get(c.name)!] : [])],
      }));
    },
    /** /mcp reconnect. A server of an untrusted project is never started here: trust it (allow) first. */
    async reconnect(name: string): Promise<ServerState | null> {
      const c = connections.find((x) => x.name === name);
      if (!c || untrusted.has(name)) return c?.state ?? null;
      extendWait();
      await c.reconnect();
      return c.state;
    },
    /** The user trusted it: it may start now. */
    allow(name: string): void {
      untrusted.delete(name);
    },
    onChange(listener: () => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close(): Promise<void> {
      await Promise.all(connections.map((c) => c.close()));
      // Best effort: an unwritable data directory was already reported when the session opened.
      if (opts.pidFile) rmQuietly(opts.pidFile);
    },
    /** For process exit: signal every server's group, no waiting. */
    killSync(): void {
      for (const c of connections) c.killSync();
    },
  };
}

/** One of a server's tools as the tool runtime takes it, under its API name `fullName`. */
function asTool(c: ServerConnection, t: McpTool, fullName: string): Tool {
  const readOnly = t.annotations?.readOnlyHint === true;
  // $schema is for validators; it only costs the model tokens.
  const { $schema: _drop, ...rest } = t.inputSchema as Record<string, unknown>;
  const schema = { ...rest, type: "object" } as JsonSchema;
  const description = toolDescription(t);
  return {
    name: fullName,
    description: description || `${t.name} (from the MCP server ${c.name})`,
    inputSchema: z.record(z.string(), z.unknown()),
    jsonSchema: schema,
    readOnly,
    destructive: !readOnly && t.annotations?.destructiveHint === true,
    summarize: (input) => `${c.name} · ${t.name}${briefInput(input)}`,
    async run(input, ctx) {
      const r = await c.call(t.name, input, ctx.signal);
      if (!r.ok) return { content: r.failure, isError: true };
      // Without a local workspace (none today) a long result is cut without a spill file.
      const spill = isLocalWorkspace(ctx.workspace) ? ctx.workspace.spill : new SpillFiles(join(tmpdir(), "khaelor-spill"));
      return convertResult(r.result, spill, `mcp-${c.name}-${t.name}`);
    },
  };
}

/** The pids of the running stdio servers, for the orphan check after a crash (best effort: the session goes on). */
function writePidFile(pidFile: string, connections: readonly ServerConnection[]): void {
  const live = connections.filter((c) => c.pid !== null).map((c) => ({ name: c.name, pid: c.pid, command: c.description }));
  try {
    if (live.length === 0) rmSync(pidFile, { force: true });
    else {
      mkdirSync(dirname(pidFile), { recursive: true });
      writeFileSync(pidFile, JSON.stringify(live), { mode: 0o600 });
    }
  } catch {
    // the orphan check after a crash is best effort; the session goes on
  }
}

function briefInput(input: unknown): string {
  if (!input || typeof input !== "object" || Object.keys(input).length === 0) return "";
  const s = JSON.stringify(input);
  return ` ${s.length > 120 ? `${s.slice(0, 119)}…` : s}`;
}

/** The stdio servers a killed run left running, from its pid file (read on --resume). */
export function leftoverServers(pidFile: string): StartedProcess[] {
  try {
    const list = z.array(z.object({ name: z.string(), pid: z.number().int().positive(), command: z.string() })).parse(JSON.parse(readFileSync(pidFile, "utf8")));
    return list.map((s) => ({ toolUseId: `mcp-${s.name}`, name: `MCP server ${s.name}`, command: s.command, pid: s.pid }));
  } catch {
    return [];
  }
}
