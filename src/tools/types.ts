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
};

/** What a call will do, for the user asked to allow it: made by the same plan its run applies. */
export type ToolPreview = {
  /** The file the call changes, as paths are shown (relative inside the project). */
  path: string;
  /** The unified diff run() applies, exactly; absent when it changes nothing or will fail. */
  diff?: string;
  /** A line beside it: "new file", or why the call will fail once allowed. */
  detail?: { label: string; text: string };
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
  /** What it will do, for the permission panel (edits and writes: the diff run() applies). */
  preview?: ToolPreview;
  /** Never throws: an error comes back as an error outcome. */
  run(): Promise<ToolOutcome>;
};

/** A call answered without running: an unknown tool, invalid input, or one that cannot succeed. */
export type FailedCall = { ok: false; call: ToolCall; outcome: ToolOutcome };

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
  describe(call: ToolCall): { readOnly: boolean; destructive: boolean; summary: string; valid: boolean } | null;
}

export type { TextBlock, ImageBlock };
