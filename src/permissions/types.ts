// Plain data shared by the permission modules. The engine's public surface is in ./index.ts.
import type { PermissionMode } from "../events/types.ts";

export type { PermissionMode };

export const PERMISSION_MODES = ["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"] as const;

export type Behavior = "allow" | "ask" | "deny";

/** Where a rule came from. `cli` rules live for the process; `session` rules are grants kept in memory. */
export type RuleScope = "user" | "project" | "local" | "session" | "cli";

/** Scopes "allow always" can save into. */
export type GrantScope = "session" | "local" | "user";

/** Claude Code's tool names, which rules are written with. */
/** `Mcp` rules are written mcp__server, mcp__server__tool or mcp__server__* (the whole rule is the specifier). */
export type RuleTool = "Read" | "Edit" | "Bash" | "Grep" | "Glob" | "Process" | "WebFetch" | "WebSearch" | "Mcp" | "Agent";

export type ParsedRule = {
  tool: RuleTool;
  /** The text inside the parentheses; undefined for a bare tool rule (`Bash`). */
  specifier?: string;
  /** The rule as written, normalised (`Bash( ls * )` → `Bash(ls *)`). */
  text: string;
};

export type RuleEntry = {
  rule: string;
  behavior: Behavior;
  scope: RuleScope;
  /** The settings file it was read from; absent for session and CLI rules. */
  file?: string;
};

/**
 * A setting in a file inside the project (its .khaelor/settings.json or settings.local.json) that
 * would let more run than the user's own settings do: an allow rule, or a defaultMode that asks
 * less. A cloned repository must not grant itself these, so each holds only where the project's
 * trust says so (src/trust decides; the engine only asks).
 */
export type WideningSetting = { file: string; scope: "project" | "local" } & ({ key: "allow"; rule: string } | { key: "defaultMode"; mode: PermissionMode } | { key: "additionalDirectories"; dir: string });

/** Which of a project's widening settings hold, and the record of those KHAELOR writes for the user. */
export type ProjectSettingsTrust = {
  widens(s: WideningSetting): boolean;
  /** KHAELOR wrote this into a project file because the user chose it ("allow always"): it is the user's. */
  written(s: WideningSetting): void;
};

export type Problem = {
  file: string;
  /** e.g. `permissions.allow[2]`; absent when the whole file is unreadable. */
  position?: string;
  rule?: string;
  message: string;
  /**
   * A deny or ask rule that could not be read (or a whole file of rules): what it covered is
   * unknown, so the tool it names (null: every tool) is asked about, and print mode stops (exit 2).
   */
  failClosed?: { behavior: "deny" | "ask"; tool: RuleTool | null };
};

export type Suggestion = {
  /** The first (usually only) rule to save. */
  rule: string;
  /** Every rule needed for this call to run without asking; save them all on "allow always". */
  rules: string[];
  description: string;
};

export type Decision = {
  behavior: Behavior;
  /** One sentence for the user and, on deny, for the model. */
  reason: string;
  /** Who decided: `rule:<scope>:<rule>`, `mode:<mode>`, `hardline`, `protected-path`, `sensitive-path`, `external-path`, `read-only`, `parse-error`. */
  source: string;
  /** Offered for asks that an allow rule could settle; never for configured asks or the floor. */
  suggestion?: Suggestion;
};

export type DecisionRequest = {
  tool: string;
  input: unknown;
  cwd: string;
  /** The tool says it changes nothing (an MCP server's readOnlyHint); plan mode runs such tools. */
  readOnly?: boolean;
  /** Asked for a read-only subagent (Explore, Plan): what plan mode would not run is denied too. */
  onlyReads?: boolean;
};

/** Why a search over a directory leaves one path out of its results. */
export type SearchSkip = {
  /** `denied`: a deny rule covers it. `asks`: reading it directly would ask the user first. */
  kind: "denied" | "asks";
  /** The rule (`Read(./secrets/**) (project settings)`) or the reason a path holds secrets. */
  because: string;
};

/** What one grep or glob over a directory must leave out; built per search, in the current mode. */
export type SearchFilter = {
  /** True when a rule names paths below the directory: list every file the search covers and check each. */
  active: boolean;
  /**
   * When not active: what ripgrep itself can leave out (grep's secret-bearing names, at any depth,
   * and credential places below the directory by absolute path). skip() still judges each result.
   */
  leaveOut: { names: string[]; paths: string[] };
  skip(absPath: string): SearchSkip | null;
};
