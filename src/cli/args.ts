// Command-line parsing. Hand-written (no dependency) and strict: an unknown flag or a bad value is
// a usage error naming the flag, never silently ignored.
import type { PermissionMode } from "../events/types.ts";

export type OutputFormat = "text" | "json" | "stream-json";
export type InputFormat = "text" | "stream-json";

export type CliOptions = {
  command: "run" | "sessions" | "mcp" | "acp" | "update" | "doctor" | "help" | "version";
  /** `khaelor mcp ...`: the words after "mcp", parsed by the mcp command itself. */
  mcpArgs: string[];
  /** `khaelor update ...` and `khaelor doctor ...`: the words after the command, parsed by it (src/install, src/doctor). */
  commandArgs: string[];
  /** --mcp-config values (paths or JSON), in order. */
  mcpConfig: string[];
  strictMcpConfig: boolean;
  /** --trust-project: run the commands the project's files define (MCP servers) this once. */
  trustProject: boolean;
  print: boolean;
  prompt: string | null;
  outputFormat: OutputFormat;
  /** stream-json: user messages and control requests as NDJSON on stdin (the Claude Agent SDK's way). */
  inputFormat: InputFormat;
  /** `stdio`: permission asks go to the host as can_use_tool control requests (stream-json input). */
  permissionPromptTool: string | null;
  /** bypassPermissions may be switched to later (set_permission_mode) without starting in it. */
  allowBypass: boolean;
  /** A new session takes this id (Claude Code's --session-id). */
  sessionId: string | null;
  /** Replaces KHAELOR's system prompt (Claude Code's --system-prompt). */
  systemPrompt: string | null;
  /** Added after the system prompt (Claude Code's --append-system-prompt). */
  appendSystemPrompt: string | null;
  /** Extended thinking's token budget (--max-thinking-tokens, --thinking); null: no thinking. */
  thinkingBudget: number | null;
  /** The built-in tools the model is offered (Claude Code's --tools); null: all of them. */
  tools: string[] | null;
  /** Flags accepted for compatibility with Claude Code wrappers that this version does not honour. */
  unhonoured: string[];
  includePartialMessages: boolean;
  model: string | null;
  maxTurns: number | null;
  maxBudgetUsd: number | null;
  maxTimeS: number | null;
  permissionMode: PermissionMode | null;
  allowedTools: string[];
  disallowedTools: string[];
  cwd: string | null;
  verbose: boolean;
  continue: boolean;
  /** null: not resuming; "": resume without an id (picker / list); otherwise an id or prefix. */
  resume: string | null;
  forkSession: boolean;
  demo: boolean;
  verifyNudge: boolean;
  doomLoop: boolean;
  json: boolean;
};

export class UsageError extends Error {}

export const EXIT = {
  ok: 0,
  error: 1,
  usage: 2,
  maxTurns: 3,
  budget: 4,
  doomLoop: 5,
  sighup: 129,
  sigint: 130,
  sigterm: 143,
} as const;

const DEFAULT_THINKING_BUDGET = 16_000;
const MODES: PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"];
const FORMATS: OutputFormat[] = ["text", "json", "stream-json"];

export const HELP = `khaelor — a terminal-native coding agent

Usage:
  khaelor [options] [prompt]          interactive session (prompt optional)
  khaelor -p [options] [prompt]       print mode: run to completion, print the answer
  echo "task" | khaelor [options]     print mode with the task from stdin
  khaelor sessions [--json]           list this project's sessions
  khaelor mcp list|get|add|remove     manage MCP servers (khaelor mcp --help)
  khaelor update [--check]            update this binary to the latest release (--check: only say)
  khaelor doctor                      check the install, settings, provider and terminal; exit 1 with fixes
  khaelor acp                         speak the Agent Client Protocol on stdio (Zed, JetBrains, Neovim, Emacs)
  khaelor --demo                      scripted demo on a built-in fake model (no API key needed)

Options:
  -p, --print                   Non-interactive: run the prompt (or stdin) and exit
  --output-format <fmt>         text (default) | json (one result object) | stream-json (NDJSON events)
  --include-partial-messages    stream-json: add stream_event deltas as they arrive
  --input-format <fmt>          text (default) | stream-json (user messages and control requests as
                                NDJSON on stdin, as the Claude Agent SDK sends them; needs
                                --output-format stream-json)
  --permission-prompt-tool stdio  stream-json: ask the host (can_use_tool) instead of denying
  --system-prompt <text>        Replace the system prompt
  --append-system-prompt <text> Add to the end of the system prompt
  --session-id <uuid>           Give a new session this id
  --max-thinking-tokens <n>     Let the model think (extended thinking) with this budget
  --tools <names>               Offer only these tools (comma separated; "" none, "default" all)
  --dangerously-skip-permissions  Same as --permission-mode bypassPermissions
  --allow-dangerously-skip-permissions  Let a host switch to bypassPermissions later
  --model <name>                Model to use (default: config, then the newest Sonnet)
  --max-turns <n>               Stop after n model turns (exit code 3)
  --max-budget-usd <x>          Stop when the session's cost reaches x dollars (exit code 4)
  --max-time <seconds>          Stop after this much wall time (exit code 4)
  --permission-mode <mode>      default | acceptEdits | plan | bypassPermissions | dontAsk
  --allowedTools <rules...>     Tools (or rules) allowed without asking, comma or space separated
  --disallowedTools <rules...>  Tools (or rules) always denied
  --cwd <dir>                   Work in this directory instead of the current one
  --mcp-config <file|json...>   MCP servers from these files or JSON strings (repeatable)
  --strict-mcp-config           Use only the --mcp-config servers, none from settings or .mcp.json
  --trust-project               Trust this project's files this once: its MCP servers, hooks, commands' allowed-tools
  -c, --continue                Continue the latest session of this project
  -r, --resume [id]             Resume a session by id or unique prefix (no id: list / picker)
  --fork-session                With --continue/--resume: continue in a new session, old one untouched
  --no-verify-nudge             Do not remind the model to run checks after editing
  --no-doom-loop                Do not stop the model when it repeats the same call
  --verbose                     Diagnostics (tool calls, retries) on stderr
  --json                        With 'sessions': machine-readable output
  --demo                        Run the scripted demo (fake model over real HTTP, temp sample project)
  -v, --version                 Print the version
  -h, --help                    Print this help

Print mode: stdout carries only the requested output; diagnostics go to stderr.
Other flags Claude Code wrappers pass (--add-dir, --settings, --fallback-model, ...) are
accepted and named on stderr as not supported yet.
In print mode, calls the permission mode would ask about are denied and listed in the result's
permission_denials; allow them with --allowedTools or --permission-mode.

Exit codes:
  0    success
  1    error (API error, invalid session, the model kept making malformed tool calls, ...)
  2    usage error (unknown flag, bad value)
  3    stopped by --max-turns
  4    stopped by --max-budget-usd or --max-time
  5    stopped because the model repeated the same tool call (doom loop)
  129  hung up (SIGHUP: the terminal went away)
  130  interrupted (SIGINT)
  143  terminated (SIGTERM)

Environment:
  ANTHROPIC_API_KEY    API key (required unless --demo)
  ANTHROPIC_BASE_URL   API base URL (default https://api.anthropic.com)
  KHAELOR_HOME         Data directory (sessions); default $XDG_DATA_HOME/khaelor
  MCP_TIMEOUT          MCP server startup timeout in ms (default 10000)
  MCP_TOOL_TIMEOUT     MCP tool call timeout in ms (default 600000)
  NO_COLOR             Disable colour
  KHAELOR_RELEASE_URL  Where khaelor update and the daily update check fetch releases (a mirror)
  DISABLE_AUTOUPDATER  Set to 1: no automatic update check ("autoUpdates": false in settings too)
`;

export function parseArgs(argv: string[]): CliOptions {
  const o: CliOptions = {
    command: "run",
    mcpArgs: [],
    commandArgs: [],
    mcpConfig: [],
    strictMcpConfig: false,
    trustProject: false,
    print: false,
    prompt: null,
    outputFormat: "text",
    inputFormat: "text",
    permissionPromptTool: null,
    allowBypass: false,
    sessionId: null,
    systemPrompt: null,
    appendSystemPrompt: null,
    tools: null,
    thinkingBudget: null,
    unhonoured: [],
    includePartialMessages: false,
    model: null,
    maxTurns: null,
    maxBudgetUsd: null,
    maxTimeS: null,
    permissionMode: null,
    allowedTools: [],
    disallowedTools: [],
    cwd: null,
    verbose: false,
    continue: false,
    resume: null,
    forkSession: false,
    demo: false,
    verifyNudge: true,
    doomLoop: true,
    json: false,
  };
  const positional: string[] = [];
  // `khaelor mcp list|add|remove|get`: its own flags (-s, -e, -H) belong to it.
  if (argv[0] === "mcp") return { ...o, command: "mcp", mcpArgs: argv.slice(1) };
  if (argv[0] === "update" || argv[0] === "doctor") return { ...o, command: argv[0], commandArgs: argv.slice(1) };
  let i = 0;
  /** Index of a value given as `--flag=value`: taken as it is, even when it starts with "-". */
  let explicit = -1;
  const value = (flag: string): string => {
    const v = argv[++i];
    if (i === explicit && v !== undefined) return v;
    if (v === undefined || (v.startsWith("-") && v.length > 1 && !/^-?\d/.test(v)))
      throw new UsageError(`${flag} needs a value`);
    return v;
  };
  const number = (flag: string, integer: boolean): number => {
    const raw = value(flag);
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
      throw new UsageError(`${flag} expects a positive ${integer ? "whole number" : "number"}, got "${raw}"`);
    return n;
  };
  const list = (flag: string): string[] => {
    // Accepts `--allowedTools a,b`, `--allowedTools "a b"` and `--allowedTools a b` (until the next
    // flag or a word that is not a rule); the permissions engine splits and validates the rules.
    const items = [value(flag)];
    while (argv[i + 1] !== undefined && !argv[i + 1]!.startsWith("-") && looksLikeRule(argv[i + 1]!)) items.push(argv[++i]!);
    return items;
  };
  for (; i < argv.length; i++) {
    const arg = argv[i]!;
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    if (eq > 0) {
      argv = [...argv.slice(0, i), arg.slice(0, eq), arg.slice(eq + 1), ...argv.slice(i + 1)];
      explicit = i + 1;
      i--;
      continue;
    }
    switch (arg) {
      case "-p":
      case "--print":
        o.print = true;
        break;
      case "--output-format": {
        const f = value(arg);
        if (!FORMATS.includes(f as OutputFormat)) throw new UsageError(`--output-format must be one of ${FORMATS.join(", ")}, got "${f}"`);
        o.outputFormat = f as OutputFormat;
        break;
      }
      case "--input-format": {
        const f = value(arg);
        if (f !== "text" && f !== "stream-json") throw new UsageError(`--input-format must be text or stream-json, got "${f}"`);
        o.inputFormat = f;
        break;
      }
      case "--permission-prompt-tool":
        o.permissionPromptTool = value(arg);
        break;
      case "--dangerously-skip-permissions":
        o.permissionMode = "bypassPermissions";
        o.allowBypass = true;
        break;
      case "--allow-dangerously-skip-permissions":
        o.allowBypass = true;
        break;
      case "--session-id": {
        const id = value(arg);
        if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new UsageError(`--session-id must be a UUID, got "${id}"`);
        o.sessionId = id.toLowerCase();
        break;
      }
      case "--system-prompt":
        o.systemPrompt = value(arg);
        break;
      case "--max-thinking-tokens": {
        const raw = value(arg);
        const n = Number(raw);
        if (!Number.isInteger(n) || n < 0) throw new UsageError(`--max-thinking-tokens expects a whole number, got "${raw}"`);
        o.thinkingBudget = n === 0 ? null : n;
        break;
      }
      case "--thinking": {
        const v = value(arg);
        if (!["adaptive", "enabled", "disabled"].includes(v)) throw new UsageError(`--thinking must be adaptive, enabled or disabled, got "${v}"`);
        // Adaptive models choose their own length (the number is not sent); others get this budget.
        o.thinkingBudget = v === "disabled" ? null : (o.thinkingBudget ?? DEFAULT_THINKING_BUDGET);
        break;
      }
      case "--tools": {
        const v = value(arg);
        o.tools = v === "default" ? null : v.split(/[,\s]+/).filter(Boolean);
        break;
      }
      case "--append-system-prompt":
        o.appendSystemPrompt = value(arg);
        break;
      case "--include-partial-messages":
        o.includePartialMessages = true;
        break;
      case "--model":
        o.model = value(arg);
        break;
      case "--max-turns":
        o.maxTurns = number(arg, true);
        break;
      case "--max-budget-usd":
        o.maxBudgetUsd = number(arg, false);
        break;
      case "--max-time":
        o.maxTimeS = number(arg, false);
        break;
      case "--permission-mode": {
        const m = value(arg);
        // Claude Code's auto mode (a classifier) is not ours, so it runs as default and says so.
        if (m === "auto") {
          o.unhonoured.push("--permission-mode auto");
          break;
        }
        if (!MODES.includes(m as PermissionMode)) throw new UsageError(`--permission-mode must be one of ${MODES.join(", ")}, got "${m}"`);
        o.permissionMode = m as PermissionMode;
        break;
      }
      case "--allowedTools":
      case "--allowed-tools":
        o.allowedTools.push(...list(arg));
        break;
      case "--disallowedTools":
      case "--disallowed-tools":
        o.disallowedTools.push(...list(arg));
        break;
      case "--cwd":
        o.cwd = value(arg);
        break;
      case "--mcp-config": {
        // Claude Code takes several after one flag (--mcp-config a.json b.json) and the flag again.
        o.mcpConfig.push(value(arg));
        while (argv[i + 1] !== undefined && /\.json$|^\s*\{/.test(argv[i + 1]!)) o.mcpConfig.push(argv[++i]!);
        break;
      }
      case "--strict-mcp-config":
        o.strictMcpConfig = true;
        break;
      case "--trust-project":
        o.trustProject = true;
        break;
      case "--verbose":
        o.verbose = true;
        break;
      case "-c":
      case "--continue":
        o.continue = true;
        break;
      case "-r":
      case "--resume": {
        // An id-like word (no spaces, not a flag) is the id, even if it matches nothing: better
        // "no session zzz" than a typo silently becoming the prompt.
        const next = argv[i + 1];
        o.resume = next !== undefined && /^[\w][\w.-]*$/.test(next) ? argv[++i]! : "";
        break;
      }
      case "--fork-session":
        o.forkSession = true;
        break;
      case "--demo":
        o.demo = true;
        break;
      case "--no-verify-nudge":
        o.verifyNudge = false;
        break;
      case "--no-doom-loop":
        o.doomLoop = false;
        break;
      case "--json":
        o.json = true;
        break;
      case "-v":
      case "--version":
        o.command = "version";
        break;
      case "-h":
      case "--help":
        o.command = "help";
        break;
      case "--":
        positional.push(...argv.slice(i + 1));
        i = argv.length;
        break;
      default:
        if (HONOURED_AS_IS.has(arg)) break;
        if (arg in COMPAT_FLAGS) {
          if (COMPAT_FLAGS[arg]) value(arg);
          if (!o.unhonoured.includes(arg)) o.unhonoured.push(arg);
          break;
        }
        if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg} (see khaelor --help)`);
        positional.push(arg);
    }
  }
  if (o.command === "run" && positional[0] === "sessions" && positional.length === 1) o.command = "sessions";
  else if (o.command === "run" && positional[0] === "acp" && positional.length === 1) o.command = "acp";
  else if (positional.length > 0) o.prompt = positional.join(" ");
  if (o.forkSession && !o.continue && o.resume === null) throw new UsageError("--fork-session needs --continue or --resume");
  if (o.continue && o.resume !== null) throw new UsageError("use either --continue or --resume, not both");
  if (o.inputFormat === "stream-json" && o.outputFormat !== "stream-json") throw new UsageError("--input-format stream-json needs --output-format stream-json");
  if (o.inputFormat === "stream-json" && o.prompt !== null) throw new UsageError("with --input-format stream-json the messages come on stdin, not as an argument");
  return o;
}

/**
 * Flags Claude Code wrappers and the Claude Agent SDK (0.3) pass that KHAELOR accepts but does not
 * honour yet (true: the flag takes a value). Each one run is named on stderr once, so nobody is
 * left believing a setting took effect; anything else unknown stays a usage error.
 */
const COMPAT_FLAGS: Record<string, boolean> = {
  "--add-dir": true,
  "--settings": true,
  "--setting-sources": true,
  "--fallback-model": true,
  "--thinking-display": true,
  "--effort": true,
  "--betas": true,
  "--agent": true,
  "--json-schema": true,
  "--task-budget": true,
  "--debug": false,
  "--debug-file": true,
  "--debug-to-stderr": false,
  "--permission-prompts": true,
  "--channels": true,
  "--include-hook-events": false,
  "--session-mirror": false,
  "--project-config-root": true,
  "--plugin-dir": true,
  "--plugin-dir-no-mcp": true,
  "--resume-session-at": true,
  "--resume-drops-turn": true,
  "--no-session-persistence": false,
  "--initialize-fields": true,
  "--managed-settings": true,
  "--managed-settings-in-initialize": false,
  "--replay-user-messages": false,
};

/** Flags taken as they are: their meaning is already how KHAELOR works, so no notice. */
const HONOURED_AS_IS = new Set(["--await-initialize"]);

function looksLikeRule(s: string): boolean {
  // Only names of tools that exist, so `--allowedTools Read Summarize` leaves "Summarize" as the prompt.
  return /^(read|write|edit|multiedit|grep|glob|bash|process|webfetch)(\(.*\))?(,.*)?$/i.test(s) || /^mcp__[A-Za-z0-9_*-]+(,.*)?$/.test(s);
}
