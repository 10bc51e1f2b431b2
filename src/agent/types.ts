// The session service every mode stands on: the app, print mode, ACP and stream-json input. A
// mode adds its own I/O (a terminal, stdout, a protocol) around this interface and never reaches
// past it into the workspace, the permission engine, git or the bus. What a mode needs to run
// turns and show them, nothing to wire; the trust question's parts are one facet (trust).
import type { AgentEvent, DurableEvent, PermissionMode, SessionHeader } from "../events/types.ts";
import type { TurnResult } from "../kernel/loop.ts";
import type { UserBlock } from "../model/types.ts";
import type { GrantResult, GrantScope, RuleEntry, Suggestion } from "../permissions/index.ts";
import type { McpView } from "../mcp/session-mcp.ts";
import type { ToolCall, ToolFacts, ToolPreview } from "../tools/types.ts";
import type { FileChange, UndoResult } from "../workspace/git/index.ts";
import type { ProcessInfo } from "../workspace/process-registry.ts";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { SlashEntry } from "../extensions/session-extensions.ts";
import type { HookEntry } from "../hooks/config.ts";
import type { TrustItem } from "../trust/project-trust.ts";
import type { CommandTerminal, TextFiles } from "../workspace/types.ts";
import type { AgentDefinition } from "../extensions/agents.ts";

export type { AgentDefinition };

export type { TurnResult };
/** What a mode shows of MCP servers and of project trust, without reaching below src/agent. */
export type { ServerView } from "../mcp/manager.ts";
export type { TrustItem };

export type AgentTurnResult = TurnResult & {
  /** The log could not be written (a full disk): what was not saved and what to do (also in `message`). */
  notSaved?: string;
  /** The user's message itself was not saved: a mode gives it back to be sent again. */
  keepInput?: boolean;
};

/** The user's answer to one ask. `always` saves the suggested rule at that scope. */
export type AskAnswer = { allow: true; always?: { scope: GrantScope } } | { allow: false; message?: string };

export type AskRequest = {
  call: ToolCall;
  summary: string;
  reason: string;
  suggestion?: Suggestion;
  /** What the call will do (an edit's or a write's diff): exactly what runs once it is allowed. */
  preview?: ToolPreview;
  /** Its tool's facts: Claude Code's name, ACP's kind, the paths it reaches. */
  facts?: ToolFacts;
};

/** Asks the user whether a call may run (the app's permission panel); resolves with the choice. */
export type Asker = (req: AskRequest, signal: AbortSignal) => Promise<AskAnswer>;

/** Everything a mode decides about the session it opens; src/agent never reads the command line. */
export type SessionOptions = {
  /** The project directory (default: the process's). */
  cwd?: string;
  /** Absent: a new session. `latest`: this project's last one; otherwise one by id or unique prefix. */
  resume?: { latest: true } | { id: string };
  /** With resume: continue in a new session, the old one untouched. */
  fork?: boolean;
  /** Wins over the resumed session's model and the settings'. */
  model?: string;
  /** This run's mode; never taken silently from a resumed session. */
  permissionMode?: PermissionMode;
  allowedTools?: string[];
  disallowedTools?: string[];
  /** Loop policies, both on unless turned off. */
  verifyNudge?: boolean;
  doomLoop?: boolean;
  budgets?: { maxTurns?: number; maxBudgetUsd?: number; wallTimeMs?: number };
  /** Who is asked when a rule says ask; absent, nobody is there and the call is denied. */
  ask?: Asker;
  /**
   * This mode asks the project-trust question itself (the app, through AgentSession.trust); in
   * every other mode what the project's files define and the user never trusted is ignored with
   * a notice saying how to trust it.
   */
  trustQuestion?: boolean;
  /** Extended thinking's budget in tokens (adaptive models choose their own); absent, no thinking. */
  thinkingBudget?: number;
  /** Offer the model only these built-in tools (names in any case: Bash or bash); absent, all of them. */
  tools?: string[];
  /** A new session takes this id (a host that names its sessions: Claude Code's --session-id). */
  sessionId?: string;
  /** Replaces KHAELOR's system prompt (--system-prompt, the Agent SDK's systemPrompt). */
  systemPrompt?: string;
  /** Added after the system prompt (--append-system-prompt). */
  appendSystemPrompt?: string;
  /** Where read, edit and write get and put file content instead of the disk (ACP's editor buffers). */
  files?: TextFiles;
  /** Where bash runs its commands instead of here (ACP's editor terminal). */
  terminal?: CommandTerminal;
  /** Another Messages API endpoint and key (the demo's fake model). */
  api?: { baseURL: string; apiKey: string };
  /** Hooks the host program runs itself (the Agent SDK's hook callbacks), beside the settings' hooks. */
  hostHooks?: HookEntry[];
  /** --mcp-config files or JSON, --strict-mcp-config, --trust-project. */
  mcp?: { configs?: string[]; strict?: boolean; trustProject?: boolean; hostServers?: Array<{ name: string; transport: () => Transport }> };
  /** Why a new session starts, for SessionStart hooks: "clear" after /clear (absent: startup, or resume). */
  startSource?: "clear";
  /** SessionStart waits for start(): the app's /clear and /resume open the next session first, then end the old one. */
  deferStart?: boolean;
  /** The host's subagent definitions (--agents, the Agent SDK's `agents`): above the files' of the same name. */
  agents?: AgentDefinition[];
  /** --agent NAME: the main session runs as that agent (its prompt, tools and model). */
  agent?: string;
};

/** An agent type the agent tool offers, and where it comes from (/agents lists them). */
export type AgentInfo = Pick<AgentDefinition, "name" | "description" | "source" | "file" | "model" | "tools">;

/** Claude Code's SessionEnd reasons: /clear, the user leaving at the prompt, anything else. */
export type SessionEndReason = "clear" | "prompt_input_exit" | "other";

/** What resuming found in the log, for a mode to show where the session was. */
export type ResumedLog = { header: SessionHeader | null; events: DurableEvent[] };

export interface AgentSession {
  readonly sessionId: string;
  /** The project directory. */
  readonly cwd: string;
  readonly toolNames: readonly string[];
  /** Every tool the next request offers the model, by its API name: built-ins, MCP tools (mcp__server__tool), the API's web tools and tool search. */
  offeredTools(): string[];
  /** Null for a new session. */
  readonly replayed: ResumedLog | null;
  /** To read before the first prompt: settings problems, crash recovery, lost processes, snapshots off. */
  readonly notices: readonly string[];
  readonly logPath: string;

  /** Every event, live (the log has it first). Returns the unsubscribe. */
  subscribe(listener: (e: AgentEvent) => void): () => void;
  /** One user turn, run until the model ends it or something stops it (budgets, abort, errors). */
  runTurn(input: string | UserBlock[], signal: AbortSignal): Promise<AgentTurnResult>;
  /** A message typed while a turn runs: delivered at the turn's next boundary. */
  queueSteering(text: string): void;
  /** Takes back messages queued but not yet delivered (after Esc, the composer gets them back). */
  takeQueuedSteering(): string[];

  model(): string;
  setModel(name: string): void;
  permissionMode(): PermissionMode;
  /** Extended thinking's budget from the next turn on; null turns it off. */
  setThinkingBudget(tokens: number | null): void;
  setPermissionMode(mode: PermissionMode): void;
  /** What the whole session has cost, earlier runs included. */
  costSoFar(): number;
  /** Nothing was said in this session (so far): closing it now leaves nothing behind. */
  isEmpty(): boolean;

  /** Shrinks the model's view; false when there is nothing to compact. */
  compact(instructions: string | undefined, signal: AbortSignal): Promise<boolean>;
  /** The work tree's snapshots behind /undo and /diff. */
  readonly snapshots: {
    /** Why /undo and /diff are off; null when snapshots work. */
    off(): string | null;
    /** Restores the work tree to before the last agent turn (recorded in the log); null when nothing is left to undo. Throws when snapshots are off. */
    undo(): Promise<UndoResult | null>;
    /** What changed in the work tree since the session started. */
    diff(): Promise<{ patch: string; files: FileChange[] }>;
  };
  /** The permission rules in force, from every scope, and removing one (from its file too). */
  readonly rules: {
    list(): RuleEntry[];
    remove(entry: Pick<RuleEntry, "rule" | "behavior" | "scope">): GrantResult;
  };
  /** Custom slash commands and skills (.claude/commands, .claude/skills and the rest): for completion and /help. */
  slashCommands(): SlashEntry[];
  /** Every hook configured, from which file, and whether it runs here (a project's hooks need trust). */
  hooks(): { entry: HookEntry; runs: boolean }[];
  /**
   * What the project's own files would run or widen that the user was never asked about: its MCP
   * servers, hooks, commands' allowed-tools and settings (allow rules, a mode, a model). Only a
   * session opened with trustQuestion lists them (the app asks once); other modes were told in
   * the notices. The one answer holds for all of them, remembered per project.
   */
  readonly trust: {
    pending(): TrustItem[];
    answer(answer: "trust" | "decline"): Promise<void>;
    /** The project's settings held back now (untrusted), asked about or not: /permissions lists them. */
    heldSettings(): TrustItem[];
    /** Trust every held setting from now on (the user chose so in /permissions); they take effect at once. */
    trustSettings(): void;
  };
  /** The MCP servers: their status and tools, reconnect, and the project-trust question. */
  readonly mcp: McpView;
  /** The processes the agent started (dev servers, watchers), running or not. */
  processes(): ProcessInfo[];
  /** The agent types the agent tool offers (built-in, the user's, the project's, the host's). */
  agents(): AgentInfo[];
  /** The subagents running now (background ones outlive the turn that started them). */
  readonly subagents: {
    running(): number;
    /** Resolves when none runs. */
    idle(): Promise<void>;
    /** A background agent's result is waiting for the parent: a mode wakes an idle parent (wake()). */
    onNotice(listener: () => void): () => void;
    cancelAll(reason?: unknown): void;
    /** Background results waiting for the parent. */
    pending(): number;
  };
  /**
   * A turn with no user message, for the background results waiting (as Claude Code wakes an idle
   * parent when a background agent ends); null when none waits. A mode calls it only while idle.
   */
  wake(signal: AbortSignal): Promise<AgentTurnResult | null>;
  /** Runs the SessionStart hooks of a session opened with deferStart (else nothing): once the old session has ended. */
  start(): Promise<void>;
  /** Stops the agent's processes and closes the log (removed when nothing was said); `reason` for SessionEnd hooks. */
  close(reason?: SessionEndReason): Promise<void>;
}
