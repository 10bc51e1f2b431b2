// The host's control requests (initialize, interrupt, set_model, set_permission_mode, ...), answered
// as they arrive, also while a turn runs. One handler per subtype; an unknown one is refused by
// name, so the host knows which call to give up on, and the session goes on.
import { homedir } from "node:os";
import type { AgentSession } from "../../agent/types.ts";
import type { PermissionMode } from "../../events/types.ts";
import { agentCatalogBeforeOpen } from "../../agent/subagents/session-catalog.ts";
import { parseAgentsJson } from "../../extensions/agents.ts";
import { hostCommands } from "../../extensions/host-commands.ts";
import { loadSessionExtensions } from "../../extensions/session-extensions.ts";
import { DEFAULT_MODEL, SUGGESTED_MODELS } from "../../model/models.ts";
import { userConfigDir } from "../../permissions/index.ts";
import { mcpServerStatus } from "../../print/system-init.ts";
import type { RunOptions } from "../shared/run-options.ts";
import type { ControlChannel } from "./control.ts";
import type { Launch, LazySession } from "./lazy-session.ts";
import { sdkHookEntries } from "./sdk-hooks.ts";
import { sdkMcpServers } from "./sdk-mcp.ts";
import type { ControlRequestLine } from "./wire.ts";

const MODES: PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"];

export type ControlContext = {
  opts: RunOptions;
  launch: Launch;
  session: LazySession;
  control: ControlChannel;
  cwd: string;
  /** A line on stderr, once per key. */
  once(key: string, text: string): void;
  /** Stops the running turn, if any. */
  interrupt(): void;
  /** Writes a line to the host. */
  writeLine(o: object): void;
};

type Request = Record<string, unknown> & { subtype: string };
type Reply = { answer(response?: Record<string, unknown>): void; refuse(error: string): void };
type Handler = (req: Request, reply: Reply, ctx: ControlContext) => void | Promise<void>;

export async function handleControl(line: ControlRequestLine, ctx: ControlContext): Promise<void> {
  const req = line.request as Request;
  const reply: Reply = {
    answer: (response = {}) => ctx.writeLine({ type: "control_response", response: { subtype: "success", request_id: line.request_id, response } }),
    refuse: (error) => ctx.writeLine({ type: "control_response", response: { subtype: "error", request_id: line.request_id, error } }),
  };
  const handler = Object.hasOwn(HANDLERS, req.subtype) ? HANDLERS[req.subtype]! : null;
  if (handler) return handler(req, reply, ctx);
  reply.refuse(`unsupported control request subtype: ${req.subtype}`);
}

/** A request that needs the session opens it; failing to open is this request's error. */
const withSession = (name: string, act: (s: AgentSession, req: Request, reply: Reply) => Promise<void> | void): Handler => async (req, reply, ctx) => {
  try {
    await act(await ctx.session.get(), req, reply);
  } catch (e) {
    reply.refuse(`${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
};

const HANDLERS: Record<string, Handler> = {
  initialize,
  interrupt: (_req, reply, ctx) => {
    ctx.interrupt();
    reply.answer({ still_queued: [] });
  },
  set_model: (req, reply, { opts, launch, session }) => {
    const name = typeof req.model === "string" && req.model !== "default" ? req.model : null;
    launch.model = name ?? opts.model;
    session.current()?.setModel(launch.model ?? DEFAULT_MODEL);
    reply.answer();
  },
  set_permission_mode: (req, reply, ctx) => {
    const mode = req.mode;
    if (!MODES.includes(mode as PermissionMode)) return reply.refuse(`set_permission_mode: unknown mode ${JSON.stringify(req.mode)} (khaelor has ${MODES.join(", ")})`);
    if (mode === "bypassPermissions" && !ctx.opts.allowBypass)
      return reply.refuse("set_permission_mode: bypassPermissions needs --allow-dangerously-skip-permissions (allowDangerouslySkipPermissions) at launch");
    return withSession("set_permission_mode", (s) => {
      s.setPermissionMode(mode as PermissionMode);
      reply.answer({ mode });
    })(req, reply, ctx);
  },
  mcp_message: (req, reply, { launch }) => {
    // A message from one of the host's in-process servers (a notification such as tools/list_changed).
    const name = typeof req.server_name === "string" ? req.server_name : "";
    if (!launch.sdkServers?.deliver(name, req.message)) return reply.refuse(`mcp_message: no SDK MCP server named ${JSON.stringify(name)} is connected`);
    reply.answer({ mcp_response: { jsonrpc: "2.0", result: {}, id: 0 } });
  },
  mcp_reconnect: withSession("mcp_reconnect", async (s, req, reply) => {
    const name = typeof req.serverName === "string" ? req.serverName : "";
    if (!s.mcp.servers().some((v) => v.name === name)) return reply.refuse(`mcp_reconnect: no MCP server named ${JSON.stringify(name)}`);
    await s.mcp.reconnect(name);
    reply.answer();
  }),
  set_max_thinking_tokens: (req, reply, { launch, session }) => {
    const n = req.max_thinking_tokens;
    // Only thinking_display (how thinking is shown) is not ours to change: the budget stays.
    if (n === undefined) return reply.answer();
    if (n !== null && (typeof n !== "number" || !Number.isInteger(n) || n < 0)) return reply.refuse(`set_max_thinking_tokens: max_thinking_tokens must be a whole number of tokens or null, not ${JSON.stringify(n)}`);
    const budget = n === null || n === 0 ? null : n;
    launch.thinkingBudget = budget ?? undefined;
    session.current()?.setThinkingBudget(budget);
    reply.answer();
  },
  mcp_status: withSession("mcp_status", async (s, _req, reply) => {
    await s.mcp.ready();
    reply.answer({ mcpServers: mcpServerStatus(s) });
  }),
};

function initialize(req: Request, reply: Reply, { opts, launch, session, control, cwd, once }: ControlContext) {
  const given = (field: string) => {
    const v = req[field];
    return !(v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === "object" && v !== null && Object.keys(v).length === 0));
  };
  const notSupported = (field: string, what: string) => {
    if (given(field)) once(`init-${field}`, `initialize: ${what} (${field}) are not supported yet; ignored`);
  };
  // Hook callbacks and in-process servers join the session when it opens; one already open keeps what it has.
  const early = !session.started();
  if (given("hooks") && early) {
    const h = sdkHookEntries(req.hooks, control);
    launch.hostHooks = h.entries;
    for (const p of h.problems) once(p, p);
  }
  const sdkNames = Array.isArray(req.sdkMcpServers) ? req.sdkMcpServers.filter((n): n is string => typeof n === "string") : [];
  if (sdkNames.length > 0 && early) launch.sdkServers = sdkMcpServers(sdkNames, control);
  if (!early && (given("hooks") || sdkNames.length > 0)) once("init-late-hooks", "initialize came after the session started: its hooks and SDK MCP servers are not used");
  notSupported("mcpServers", "MCP servers");
  if (given("agents")) {
    if (!early) once("init-late-agents", "initialize came after the session started: its agents are not used");
    else {
      const defs = parseAgentsJson(req.agents, "initialize.agents");
      launch.agents = defs.agents;
      for (const p of defs.problems) once(p, p);
    }
  }
  // The SDK sends systemPrompt [""] when its caller set none: that keeps ours.
  const custom = Array.isArray(req.systemPrompt) ? req.systemPrompt.filter((x) => typeof x === "string").join("\n\n") : typeof req.systemPrompt === "string" ? req.systemPrompt : "";
  if (custom.trim()) launch.systemPrompt = custom;
  if (typeof req.appendSystemPrompt === "string" && req.appendSystemPrompt.trim()) launch.appendSystemPrompt = req.appendSystemPrompt;
  const open = session.current();
  if (open) once("init-late", "initialize came after the session started: its system prompt applies from the next run");
  notSupported("jsonSchema", "structured output");
  notSupported("settings", "settings");
  reply.answer({
    // What a prompt "/name args" runs: ours, then the project's and the user's commands and skills.
    commands: hostCommands(open ? open.slashCommands() : loadSessionExtensions(cwd, homedir(), userConfigDir(homedir())).entries()).map((c) => ({ name: c.name, description: c.description, argumentHint: c.argumentHint ?? "" })),
    // Claude Code's AgentInfo: the types a prompt (or the model) can name.
    agents: (open ? open.agents() : agentCatalogBeforeOpen({ cwd, definitions: [...opts.agents, ...launch.agents], pluginDirs: opts.pluginDirs, trustProject: opts.trustProject }).list()).map((a) => ({ name: a.name, description: a.description, ...(a.model ? { model: a.model } : {}) })),
    output_style: "default",
    available_output_styles: ["default"],
    models: SUGGESTED_MODELS.map((m) => ({ value: m, displayName: m, description: m === DEFAULT_MODEL ? "default" : "" })),
    account: {},
    pid: process.pid,
    ...(given("hooks") ? { hooks_applied: early } : {}),
    // A hook set to block on failure does block (src/hooks).
    hook_on_failure_supported: true,
    ...(given("mcpServers") ? { mcp_servers_applied: false } : {}),
    ...(req.settings !== undefined ? { settings_applied: false } : {}),
    ...(req.disallowedTools !== undefined ? { disallowed_tools_applied: false } : {}),
  });
}
