// The session service every mode stands on: the app, print mode, ACP and stream-json input. A
// mode adds its own I/O (a terminal, stdout, a protocol) around this interface and never reaches
// past it into the workspace, the permission engine, git or the bus. What a mode needs to run
// turns and show them, nothing to wire; the trust question's parts are one facet (trust).
import type { Sandbox } from "../sandbox/sandbox.ts";
import type { AgentEvent, DurableEvent, PermissionMode, SessionHeader } from "../events/types.ts";
import type { TurnResult } from "../kernel/loop.ts";
import type { EffortLevel, UserBlock } from "../model/types.ts";
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
import type { UserShellResult } from "./user-shell.ts";
import type { CommandPrompt } from "./command-prompts.ts";
import type { ContextUsage } from "./context-usage.ts";
import type { AgentDefinition } from "../extensions/agents.ts";
import type { PluginInfo } from "../plugins/plugin-list.ts";

export type { PluginInfo };
export type { AgentDefinition };

export type { TurnResult };
/** What a mode shows of MCP servers and of project trust, without reaching below src/agent. */
export type { ServerView } from "../mcp/manager.ts";
export type { CommandPrompt, ContextUsage, TrustItem, UserShellResult };

export type AgentTurnResult = TurnResult & {
  /** The log could not be written (a full disk): what was not saved and what to do (also in `message`). */
  notSaved?: string;
  /** The user's message itself was not saved: a mode gives it back to be sent again. */
  keepInput?: boolean;
  /** A plan was approved to be implemented in a new session with a clean context: the mode opens it with this. */
  planHandoff?: PlanHandoff;
};

/** An approved plan on its way to a new session: the planning session's conversation stays behind. */
export type PlanHandoff = {
  plan: string;
  planFile: string;
  /** The planning session, kept and resumable. */
  fromSession: string;
  /** The new session's first prompt: the user's request and the plan. */
  prompt: string;
};

/** The user's answer to one ask. `always` saves the suggested rule at that scope. */
export type AskAnswer =
  | {
      allow: true;
      always?: { scope: GrantScope };
      /** An approved plan (exit_plan_mode): the mode to continue in (absent: default). */
      mode?: PermissionMode;
      /** An approved plan: implemented in a new session with a clean context instead of this one. */
      clearContext?: boolean;
      /** A sandbox offer taken: allow what was blocked for the session, or run the command once outside. */
      offer?: "grant" | "outside";
    }
  | { allow: false; message?: string };

export type AskRequest = {
  call: ToolCall;
  summary: string;
  reason: string;
  suggestion?: Suggestion;
  /** What the call will do (an edit's or a write's diff): exactly what runs once it is allowed. */
  preview?: ToolPreview;
  /** Its tool's facts: Claude Code's name, ACP's kind, the paths it reaches. */
  facts?: ToolFacts;
  /**
   * Not a permission question: the command ran and the sandbox blocked it. Offered only to an
   * Asker that said it knows the offer (SessionOptions.sandboxOffers); `outside`: running it
   * outside is allowed here (sandbox.allowUnsandboxedCommands).
   */
  sandboxOffer?: { blocked: string; grant: string; outside: boolean };
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
  /** With resume: continue from this message (an event id, as stream-json prints it): later ones leave the conversation (a rewind event); with fork, they are not copied. */
  resumeAt?: string;
  /** With resume and fork (the app's "fork from here"): the new session holds the conversation before this user message, which comes back to be edited; the files stay as they are. */
  forkBefore?: string;
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
  /** The Asker answers sandbox offers (the app): a command the sandbox blocked offers to allow it or run it outside. */
  sandboxOffers?: boolean;
  /**
   * This mode asks the project-trust question itself (the app, through AgentSession.trust); in
   * every other mode what the project's files define and the user never trusted is ignored with
   * a notice saying how to trust it.
   */
  trustQuestion?: boolean;
  /** Extended thinking's budget in tokens (adaptive models choose their own); absent, no thinking. */
  thinkingBudget?: number;
  /** --effort: the effort level (src/model/effort.ts); absent, the settings' effortLevel, else none sent. */
  effort?: EffortLevel;
  /** --add-dir: more directories the tools may use as the project (absolute). */
  addDirs?: string[];
  /** --fallback-model: where a request goes after three overload errors in a row. */
  fallbackModel?: string;
  /** --json-schema: the StructuredOutput tool with this schema; its matching input ends the turn. */
  jsonSchema?: Record<string, unknown>;
  /** --plugin-dir: plugin folders loaded for this session, the user's own (src/plugins). */
  pluginDirs?: string[];
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

/** A user message the conversation can go back to. */
export type RewindPoint = { id: string; ts: number; text: string; images: number };

/** What a rewind did: the message (to edit and send again), and what of the code came back. */
export type RewindOutcome = {
  text: string;
  conversation: boolean;
  /** The files put back and those left (the user changed them after the agent); null when not asked or nothing changed. */
  code: UndoResult | null;
  /** What could not be restored, in plain words. */
  notes: string[];
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
  /** Where plan mode writes this session's plan (in the user's data directory). */
  readonly planFile: string;

  /** Every event, live (the log has it first). Returns the unsubscribe. */
  subscribe(listener: (e: AgentEvent) => void): () => void;
  /**
   * One user turn, run until the model ends it or something stops it (budgets, abort, errors).
   * `messageId`: the id the user's message takes in the log (a stream-json host's own uuid); one
   * the session already holds is not reused (the message gets a fresh one). `display`: what the
   * user typed, shown instead of `input` (/init, /review: the prompt made from it).
   */
  runTurn(input: string | UserBlock[], signal: AbortSignal, opts?: { messageId?: string; display?: string }): Promise<AgentTurnResult>;
  /**
   * `!command`: the user's own command, run in their shell in the project (no rule asks; the
   * hardline floor refuses). Its output streams as shell_progress events, then is logged as a user
   * message the model reads before the next prompt. Abort stops it (the command's whole group).
   */
  runShell(command: string, signal: AbortSignal): Promise<UserShellResult>;
  /**
   * /init and /review: the prompt to run as the user's turn (with what it needs attached: the
   * instruction files found, the diff), or why there is nothing to run.
   */
  commandPrompt(name: "init" | "review", arg: string): Promise<CommandPrompt>;
  /** /context: the next request's tokens by category, counted by the API (or the last usage; it says which). */
  contextUsage(signal?: AbortSignal): Promise<ContextUsage>;
  /** A message typed while a turn runs: delivered at the turn's next boundary. */
  queueSteering(text: string): void;
  /** Takes back messages queued but not yet delivered (after Esc, the composer gets them back). */
  takeQueuedSteering(): string[];

  model(): string;
  setModel(name: string): void;
  permissionMode(): PermissionMode;
  /** Extended thinking's budget from the next turn on; null turns it off. */
  setThinkingBudget(tokens: number | null): void;
  /** The effort level in force (undefined: none sent) and a new one from the next request on. */
  effort(): EffortLevel | undefined;
  setEffort(level: EffortLevel | undefined): void;
  /** --json-schema: the object the model gave in the last turn, valid against the schema; undefined: none. */
  structuredOutput?(): unknown;
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
  /** Going back to an earlier user message: the conversation, the code, or both. */
  readonly rewind: {
    /** The user's messages in the conversation as it stands, newest first. */
    points(): RewindPoint[];
    /**
     * Back to just before message `id`: the model's view (conversation), the work tree (code), or
     * both. Throws when the message is not in the conversation, or a turn is running; nothing changes then.
     */
    to(id: string, choice: { conversation: boolean; code: boolean }): Promise<RewindOutcome>;
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
  /** /plugin: this session's plugins, the installed ones and what the marketplaces offer; an installed one turned on or off in the user's settings (the next session), returning the file. */
  plugins: { list(): PluginInfo[]; setEnabled(id: string, on: boolean): string };
  /**
   * What the project's own files would run or widen that the user was never asked about: its MCP
   * servers, hooks, commands' allowed-tools and settings (allow rules, a mode, a model). Only a
   * session opened with trustQuestion lists them (the app asks once); other modes were told in
   * the notices. The one answer holds for all of them, remembered per project.
   */
  /** The OS sandbox for bash and process commands (/sandbox shows and toggles it; the status line names its state). */
  readonly sandbox: Sandbox;
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
  /** The statusLine command the app runs (the user's, or a trusted project's); null: none. */
  statusLine(): { command: string; padding?: number; file: string } | null;
  /** The agent types the agent tool offers (built-in, the user's, the project's, the host's). */
  agents(): AgentInfo[];
  /**
   * A subagent's conversation read back from its own log (its agent_start's logPath, or its
   * agent_end's log relative to this session's log); only logs in a `.agents` folder beside this
   * session's. Null if it cannot be read.
   */
  agentConversation?(log: string): DurableEvent[] | null;
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
