// The parsed command line, as plain data: `src/cli/args.ts` fills it, `src/main.ts` picks a mode
// with it and hands it down; no mode imports the parser.
import type { AgentDefinition } from "../../agent/types.ts";
import type { PermissionMode } from "../../events/types.ts";
import type { EffortLevel } from "../../model/types.ts";

export type OutputFormat = "text" | "json" | "stream-json";
export type InputFormat = "text" | "stream-json";

/** The command line as plain data: what main.ts hands to a mode. */
export type RunOptions = {
  command: "run" | "sessions" | "export" | "mcp" | "acp" | "update" | "doctor" | "sandbox" | "plugin" | "help" | "version";
  /** `khaelor mcp ...`: the words after "mcp", parsed by the mcp command itself. */
  mcpArgs: string[];
  /** `khaelor update ...`, `khaelor doctor ...` and `khaelor export ...`: the words after the command, parsed by it (src/install, src/doctor). */
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
  /** Subagent definitions from --agents (JSON), above the agent files' of the same name. */
  agents: AgentDefinition[];
  /** --agent NAME: the main session runs as that agent. */
  agent: string | null;
  /** Extended thinking's token budget (--max-thinking-tokens, --thinking); null: no thinking. */
  thinkingBudget: number | null;
  /** The built-in tools the model is offered (Claude Code's --tools); null: all of them. */
  tools: string[] | null;
  /** --effort: the effort level (src/model/effort.ts); null: the settings' effortLevel, else none. */
  effort: EffortLevel | null;
  /** --add-dir: more directories the tools may use as the project (absolute). */
  addDirs: string[];
  /** --json-schema: the answer is an object valid against this schema (the result's structured_output). */
  jsonSchema: Record<string, unknown> | null;
  /** --fallback-model: the model a request goes to after three overload errors in a row. */
  fallbackModel: string | null;
  /** --plugin-dir (repeatable): plugin folders loaded for this session. */
  pluginDirs: string[];
  /** Flags accepted for compatibility with Claude Code wrappers that this version does not honour. */
  unhonoured: string[];
  includePartialMessages: boolean;
  /** --replay-user-messages: stream-json echoes each user message back, with its uuid. */
  replayUserMessages: boolean;
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
  /** --resume-session-at: the message (its stream-json uuid) a resumed session continues from. */
  resumeSessionAt: string | null;
  demo: boolean;
  verifyNudge: boolean;
  doomLoop: boolean;
  json: boolean;
  /** `khaelor sessions --search <text>`: only sessions whose messages contain it. */
  search: string | null;
  /** With --search: every project's sessions. */
  allProjects: boolean;
};
