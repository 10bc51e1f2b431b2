// The contract between the kernel and the tools. The kernel only sees ToolRuntime.
import type { z } from "zod";
import type { ImageBlock, JsonSchema, TextBlock, ToolResultContent, ToolSpec } from "../model/types.ts";
import type { Workspace } from "../workspace/types.ts";

export type ToolCall = { id: string; name: string; input: unknown };

export type ToolContext = {
  workspace: Workspace;
  signal: AbortSignal;
  toolUseId: string;
  /** Live output for the UI (bash and process tails). Ephemeral; never logged. */
  onProgress?: (chunk: string) => void;
  /** What permission rules hide from a grep or glob over a directory; absent, nothing is hidden. */
  searchGuard?: SearchGuard;
};

/** Why a search leaves a path out: a deny rule, or reading it directly would ask first. */
export type SearchSkip = { kind: "denied" | "asks"; because: string };
/** Built once per search over `dir` (the permission engine's searchFilter fits this shape). */
export type SearchGuard = (tool: "grep" | "glob", dir: string) => { active: boolean; skip(absPath: string): SearchSkip | null };

/**
 * What the UI shows of a result, beside the text the model reads; not sent to the model. A result
 * is written for the model (bash ends with "[exit code 1; cwd: .]", process with how to read it
 * next); the user gets the output and what happened to it, never that bookkeeping.
 */
export type ToolDisplay = {
  diff?: string;
  /** The file a read, write or edit touched (absolute). */
  path?: string;
  /** bash: the working directory after the command (absolute), so a resume can go on from there. */
  cwd?: string;
  /** How the call ended, for the user ("exit code 1", "timed out: …"); "" when there is nothing to say. */
  notes?: string;
  /** The user sees the first `body` characters of the text (the rest is the model's bookkeeping). Absent: all of it. */
  body?: number;
  /** bash: lines of the whole output, which the text may show only the head and tail of. */
  lines?: number;
};

export type ToolResult = {
  content: ToolResultContent;
  isError?: boolean;
  display?: ToolDisplay;
  /**
   * The result as Claude Code's PostToolUse hooks read it (tool_response: Read's `file`, Bash's
   * `stdout`, Edit's `structuredPatch`), made from the tool's own data, never parsed back out of
   * its text. Not logged; absent: the content as it is.
   */
  response?: unknown;
};

/** What a call will do, for the user asked to allow it: made by the same plan its run applies. */
export type ToolPreview = {
  /** The file the call changes, as paths are shown (relative inside the project). */
  path?: string;
  /** The unified diff run() applies, exactly; absent when it changes nothing or will fail. */
  diff?: string;
  /**
   * The same change whole: the file's text before (null: no file yet) and the text run() writes,
   * for a client that draws its own diff (an ACP editor). Absent where `diff` is.
   */
  change?: { path: string; before: string | null; after: string };
  /** A line beside it: "new file", the command it runs, or why the call will fail once allowed. */
  detail?: { label: string; text: string };
  /** A plan presented for approval (exit_plan_mode): its markdown and the plan file it is kept in. */
  plan?: { text: string; file: string };
};

/** How an editor draws a call: ACP's tool kinds. */
export type ToolKind = "read" | "edit" | "delete" | "move" | "search" | "execute" | "think" | "fetch" | "switch_mode" | "other";

/** What one call reaches, as its tool says: the files or folders (absolute), the command it runs. */
export type CallReach = {
  paths: Array<{ path: string; line?: number }>;
  /** The shell command the call runs (the sandbox confines it). */
  command?: string;
  /** The call asks to run its command outside the sandbox (dangerouslyDisableSandbox). */
  outsideSandbox?: true;
  /** Where a call of a tool that may change things only looks (process list and read). */
  access?: "read";
};

/**
 * A tool's facts about one call, so that nobody outside src/tools switches on a tool's name or
 * reads its input's fields: who it is to Claude Code's hooks and to an ACP editor, whether it
 * only reads, and what it reaches.
 */
export type ToolFacts = Omit<CallReach, "access"> & {
  name: string;
  /** Claude Code's name for the tool ("Read", "Bash"): what hooks, stream-json hosts and rules speak. */
  claudeName: string;
  kind: ToolKind;
  /** read: never changes anything; write: may (files, processes, the world). */
  access: "read" | "write";
};

/** A tool's plan for one call: a failure (answered before anyone is asked), or what it will do. */
export type ToolPlan = { failure: ToolResult } | { preview?: ToolPreview; run(): Promise<ToolResult> };

export interface Tool<I = any> {
  name: string;
  /** The model-facing description (kept beside the tool as <name>.md). */
  description: string;
  inputSchema: z.ZodType<I>;
  /** The schema the model is shown, when it comes as JSON schema (an MCP server's) rather than from inputSchema. */
  jsonSchema?: JsonSchema;
  /** Never changes anything (files, processes, the network). */
  readOnly: boolean;
  /** Can lose data that is not recoverable from the session (rm, overwrite). */
  destructive: boolean;
  /** Claude Code's name for it; absent: its own name (an MCP tool's mcp__server__tool). */
  claudeName?: string;
  /** Its calls in one assistant message run side by side (the agent tool's children); absent: one after another. */
  concurrent?: boolean;
  /** How an editor draws its calls; absent: "other". */
  kind?: ToolKind;
  /** The shell commands it stands in for ("cat/head/tail"): the system prompt asks for it instead. */
  insteadOf?: string;
  /** What one call reaches; relative paths are relative to `cwd`, the model's working directory. */
  reach?(input: I, cwd: string): CallReach;
  /** What a call without a planned preview (no prepare) will do, for the user asked to allow it. */
  preview?(input: I): ToolPreview | undefined;
  /** One line for the UI, e.g. `edit src/app.ts (+3 -1)` or `bash: npm test`. */
  summarize(input: I): string;
  /**
   * Checks and plans one call without changing anything, before anyone is asked to allow it: a
   * call that cannot succeed (an edit whose text is not in the file) fails at once; otherwise the
   * plan's run() does exactly what its preview shows. What it tells the model before the gate may
   * not depend on a file this session has not read (it could be one the rules hide). Tools
   * without it run as they are.
   */
  prepare?(input: I, ctx: ToolContext): Promise<ToolPlan>;
  run?(input: I, ctx: ToolContext): Promise<ToolResult>;
}

/** How a call ended, so the kernel can count strikes without parsing messages. */
export type ToolOutcomeKind = "ok" | "error" | "unknown_tool" | "invalid_input";

export type ToolOutcome = {
  kind: ToolOutcomeKind;
  content: ToolResultContent;
  isError: boolean;
  summary: string;
  display?: ToolDisplay;
  /** See ToolResult.response. */
  response?: unknown;
  /** It failed because the call was cancelled (the user's Esc, the turn stopped) while it ran. */
  interrupted?: true;
  durationMs: number;
};

/** A call parsed and checked once, ready to be allowed (or not) and run. */
export type PreparedCall = {
  ok: true;
  call: ToolCall;
  summary: string;
  /** Never changes anything. */
  readOnly: boolean;
  destructive: boolean;
  facts: ToolFacts;
  /** What it will do, for the permission panel (edits and writes: the diff run() applies). */
  preview?: ToolPreview;
  /** Never throws: an error comes back as an error outcome. */
  run(): Promise<ToolOutcome>;
};

/** A call answered without running: an unknown tool, invalid input, or one that cannot succeed. */
export type FailedCall = { ok: false; call: ToolCall; outcome: ToolOutcome; facts?: ToolFacts };

export interface ToolRuntime {
  specs(): ToolSpec[];
  names(): string[];
  /**
   * Parses the call once and plans it: a failure the model can read and correct, or a prepared
   * call to put to the permission gate and run. Never throws.
   */
  prepare(call: ToolCall, ctx: Omit<ToolContext, "toolUseId">): Promise<PreparedCall | FailedCall>;
  /** prepare, then run: for callers with nobody to ask (the demo's check, tests, benches). */
  execute(call: ToolCall, ctx: Omit<ToolContext, "toolUseId">): Promise<ToolOutcome>;
  /**
   * Kind and one-line summary of a call that will not be run (cancelled, cut off by max_tokens),
   * and whether its input is valid. Null for an unknown tool.
   */
  describe(call: ToolCall): { readOnly: boolean; destructive: boolean; summary: string; valid: boolean; concurrent?: boolean } | null;
}

export type { TextBlock, ImageBlock };
