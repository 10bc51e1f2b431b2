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

/** Optional data the UI shows beside a result; not sent to the model. */
export type ToolDisplay = {
  diff?: string;
  /** The file a read, write or edit touched (absolute). */
  path?: string;
  /** bash: the working directory after the command (absolute), so a resume can go on from there. */
  cwd?: string;
};

export type ToolResult = {
  content: ToolResultContent;
  isError?: boolean;
  display?: ToolDisplay;
};

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
   * Why the call cannot succeed, found without changing anything (an edit whose text is not in
   * the file): the call fails before anyone is asked to allow it. Null when it may go ahead.
   */
  precheck?(input: I, ctx: ToolContext): Promise<ToolResult | null>;
  run(input: I, ctx: ToolContext): Promise<ToolResult>;
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

export interface ToolRuntime {
  specs(): ToolSpec[];
  names(): string[];
  /** Never throws: unknown tools, invalid input and thrown errors come back as error outcomes. */
  execute(call: ToolCall, ctx: Omit<ToolContext, "toolUseId">): Promise<ToolOutcome>;
  /** The error outcome of a valid call that cannot succeed as things are (see Tool.precheck); null otherwise. */
  precheck(call: ToolCall, ctx: Omit<ToolContext, "toolUseId">): Promise<ToolOutcome | null>;
  /**
   * For permissions and the UI: what kind of tool this is, its one-line summary, and whether the
   * input is valid (invalid calls are answered without asking anyone). Null for an unknown tool.
   */
  describe(call: ToolCall): { readOnly: boolean; destructive: boolean; summary: string; valid: boolean } | null;
}

export type { TextBlock, ImageBlock };
