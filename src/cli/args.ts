// Command-line parsing. Hand-written (no dependency) and strict: an unknown flag or a bad value is
// a usage error naming the flag, never silently ignored.
import { parseAgentsJson, type AgentDefinition } from "../extensions/agents.ts";
import { statSync } from "node:fs";
import { resolve } from "node:path";
import type { PermissionMode } from "../events/types.ts";
import { ruleToolNamed } from "../permissions/rules/rule-syntax.ts";
import type { OutputFormat, RunOptions } from "../modes/shared/run-options.ts";
import { EFFORT_LEVELS, isEffortLevel } from "../model/effort.ts";

export class UsageError extends Error {}

/** --agents '{"name": {"description": …, "prompt": …}}': a definition that does not parse is a usage error naming its field. */
function agentsFlag(raw: string): AgentDefinition[] {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (e) {
    throw new UsageError(`--agents: not valid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const r = parseAgentsJson(value, "--agents");
  if (r.problems.length > 0) throw new UsageError(r.problems.join("\n"));
  return r.agents;
}

const DEFAULT_THINKING_BUDGET = 16_000;
const MODES: PermissionMode[] = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"];
const FORMATS: OutputFormat[] = ["text", "json", "stream-json"];

export const HELP = `khaelor — a terminal-native coding agent

Usage:
  khaelor [options] [prompt]          interactive session (prompt optional)
  khaelor -p [options] [prompt]       print mode: run to completion, print the answer
  echo "task" | khaelor [options]     print mode with the task from stdin
  khaelor sessions [--json]           list this project's sessions
  khaelor sessions --search <text> [--all-projects]  sessions whose messages say <text>, with the line
  khaelor export [session] [--format md|html|json] [-o file]  a session to stdout or a file (khaelor export --help)
  khaelor mcp list|get|add|remove     manage MCP servers (khaelor mcp --help)
  khaelor plugin install|list|enable|disable|uninstall|marketplace  Claude Code plugins and their
                                      marketplaces (khaelor plugin --help)
  khaelor update [--check]            update this binary to the latest release (--check: only say)
  khaelor doctor                      check the install, settings, provider and terminal; exit 1 with fixes
  khaelor sandbox [--] CMD            run one command in the sandbox as the agent would (try sandbox settings)
  khaelor acp                         speak the Agent Client Protocol on stdio (Zed, JetBrains, Neovim, Emacs)
  khaelor --demo                      scripted demo on a built-in fake model (no API key needed)

Options:
  -p, --print                   Non-interactive: run the prompt (or stdin) and exit
  --output-format <fmt>         text (default) | json (one result object) | stream-json (NDJSON events)
  --include-partial-messages    stream-json: add stream_event deltas as they arrive
  --replay-user-messages        stream-json both ways: echo each user message back with its uuid (isReplay)
  --input-format <fmt>          text (default) | stream-json (user messages and control requests as
                                NDJSON on stdin, as the Claude Agent SDK sends them; needs
                                --output-format stream-json)
  --permission-prompt-tool stdio  stream-json: ask the host (can_use_tool) instead of denying
  --system-prompt <text>        Replace the system prompt
  --append-system-prompt <text> Add to the end of the system prompt
  --session-id <uuid>           Give a new session this id
  --max-thinking-tokens <n>     Let the model think (extended thinking) with this budget
  --effort <level>              low | medium | high | xhigh | max: how hard the model works (the API's
                                effort parameter, where the model takes it; setting: effortLevel)
  --add-dir <dir>               Another directory the tools may use as the project (repeatable;
                                setting: permissions.additionalDirectories)
  --json-schema <schema>        Print mode: the answer is an object valid against this JSON Schema
                                (json output: the result's structured_output)
  --fallback-model <name>       After three overload errors in a row, send the request to this model
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
  --trust-project               Trust this project's files this once: its MCP servers, hooks, commands' allowed-tools, plugins
  --agents <json>               Agent types for this session: {"name": {"description", "prompt", "tools"?, "model"?}}
                                (besides .claude/agents/*.md, ~/.claude/agents and KHAELOR's agents folders)
  --agent <name>                Run the main session as that agent (its prompt, tools and model)
  --plugin-dir <dir>            Load the plugin in this folder for this session (repeatable; Claude Code's layout)
  -c, --continue                Continue the latest session of this project
  -r, --resume [id]             Resume a session by id or unique prefix (no id: list / picker)
  --fork-session                With --continue/--resume: continue in a new session, old one untouched
  --resume-session-at <uuid>    With --continue/--resume: continue from that message (a stream-json uuid); later ones are dropped from the conversation, kept in the log
  --no-verify-nudge             Do not remind the model to run checks after editing
  --no-doom-loop                Do not stop the model when it repeats the same call
  --verbose                     Diagnostics (tool calls, retries) on stderr
  --json                        With 'sessions': machine-readable output
  --search <text>               With 'sessions': only sessions whose messages contain <text> (any case)
  --all-projects                With 'sessions --search': every project's sessions, not only this one's
  --demo                        Run the scripted demo (fake model over real HTTP, temp sample project)
  -v, --version                 Print the version
  -h, --help                    Print this help

Print mode: stdout carries only the requested output; diagnostics go to stderr.
Other flags of Claude Code's that KHAELOR cannot honour (--settings, --betas, --debug, ...) are
usage errors naming the flag.
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

export function parseArgs(argv: string[]): RunOptions {
  // `khaelor mcp list|add|remove|get`: its own flags (-s, -e, -H) belong to it.
  if (argv[0] === "mcp") return { ...defaults(), command: "mcp", mcpArgs: argv.slice(1) };
  if (argv[0] === "update" || argv[0] === "doctor" || argv[0] === "sandbox" || argv[0] === "export" || argv[0] === "plugin") return { ...defaults(), command: argv[0], commandArgs: argv.slice(1) };
  const o = defaults();
  const positional: string[] = [];
  const words = new Words(argv);
  for (let arg = words.next(); arg !== undefined; arg = words.next()) {
    const flag = FLAGS.get(arg);
    if (flag) flag(o, words, arg);
    else if (arg === "--") positional.push(...words.rest());
    else if (HONOURED_AS_IS.has(arg)) continue;
    else if (Object.hasOwn(REFUSED_FLAGS, arg)) throw new UsageError(`${arg} is not supported by KHAELOR: ${REFUSED_FLAGS[arg]}`);
    else if (Object.hasOwn(PENDING_FLAGS, arg)) {
      if (PENDING_FLAGS[arg]) words.value(arg);
      if (!o.unhonoured.includes(arg)) o.unhonoured.push(arg);
    } else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option ${arg} (see khaelor --help)`);
    else positional.push(arg);
  }
  if (o.command === "run" && positional[0] === "sessions" && positional.length === 1) o.command = "sessions";
  else if (o.command === "run" && positional[0] === "acp" && positional.length === 1) o.command = "acp";
  else if (positional.length > 0) o.prompt = positional.join(" ");
  if ((o.search !== null || o.allProjects) && o.command !== "sessions") throw new UsageError("--search and --all-projects go with 'khaelor sessions'");
  if (o.allProjects && o.search === null) throw new UsageError("--all-projects goes with --search (khaelor sessions --search <text> --all-projects)");
  if (o.forkSession && !o.continue && o.resume === null) throw new UsageError("--fork-session needs --continue or --resume");
  if (o.continue && o.resume !== null) throw new UsageError("use either --continue or --resume, not both");
  if (o.resumeSessionAt !== null && !o.continue && o.resume === null) throw new UsageError("--resume-session-at needs --continue or --resume");
  if (o.inputFormat === "stream-json" && o.outputFormat !== "stream-json") throw new UsageError("--input-format stream-json needs --output-format stream-json");
  if (o.replayUserMessages && (o.inputFormat !== "stream-json" || o.outputFormat !== "stream-json"))
    throw new UsageError("--replay-user-messages needs --input-format stream-json and --output-format stream-json");
  if (o.inputFormat === "stream-json" && o.prompt !== null) throw new UsageError("with --input-format stream-json the messages come on stdin, not as an argument");
  return o;
}

function defaults(): RunOptions {
  return {
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
    agents: [],
    agent: null,
    tools: null,
    thinkingBudget: null,
    effort: null,
    addDirs: [],
    jsonSchema: null,
    fallbackModel: null,
    pluginDirs: [],
    unhonoured: [],
    includePartialMessages: false,
    replayUserMessages: false,
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
    resumeSessionAt: null,
    demo: false,
    verifyNudge: true,
    doomLoop: true,
    json: false,
    search: null,
    allProjects: false,
  };
}

/** The words of the command line, read one at a time by the loop and by the flags that take values. */
class Words {
  private i = -1;
  /** Index of a value given as `--flag=value`: taken as it is, even when it starts with "-". */
  private explicit = -1;
  constructor(private argv: string[]) {}

  /** The next word; `--flag=value` comes as the flag, its value next. */
  next(): string | undefined {
    const arg = this.argv[++this.i];
    const eq = arg?.startsWith("--") ? arg.indexOf("=") : -1;
    if (arg === undefined || eq <= 0) return arg;
    this.argv = [...this.argv.slice(0, this.i), arg.slice(0, eq), arg.slice(eq + 1), ...this.argv.slice(this.i + 1)];
    this.explicit = this.i + 1;
    return arg.slice(0, eq);
  }

  /** The flag's value: the next word, unless that is missing or another flag. */
  value(flag: string): string {
    const v = this.argv[++this.i];
    if (this.i === this.explicit && v !== undefined) return v;
    if (v === undefined || (v.startsWith("-") && v.length > 1 && !/^-?\d/.test(v))) throw new UsageError(`${flag} needs a value`);
    return v;
  }

  number(flag: string, integer: boolean): number {
    const raw = this.value(flag);
    const n = Number(raw);
    if (!Number.isFinite(n) || n <= 0 || (integer && !Number.isInteger(n)))
      throw new UsageError(`${flag} expects a positive ${integer ? "whole number" : "number"}, got "${raw}"`);
    return n;
  }

  /** The flag's value and the words after it while `more` says they belong to it. */
  values(flag: string, more: (word: string) => boolean): string[] {
    const items = [this.value(flag)];
    for (let w = this.peek(); w !== undefined && more(w); w = this.peek()) items.push(this.take());
    return items;
  }

  peek(): string | undefined {
    return this.argv[this.i + 1];
  }

  take(): string {
    return this.argv[++this.i]!;
  }

  /** Every word left, as they are (after `--`). */
  rest(): string[] {
    const rest = this.argv.slice(this.i + 1);
    this.i = this.argv.length;
    return rest;
  }
}

type Flag = (o: RunOptions, words: Words, flag: string) => void;

/**
 * Accepts `--allowedTools a,b`, `--allowedTools "a b"` and `--allowedTools a b` (until the next
 * flag or a word that is not a rule); the permissions engine splits and validates the rules.
 */
const rules = (words: Words, flag: string) => words.values(flag, (w) => !w.startsWith("-") && looksLikeRule(w));

/** Each flag and what it sets; a name list shares one entry. */
const FLAG_TABLE: Array<[names: string[], apply: Flag]> = [
  [["-p", "--print"], (o) => void (o.print = true)],
  [["--output-format"], (o, w, flag) => {
    const f = w.value(flag);
    if (!FORMATS.includes(f as OutputFormat)) throw new UsageError(`--output-format must be one of ${FORMATS.join(", ")}, got "${f}"`);
    o.outputFormat = f as OutputFormat;
  }],
  [["--input-format"], (o, w, flag) => {
    const f = w.value(flag);
    if (f !== "text" && f !== "stream-json") throw new UsageError(`--input-format must be text or stream-json, got "${f}"`);
    o.inputFormat = f;
  }],
  [["--permission-prompt-tool"], (o, w, flag) => void (o.permissionPromptTool = w.value(flag))],
  [["--dangerously-skip-permissions"], (o) => {
    o.permissionMode = "bypassPermissions";
    o.allowBypass = true;
  }],
  [["--allow-dangerously-skip-permissions"], (o) => void (o.allowBypass = true)],
  [["--session-id"], (o, w, flag) => {
    const id = w.value(flag);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new UsageError(`--session-id must be a UUID, got "${id}"`);
    o.sessionId = id.toLowerCase();
  }],
  [["--system-prompt"], (o, w, flag) => void (o.systemPrompt = w.value(flag))],
  [["--append-system-prompt"], (o, w, flag) => void (o.appendSystemPrompt = w.value(flag))],
  [["--agents"], (o, w, flag) => void o.agents.push(...agentsFlag(w.value(flag)))],
  [["--agent"], (o, w, flag) => void (o.agent = w.value(flag))],
  [["--max-thinking-tokens"], (o, w, flag) => {
    const raw = w.value(flag);
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 0) throw new UsageError(`--max-thinking-tokens expects a whole number, got "${raw}"`);
    o.thinkingBudget = n === 0 ? null : n;
  }],
  [["--thinking"], (o, w, flag) => {
    const v = w.value(flag);
    if (!["adaptive", "enabled", "disabled"].includes(v)) throw new UsageError(`--thinking must be adaptive, enabled or disabled, got "${v}"`);
    // Adaptive models choose their own length (the number is not sent); others get this budget.
    o.thinkingBudget = v === "disabled" ? null : (o.thinkingBudget ?? DEFAULT_THINKING_BUDGET);
  }],
  [["--tools"], (o, w, flag) => {
    const v = w.value(flag);
    o.tools = v === "default" ? null : v.split(/[,\s]+/).filter(Boolean);
  }],
  [["--include-partial-messages"], (o) => void (o.includePartialMessages = true)],
  [["--replay-user-messages"], (o) => void (o.replayUserMessages = true)],
  [["--effort"], (o, w, flag) => {
    const v = w.value(flag);
    if (!isEffortLevel(v)) throw new UsageError(`--effort must be one of ${EFFORT_LEVELS.join(", ")}, got "${v}"`);
    o.effort = v;
  }],
  [["--add-dir"], (o, w, flag) => void o.addDirs.push(addDirArg(flag, w.value(flag)))],
  [["--json-schema"], (o, w, flag) => void (o.jsonSchema = jsonSchemaArg(w.value(flag)))],
  [["--fallback-model"], (o, w, flag) => void (o.fallbackModel = w.value(flag))],
  [["--plugin-dir"], (o, w, flag) => void o.pluginDirs.push(w.value(flag))],
  [["--model"], (o, w, flag) => void (o.model = w.value(flag))],
  [["--max-turns"], (o, w, flag) => void (o.maxTurns = w.number(flag, true))],
  [["--max-budget-usd"], (o, w, flag) => void (o.maxBudgetUsd = w.number(flag, false))],
  [["--max-time"], (o, w, flag) => void (o.maxTimeS = w.number(flag, false))],
  [["--permission-mode"], (o, w, flag) => {
    const m = w.value(flag);
    if (m === "auto") throw new UsageError("--permission-mode auto is not supported by KHAELOR: Claude Code's auto mode decides with a classifier KHAELOR does not have; use default, acceptEdits or dontAsk");
    if (!MODES.includes(m as PermissionMode)) throw new UsageError(`--permission-mode must be one of ${MODES.join(", ")}, got "${m}"`);
    o.permissionMode = m as PermissionMode;
  }],
  [["--allowedTools", "--allowed-tools"], (o, w, flag) => void o.allowedTools.push(...rules(w, flag))],
  [["--disallowedTools", "--disallowed-tools"], (o, w, flag) => void o.disallowedTools.push(...rules(w, flag))],
  [["--cwd"], (o, w, flag) => void (o.cwd = w.value(flag))],
  // Claude Code takes several after one flag (--mcp-config a.json b.json) and the flag again.
  [["--mcp-config"], (o, w, flag) => void o.mcpConfig.push(...w.values(flag, (x) => /\.json$|^\s*\{/.test(x)))],
  [["--strict-mcp-config"], (o) => void (o.strictMcpConfig = true)],
  [["--trust-project"], (o) => void (o.trustProject = true)],
  [["--verbose"], (o) => void (o.verbose = true)],
  [["-c", "--continue"], (o) => void (o.continue = true)],
  [["-r", "--resume"], (o, w) => {
    // An id-like word (no spaces, not a flag) is the id, even if it matches nothing: better
    // "no session zzz" than a typo silently becoming the prompt.
    const next = w.peek();
    o.resume = next !== undefined && /^[\w][\w.-]*$/.test(next) ? w.take() : "";
  }],
  [["--fork-session"], (o) => void (o.forkSession = true)],
  [["--resume-session-at"], (o, w, flag) => void (o.resumeSessionAt = w.value(flag))],
  [["--demo"], (o) => void (o.demo = true)],
  [["--no-verify-nudge"], (o) => void (o.verifyNudge = false)],
  [["--no-doom-loop"], (o) => void (o.doomLoop = false)],
  [["--json"], (o) => void (o.json = true)],
  [["--search"], (o, w, flag) => void (o.search = w.value(flag))],
  [["--all-projects"], (o) => void (o.allProjects = true)],
  [["-v", "--version"], (o) => void (o.command = "version")],
  [["-h", "--help"], (o) => void (o.command = "help")],
];

const FLAGS = new Map(FLAG_TABLE.flatMap(([names, apply]) => names.map((n) => [n, apply] as const)));

/**
 * Flags of Claude Code (and the Claude Agent SDK, which passes them only for the options that ask
 * for them) that KHAELOR cannot honour: a usage error (exit 2) with this sentence, never a run that
 * leaves the caller believing the flag took effect.
 */
export const REFUSED_FLAGS: Record<string, string> = {
  "--settings": "extra settings from a file or JSON are not read; put them in ~/.config/khaelor/settings.json or .khaelor/settings.json",
  "--setting-sources": "every settings file is read (user, project, local; KHAELOR's and Claude Code's); choosing among them is not available",
  "--thinking-display": "thinking is shown as the model streams it; its display cannot be chosen",
  "--betas": "beta headers cannot be added",
  "--task-budget": "a token budget for a task is not available; use --max-budget-usd or --max-turns",
  "--debug": "there is no debug log; --verbose puts diagnostics on stderr",
  "--debug-file": "there is no debug log; --verbose puts diagnostics on stderr",
  "--debug-to-stderr": "there is no debug log; --verbose puts diagnostics on stderr",
  "--permission-prompts": "use --permission-mode dontAsk to deny what would ask",
  "--channels": "channels are not available",
  "--include-hook-events": "hook runs are not streamed as events",
  "--session-mirror": "sessions are not mirrored",
  "--project-config-root": "the project's settings are read from the working directory (--cwd)",
  "--plugin-dir-no-mcp": "a plugin's MCP servers cannot be left out on their own; pass --plugin-dir, or --strict-mcp-config to run only --mcp-config's servers",
  "--resume-drops-turn": "a resumed session keeps every turn",
  "--no-session-persistence": "every session is written to its log",
  "--initialize-fields": "settings cannot come in the initialize request",
  "--managed-settings": "managed settings are not read",
  "--managed-settings-in-initialize": "managed settings are not read",
};

/**
 * Flags accepted but not honoured yet, each owned by an open issue (true: the flag takes a value):
 * named on stderr once per run. None now; the table stays for the next one.
 */
export const PENDING_FLAGS: Record<string, boolean> = {};

/** --json-schema's value: a JSON Schema object, or a usage error naming what is wrong. */
function jsonSchemaArg(raw: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new UsageError(`--json-schema must be a JSON Schema as JSON text: ${(e as Error).message}`);
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new UsageError("--json-schema must be a JSON Schema object, such as {\"type\":\"object\",\"properties\":{...}}");
  try {
    // Required here, not imported at the top: every start would parse the schema compiler.
    const { default: Ajv } = require("ajv") as typeof import("ajv");
    new Ajv({ strict: false }).compile(parsed);
  } catch (e) {
    throw new UsageError(`--json-schema is not a schema KHAELOR can check against: ${(e as Error).message}`);
  }
  return parsed as Record<string, unknown>;
}

/** Flags taken as they are: their meaning is already how KHAELOR works, so no notice. */
const HONOURED_AS_IS = new Set(["--await-initialize"]);

function looksLikeRule(s: string): boolean {
  // Only names a rule can have (the permission rules' own), so `--allowedTools Read Summarize`
  // leaves "Summarize" as the prompt.
  const name = /^([A-Za-z]+)(\(.*\))?(,.*)?$/.exec(s)?.[1];
  return (name !== undefined && ruleToolNamed(name) !== undefined) || /^mcp__[A-Za-z0-9_*-]+(,.*)?$/.test(s);
}

/** Every flag the table takes, for the test that proves each has an effect (test/cli/every-flag.test.ts). */
export const FLAG_NAMES: readonly string[] = FLAG_TABLE.flatMap(([names]) => names);

/** --add-dir: an existing directory, absolute (from where khaelor was started, as Claude Code reads it). */
function addDirArg(flag: string, value: string): string {
  const dir = resolve(value);
  let ok = false;
  try {
    ok = statSync(dir).isDirectory();
  } catch {
    ok = false;
  }
  if (!ok) throw new UsageError(`${flag} ${value}: no such directory`);
  return dir;
}
