// One MCP server: connecting (with the startup timeout), its tool list, calls, and the reasons it
// failed in words a user can act on. A server that dies is restarted by the next call; a call in
// flight when it dies answers with an error.
//
// The SDK is loaded on the first connect, not with this module: importing it costs hundreds of
// milliseconds (its zod schemas, ajv), which a session without servers must not pay at start.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { VERSION } from "../version.ts";
import { describeSpec, expandSpec, type ServerConfig, type ServerSpec } from "./config.ts";
import type { GroupStdioTransport } from "./stdio-transport.ts";

/** JSON-RPC error codes the SDK uses (its ErrorCode enum, without loading it). */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

async function loadSdk() {
  const [client, sse, http, types, stdio, list, refresh] = await Promise.all([
    import("@modelcontextprotocol/sdk/client/index.js"),
    import("@modelcontextprotocol/sdk/client/sse.js"),
    import("@modelcontextprotocol/sdk/client/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
    import("./stdio-transport.ts"),
    import("./list-tools.ts"),
    import("./list-refresh.ts"),
  ]);
  return { Client: client.Client, SSEClientTransport: sse.SSEClientTransport, StreamableHTTPClientTransport: http.StreamableHTTPClientTransport, ToolListChanged: types.ToolListChangedNotificationSchema, GroupStdioTransport: stdio.GroupStdioTransport, listTools: list.listToolsLeniently, ListRefresh: refresh.ListRefresh };
}
type Sdk = Awaited<ReturnType<typeof loadSdk>>;
let sdk: Promise<Sdk> | null = null;

export type ServerState =
  | { state: "pending" }
  | { state: "connected" }
  | { state: "failed"; reason: string }
  | { state: "needs-approval"; reason: string }
  | { state: "disabled" };

export type ConnectionOptions = {
  cwd: string;
  /** The environment for stdio servers and for ${VAR} expansion. */
  env: Record<string, string>;
  startupTimeoutMs: number;
  toolTimeoutMs: number;
  /** The clock that tells a flood of tools/list_changed notifications (tests set it). */
  now?: () => number;
  /** The longest message a stdio server may send (default: the transport's MAX_MESSAGE_BYTES). */
  maxMessageBytes?: number;
  onChange: () => void;
};

export class ServerConnection {
  state: ServerState = { state: "pending" };
  tools: McpTool[] = [];
  /** What the latest listing left out, and why. */
  private listNotices: string[] = [];
  /** Set when it sent too many tools/list_changed notifications and is no longer listened to. */
  private floodNotice: string | null = null;
  private refresh: { idle(): Promise<void> } | null = null;
  private client: Client | null = null;
  private transport: Transport | null = null;
  /** The transport when it is our stdio one (its pid, stderr, exit). */
  private stdio: GroupStdioTransport | null = null;
  private connecting: Promise<void> | null = null;
  private closed = false;
  /** Set when the server went away under us: the next call starts it again. */
  private lost = false;
  private everConnected = false;

  constructor(
    readonly config: ServerConfig,
    private readonly opts: ConnectionOptions,
  ) {
    if (config.disabled) this.state = { state: "disabled" };
    else if (config.error) this.state = { state: "failed", reason: config.error };
  }

  get name(): string {
    return this.config.name;
  }

  get pid(): number | null {
    return this.stdio?.pid ?? null;
  }

  /** Connected, or died after connecting: its tools stay offered (a call starts it again), so the model's tool list and the cached prefix do not change. */
  get offersTools(): boolean {
    return this.state.state === "connected" || (this.everConnected && this.state.state !== "disabled" && this.tools.length > 0);
  }

  get description(): string {
    return describeSpec(this.config.spec, this.config.raw);
  }

  /** What the user should know about its tool list: tools left out and why, notifications ignored. */
  get notices(): string[] {
    return this.floodNotice ? [...this.listNotices, this.floodNotice] : this.listNotices;
  }

  /** Resolves when no start is in flight. */
  settled(): Promise<void> {
    return this.connecting ?? Promise.resolve();
  }

  /** Resolves when no start and no re-listing of its tools is in flight. */
  async listed(): Promise<void> {
    await this.settled();
    await this.refresh?.idle();
  }

  /** Starts (or restarts) the server; resolves when it is connected or has failed. Never throws. */
  connect(): Promise<void> {
    if (this.closed || this.config.disabled || !this.config.spec) return Promise.resolve();
    this.connecting ??= this.connectOnce(this.config.spec).finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private set(state: ServerState): void {
    this.state = state;
    this.opts.onChange();
  }

  private async connectOnce(raw: ServerSpec): Promise<void> {
    await this.dropClient();
    this.lost = false;
    this.floodNotice = null;
    this.refresh = null;
    this.set({ state: "pending" });
    const expanded = expandSpec(raw, this.opts.env);
    if ("missing" in expanded) {
      this.set({ state: "failed", reason: `${expanded.missing.map((m) => `\${${m}}`).join(", ")} ${expanded.missing.length === 1 ? "is" : "are"} not set in the environment (used in ${this.config.file})` });
      return;
    }
    const spec = expanded.spec;
    // One deadline from here: loading the client, the handshake and the tool list together.
    const deadline = Date.now() + this.opts.startupTimeoutMs;
    const late = `did not answer within ${this.opts.startupTimeoutMs} ms (MCP_TIMEOUT)`;
    let lib: Sdk;
    try {
      lib = await withTimeout((sdk ??= loadSdk()), this.opts.startupTimeoutMs, `KHAELOR's MCP client did not load within ${this.opts.startupTimeoutMs} ms (MCP_TIMEOUT)`);
    } catch (e) {
      this.set({ state: "failed", reason: `the MCP client could not load: ${e instanceof Error ? e.message : String(e)}` });
      return;
    }
    if (this.closed) return;
    const transport = this.makeTransport(lib, spec);
    const client = new lib.Client({ name: "khaelor", version: VERSION }, { capabilities: {} });
    this.transport = transport;
    this.stdio = transport instanceof lib.GroupStdioTransport ? transport : null;
    this.client = client;
    try {
      const left = Math.max(1, deadline - Date.now());
      const ready = client.connect(transport, { timeout: left }).then(() => lib.listTools(client, this.opts.startupTimeoutMs));
      ({ tools: this.tools, notices: this.listNotices } = await withTimeout(ready, left, late));
    } catch (e) {
      if (this.closed) return;
      // Failed as soon as known; stopping what is left of it may take a moment more.
      this.set({ state: "failed", reason: this.explain(e, spec) });
      await this.dropClient();
      return;
    }
    if (this.closed) {
      await this.dropClient();
      return;
    }
    client.onclose = () => {
      if (this.client !== client || this.closed) return;
      this.lost = true;
      this.set({ state: "failed", reason: `${this.exitWords()}; it is restarted on the next call` });
    };
    if (client.getServerCapabilities()?.tools?.listChanged) {
      const refresh = new lib.ListRefresh({
        relist: async () => {
          const list = await lib.listTools(client, this.opts.startupTimeoutMs);
          if (this.client !== client) return;
          ({ tools: this.tools, notices: this.listNotices } = list);
          this.opts.onChange();
        },
        onFlood: (notice) => {
          this.floodNotice = notice;
          this.opts.onChange();
        },
        ...(this.opts.now ? { now: this.opts.now } : {}),
      });
      this.refresh = refresh;
      client.setNotificationHandler(lib.ToolListChanged, () => refresh.changed());
    }
    this.everConnected = true;
    this.set({ state: "connected" });
  }

  private makeTransport(lib: Sdk, spec: ServerSpec): Transport {
    if (spec.type === "sdk") return spec.transport();
    if (spec.type === "stdio") return new lib.GroupStdioTransport(spec, { cwd: this.opts.cwd, env: { ...this.opts.env, ...spec.env }, ...(this.opts.maxMessageBytes ? { maxMessageBytes: this.opts.maxMessageBytes } : {}) });
    const requestInit = { headers: spec.headers };
    if (spec.type === "http") return new lib.StreamableHTTPClientTransport(new URL(spec.url), { requestInit });
    return new lib.SSEClientTransport(new URL(spec.url), {
      requestInit,
      eventSourceInit: { fetch: (url, init) => fetch(url, { ...init, headers: { ...(init?.headers as Record<string, string> | undefined), ...spec.headers } }) },
    });
  }

  /** What the user should read about why it failed. */
  private explain(e: unknown, spec: ServerSpec): string {
    const msg = e instanceof Error ? e.message : String(e);
    const code = (e as { code?: unknown }).code;
    if (spec.type === "sdk") return `the host program's server did not answer: ${msg}`;
    if (spec.type !== "stdio") {
      if (code === 401 || /\b401\b|Unauthorized/i.test(msg))
        return `${spec.url} answered 401 Unauthorized: it needs authentication, and OAuth is not supported yet; pass a token with a header (khaelor mcp add --transport ${spec.type} -H "Authorization: Bearer …")`;
      if (typeof code === "number" && code >= 400) return `${spec.url} answered HTTP ${code}: ${msg.replace(/^Streamable HTTP error: /, "")}`;
      if (/ECONNREFUSED|Unable to connect|fetch failed|ConnectionRefused/i.test(msg)) return `cannot connect to ${spec.url} (connection refused)`;
      return `${spec.url}: ${msg}`;
    }
    const t = this.stdio;
    const parts = [/command not found/.test(msg) ? `${msg} (is it installed and on PATH?)` : t?.exit || t?.overflow ? this.exitWords() : msg];
    if (t?.junk) parts.push(`it printed ${t.junk.count} line${t.junk.count === 1 ? "" : "s"} on stdout that ${t.junk.count === 1 ? "is" : "are"} not MCP messages (a stdio server must print only JSON-RPC there), the first: ${JSON.stringify(t.junk.first)}`);
    const err = t?.stderrTail.trim();
    if (err) parts.push(`its stderr ended with: ${lastLines(err, 3)}`);
    return parts.join("; ");
  }

  private exitWords(): string {
    const t = this.stdio;
    if (t?.overflow) return `it sent a message longer than ${mb(t.overflow.limit)}, the limit for one message, so it was stopped`;
    const exit = t?.exit;
    if (!exit) return "the server closed the connection";
    const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
    const err = t?.stderrTail.trim();
    return `the server ${how}${err ? ` (stderr: ${lastLines(err, 2)})` : ""}`;
  }

  /** Call one tool. A server that died is started first; errors come back as messages, never thrown. */
  async call(tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<{ ok: true; result: CallToolResult } | { ok: false; failure: string }> {
    if (this.lost || !this.client) {
      if (this.state.state === "disabled") return { ok: false, failure: `the MCP server ${this.name} is disabled` };
      await this.connect();
    }
    const client = this.client;
    if (!client || this.state.state !== "connected") return { ok: false, failure: `the MCP server ${this.name} is not available: ${"reason" in this.state ? this.state.reason : this.state.state}` };
    try {
      const r = await client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: this.opts.toolTimeoutMs, resetTimeoutOnProgress: true });
      return { ok: true, result: r as CallToolResult };
    } catch (e) {
      if (signal.aborted) return { ok: false, failure: "Cancelled by the user; the server was told to stop the call." };
      const code = (e as { code?: unknown }).code;
      if (code === REQUEST_TIMEOUT)
        return { ok: false, failure: `the MCP server ${this.name} did not answer within ${this.opts.toolTimeoutMs} ms (MCP_TOOL_TIMEOUT); the call was cancelled` };
      if (this.lost || code === CONNECTION_CLOSED) {
        this.lost = true;
        return { ok: false, failure: `the MCP server ${this.name} stopped during the call: ${this.exitWords()}. It will be restarted on the next call` };
      }
      return { ok: false, failure: `the MCP server ${this.name} answered with an error: ${e instanceof Error ? e.message : String(e)}` };
    }
  }

  /** /mcp reconnect: stop and start again. */
  async reconnect(): Promise<void> {
    if (!this.config.spec || this.config.disabled) return;
    this.closed = false;
    await this.connecting;
    await this.connect();
  }

  private async dropClient(): Promise<void> {
    const client = this.client;
    const transport = this.transport;
    this.client = null;
    this.transport = null;
    if (!client) return;
    // stdio stays for its exit and stderr (the reason in the status) until the next start
    client.onclose = undefined;
    try {
      await client.close();
    } catch {}
    try {
      await transport?.close();
    } catch {}
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.dropClient();
  }

  killSync(): void {
    if (this.transport && this.stdio === this.transport) this.stdio.killSync();
  }
}

const mb = (bytes: number) => `${+(bytes / (1024 * 1024)).toFixed(1)} MB`;

function lastLines(text: string, n: number): string {
  return text.split("\n").slice(-n).join(" / ").slice(-400);
}

function withTimeout<T>(p: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  return Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(message)), ms)))]).finally(() => clearTimeout(timer));
}
