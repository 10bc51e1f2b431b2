// `khaelor -p --input-format stream-json --output-format stream-json`: the way the Claude Agent SDK
// and `claude -p` wrappers drive an agent. User messages arrive as NDJSON on stdin and run as turns,
// one after another in one session, each answered with its messages and a result; control requests
// (initialize, interrupt, set_permission_mode, set_model, ...) are answered as they arrive, also
// while a turn runs; with `--permission-prompt-tool stdio` permission asks go to the host as
// can_use_tool requests. End of input ends the session once the queued turns are done.
import type { PermissionMode, TurnEndReason } from "../../events/types.ts";
import { DEFAULT_MODEL, SUGGESTED_MODELS } from "../../model/models.ts";
import type { UserBlock } from "../../model/types.ts";
import { streamJsonPrinter } from "../../print/printer.ts";
import { mcpServerStatus, systemInit } from "../../print/system-init.ts";
import { buildResult, createTally } from "../../print/result.ts";
import { EXIT } from "../shared/exit-codes.ts";
import type { RunOptions } from "../shared/run-options.ts";
import { openAgentSession, SessionOpenError } from "../../agent/agent-session.ts";
import type { AgentSession, Asker } from "../../agent/types.ts";
import { sessionOptions } from "../shared/session-options.ts";
import { homedir } from "node:os";
import { resolve } from "node:path";
import { hostCommands } from "../../extensions/host-commands.ts";
import { loadSessionExtensions } from "../../extensions/session-extensions.ts";
import { userConfigDir } from "../../permissions/index.ts";
import { userContent, textOf } from "./content.ts";
import type { HookEntry } from "../../hooks/config.ts";
import { claudeToolInput, claudeToolName } from "../../hooks/tool-names.ts";
import { createControlChannel } from "./control.ts";
import { sdkHookEntries } from "./sdk-hooks.ts";
import { sdkMcpServers, type SdkMcpServers } from "./sdk-mcp.ts";
import { grantScopeOf, suggestionsFor } from "./permission-updates.ts";
import { parseInputLine, type ControlRequestLine } from "./wire.ts";
import { jsonLines, leadingFields, tooLargeMessage } from "../../stdio/json-lines.ts";

const MODES: PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"];

type Queued = { content: string | UserBlock[] };

export async function runStreamJson(opts: RunOptions): Promise<number> {
  const stderr = (s: string) => void process.stderr.write(`khaelor: ${s}\n`);
  let hostGone = false;
  const writeLine = (o: object) => {
    if (!hostGone) process.stdout.write(`${JSON.stringify(o)}\n`);
  };
  const printer = streamJsonPrinter({ write: (s) => void (hostGone || process.stdout.write(s)) }, opts.includePartialMessages);
  const control = createControlChannel(writeLine);
  const saidOnce = new Set<string>();
  const once = (key: string, text: string) => {
    if (saidOnce.has(key)) return;
    saidOnce.add(key);
    stderr(text);
  };

  let sessionId = "";
  const cwd = resolve(opts.cwd ?? process.cwd());
  /** A line that could not be taken, as one event on stdout (and a line on stderr); reading goes on. */
  const invalid = (lineNo: number, error: string) => {
    stderr(`stdin line ${lineNo}: ${error}; skipped`);
    writeLine({ type: "system", subtype: "invalid_input", line: lineNo, error, session_id: sessionId });
  };

  // Permission asks: the host's canUseTool callback answers them when it asked for that.
  const stdioAsks = opts.permissionPromptTool === "stdio";
  if (opts.permissionPromptTool !== null && !stdioAsks)
    once("prompt-tool", `--permission-prompt-tool ${opts.permissionPromptTool}: only "stdio" is supported (MCP permission tools are not); calls that would ask are denied`);
  let current: AbortController | null = null;
  const ask: Asker = async (req, signal) => {
    // Claude Code's names and input (Bash, an absolute file_path), as init and the hooks give them.
    const input = claudeToolInput(req.call.input, cwd);
    const a = await control.request(
      {
        subtype: "can_use_tool",
        tool_name: claudeToolName(req.call.name),
        input: input as Record<string, unknown>,
        tool_use_id: req.call.id,
        permission_suggestions: suggestionsFor(req.suggestion),
        decision_reason: req.reason,
        title: req.summary,
        description: req.reason,
      },
      signal,
    );
    if (!a.ok) return { allow: false, message: a.error === "cancelled" ? undefined : `(no answer from the host: ${a.error})` };
    const r = a.response;
    if (r.behavior === "allow") {
      // A host that rewrote the call meant its version to run, not the model's: until a changed
      // input can be run, the call is denied rather than run as the host did not allow it.
      if (r.updatedInput !== undefined && JSON.stringify(r.updatedInput) !== JSON.stringify(input)) {
        once("updated-input", "can_use_tool: an allow with a changed updatedInput is not supported yet; such calls are denied");
        return { allow: false, message: "The host allowed this call only with a changed input, which KHAELOR cannot run yet; it was not run." };
      }
      const scope = grantScopeOf(r.updatedPermissions);
      return { allow: true, ...(scope && req.suggestion ? { always: { scope } } : {}) };
    }
    if (r.interrupt === true) current?.abort();
    return { allow: false, message: typeof r.message === "string" && r.message ? r.message : undefined };
  };

  // The session opens at the first thing that needs it, so initialize's settings come first.
  let model = opts.model;
  let systemPrompt = opts.systemPrompt;
  let appendSystemPrompt = opts.appendSystemPrompt;
  let hostHooks: HookEntry[] = [];
  let sdkServers: SdkMcpServers | null = null;
  let thinkingBudget: number | undefined;
  let session: AgentSession | null = null;
  let opening: Promise<AgentSession> | null = null;
  let openFailed: string | null = null;
  const getSession = (): Promise<AgentSession> =>
    (opening ??= (async () => {
      const base = sessionOptions({ ...opts, model, systemPrompt, appendSystemPrompt });
      const mcp = sdkServers ? { ...base.mcp, hostServers: sdkServers.servers } : base.mcp;
      const s = await openAgentSession({
        ...base,
        ...(mcp ? { mcp } : {}),
        ...(hostHooks.length > 0 ? { hostHooks } : {}),
        ...(thinkingBudget !== undefined ? { thinkingBudget } : {}),
        ...(stdioAsks ? { ask } : {}),
      });
      session = s;
      sessionId = s.sessionId;
      for (const n of s.notices) stderr(n);
      // As in print mode: init lists the --mcp-config servers once started (the first request waits for them anyway).
      await s.mcp.ready();
      printer.init(systemInit(s));
      s.subscribe((e) => {
        tally.observe(e);
        printer.onEvent(e);
      });
      return s;
    })());
  let tally = createTally();

  const answer = (line: ControlRequestLine, response: Record<string, unknown> = {}) =>
    writeLine({ type: "control_response", response: { subtype: "success", request_id: line.request_id, response } });
  const refuse = (line: ControlRequestLine, error: string) => writeLine({ type: "control_response", response: { subtype: "error", request_id: line.request_id, error } });

  const onControl = async (line: ControlRequestLine) => {
    const req = line.request as Record<string, unknown> & { subtype: string };
    switch (req.subtype) {
      case "initialize": {
        const given = (field: string) => {
          const v = req[field];
          return !(v === undefined || (Array.isArray(v) && v.length === 0) || (typeof v === "object" && v !== null && Object.keys(v).length === 0));
        };
        const notSupported = (field: string, what: string) => {
          if (given(field)) once(`init-${field}`, `initialize: ${what} (${field}) are not supported yet; ignored`);
        };
        // Hook callbacks and in-process servers join the session when it opens; one already open keeps what it has.
        const early = opening === null;
        if (given("hooks") && early) {
          const h = sdkHookEntries(req.hooks, control);
          hostHooks = h.entries;
          for (const p of h.problems) once(p, p);
        }
        const sdkNames = Array.isArray(req.sdkMcpServers) ? req.sdkMcpServers.filter((n): n is string => typeof n === "string") : [];
        if (sdkNames.length > 0 && early) sdkServers = sdkMcpServers(sdkNames, control);
        if (!early && (given("hooks") || sdkNames.length > 0)) once("init-late-hooks", "initialize came after the session started: its hooks and SDK MCP servers are not used");
        notSupported("mcpServers", "MCP servers");
        notSupported("agents", "subagent definitions");
        // The SDK sends systemPrompt [""] when its caller set none: that keeps ours.
        const custom = Array.isArray(req.systemPrompt) ? req.systemPrompt.filter((x) => typeof x === "string").join("\n\n") : typeof req.systemPrompt === "string" ? req.systemPrompt : "";
        if (custom.trim()) systemPrompt = custom;
        if (typeof req.appendSystemPrompt === "string" && req.appendSystemPrompt.trim()) appendSystemPrompt = req.appendSystemPrompt;
        if (session) once("init-late", "initialize came after the session started: its system prompt applies from the next run");
        notSupported("jsonSchema", "structured output");
        notSupported("settings", "settings");
        answer(line, {
          // What a prompt "/name args" runs: ours, then the project's and the user's commands and skills.
          commands: hostCommands(session ? (session as AgentSession).slashCommands() : loadSessionExtensions(cwd, homedir(), userConfigDir(homedir())).entries()).map((c) => ({ name: c.name, description: c.description, argumentHint: c.argumentHint ?? "" })),
          agents: [],
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
        return;
      }
      case "interrupt":
        current?.abort();
        answer(line, { still_queued: [] });
        return;
      case "set_model": {
        const name = typeof req.model === "string" && req.model !== "default" ? req.model : null;
        model = name ?? opts.model;
        if (session) (session as AgentSession).setModel(model ?? DEFAULT_MODEL);
        answer(line);
        return;
      }
      case "set_permission_mode": {
        const mode = req.mode;
        if (!MODES.includes(mode as PermissionMode)) return refuse(line, `set_permission_mode: unknown mode ${JSON.stringify(req.mode)} (khaelor has ${MODES.join(", ")})`);
        if (mode === "bypassPermissions" && !opts.allowBypass)
          return refuse(line, "set_permission_mode: bypassPermissions needs --allow-dangerously-skip-permissions (allowDangerouslySkipPermissions) at launch");
        try {
          const s = await getSession();
          s.setPermissionMode(mode as PermissionMode);
          answer(line, { mode });
        } catch (e) {
          refuse(line, `set_permission_mode: ${e instanceof Error ? e.message : String(e)}`);
        }
        return;
      }
      case "mcp_message": {
        // A message from one of the host's in-process servers (a notification such as tools/list_changed).
        const name = typeof req.server_name === "string" ? req.server_name : "";
        if (!sdkServers?.deliver(name, req.message)) return refuse(line, `mcp_message: no SDK MCP server named ${JSON.stringify(name)} is connected`);
        answer(line, { mcp_response: { jsonrpc: "2.0", result: {}, id: 0 } });
        return;
      }
      case "mcp_reconnect": {
        const name = typeof req.serverName === "string" ? req.serverName : "";
        try {
          const s = await getSession();
          if (!s.mcp.servers().some((v) => v.name === name)) return refuse(line, `mcp_reconnect: no MCP server named ${JSON.stringify(name)}`);
          await s.mcp.reconnect(name);
          answer(line);
        } catch (e) {
          refuse(line, `mcp_reconnect: ${e instanceof Error ? e.message : String(e)}`);
        }
        return;
      }
      case "set_max_thinking_tokens": {
        const n = req.max_thinking_tokens;
        // Only thinking_display (how thinking is shown) is not ours to change: the budget stays.
        if (n === undefined) return answer(line);
        if (n !== null && (typeof n !== "number" || !Number.isInteger(n) || n < 0)) return refuse(line, `set_max_thinking_tokens: max_thinking_tokens must be a whole number of tokens or null, not ${JSON.stringify(n)}`);
        const budget = n === null || n === 0 ? null : n;
        thinkingBudget = budget ?? undefined;
        if (session) (session as AgentSession).setThinkingBudget(budget);
        answer(line);
        return;
      }
      case "mcp_status":
        try {
          const s = await getSession();
          await s.mcp.ready();
          answer(line, { mcpServers: mcpServerStatus(s) });
        } catch (e) {
          refuse(line, `mcp_status: ${e instanceof Error ? e.message : String(e)}`);
        }
        return;
      default:
        // Named, so the host knows which call to give up on; the session goes on.
        refuse(line, `unsupported control request subtype: ${req.subtype}`);
    }
  };

  // Turns run one at a time, in arrival order, while the reader goes on taking control requests.
  const queue: Queued[] = [];
  let wake: (() => void) | null = null;
  let inputEnded = false;
  const push = (q: Queued) => {
    queue.push(q);
    wake?.();
  };
  const nextTurn = async (): Promise<Queued | null> => {
    while (queue.length === 0 && !inputEnded) await new Promise<void>((r) => (wake = r));
    wake = null;
    return queue.shift() ?? null;
  };

  let signalExit: number | null = null;
  // Every end but the end of input is said on stderr; a second signal exits at once.
  const onSignal = (code: number, why: string) => () => {
    if (signalExit !== null) process.exit(code);
    stderr(`${why}; ending the session`);
    signalExit = code;
    inputEnded = true;
    queue.length = 0;
    current?.abort();
    wake?.();
  };
  const onInt = onSignal(EXIT.sigint, "stopped by SIGINT");
  const onTerm = onSignal(EXIT.sigterm, "stopped by SIGTERM");
  const onHup = onSignal(EXIT.sighup, "stopped by SIGHUP");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  process.on("SIGHUP", onHup);
  // A host that stops reading (closed pipe) cannot see anything more: the turn stops, the log stays.
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (hostGone) return;
    hostGone = true;
    onSignal(EXIT.error, `the host closed its end of our output (${e.code ?? e.message})`)();
  });

  // Line by line, each at most MAX_MESSAGE_BYTES: a longer one is reported (and a control request
  // refused by its id, when its start shows it) instead of held whole or sent to the model.
  const input = process.stdin as AsyncIterable<Uint8Array>;
  let lineNo = 0;
  const reading = (async () => {
    for await (const l of jsonLines(input)) {
      lineNo++;
      if (l.kind === "too_large") {
        const why = tooLargeMessage(l.bytes);
        const { values } = leadingFields(l.head);
        const requestId = values.get("type") === "control_request" ? values.get("request_id") : undefined;
        if (typeof requestId === "string") writeLine({ type: "control_response", response: { subtype: "error", request_id: requestId, error: why } });
        invalid(lineNo, why);
        continue;
      }
      const raw = l.text;
      if (!raw.trim()) continue;
      const parsed = parseInputLine(raw);
      switch (parsed.kind) {
        case "user": {
          const { content, skipped } = userContent(parsed.line.message.content);
          if (skipped.length > 0) invalid(lineNo, `content blocks of type ${skipped.join(", ")} are not supported; sent without them`);
          if (textOf(content).trim() || Array.isArray(content)) push({ content });
          break;
        }
        case "control_request":
          void onControl(parsed.line);
          break;
        case "control_response":
          if (!control.settle(parsed.line)) invalid(lineNo, `control_response for ${parsed.line.response.request_id}, which is not an open request`);
          break;
        case "invalid":
          invalid(lineNo, parsed.error);
          break;
      }
      if (signalExit !== null) break;
    }
  })().catch((e: unknown) => {
    // A read error, not the end of input: said, and the input counts as ended.
    if (signalExit === null) stderr(`could not read stdin: ${e instanceof Error ? e.message : String(e)}`);
  });
  void reading.finally(() => {
    inputEnded = true;
    control.closeAll("the host closed its input");
    wake?.();
  });

  let lastReason: TurnEndReason = "finished";
  try {
    for (let q = await nextTurn(); q; q = await nextTurn()) {
      let s: AgentSession;
      try {
        s = await getSession();
      } catch (e) {
        if (!(e instanceof SessionOpenError)) throw e;
        openFailed = e.message;
        stderr(e.message);
        return e.usage ? EXIT.usage : EXIT.error;
      }
      tally = createTally();
      const started = Date.now();
      const turn = new AbortController();
      current = turn;
      let reason: TurnEndReason;
      let message: string | undefined;
      let text = "";
      const compact = /^\/compact(\s+([\s\S]*))?$/.exec(textOf(q.content).trim());
      if (compact) {
        const ok = await s.compact(compact[2]?.trim() || undefined, turn.signal);
        reason = ok ? "finished" : "error";
        text = ok ? "Compacted the conversation." : "";
        message = ok ? undefined : "nothing to compact";
      } else {
        const r = await s.runTurn(q.content, turn.signal);
        ({ reason, message } = r);
        text = r.lastText;
      }
      current = null;
      lastReason = reason;
      printer.finish(buildResult({ tally, reason, text, errorMessage: message, sessionId: s.sessionId, durationMs: Date.now() - started }));
    }
  } finally {
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
    process.off("SIGHUP", onHup);
    await (session as AgentSession | null)?.close();
  }
  if (openFailed) return EXIT.error;
  if (signalExit !== null) return signalExit;
  // Each turn's result already says how it ended; the exit code only flags a run that failed.
  return lastReason === "error" || lastReason === "strikes" ? EXIT.error : EXIT.ok;
}
