// Result constructors and the path forms every tool shares.
import { relative, isAbsolute } from "node:path";
import type { Workspace } from "../workspace/types.ts";
import { isLocalWorkspace, type LocalWorkspace } from "../workspace/types.ts";
import type { ToolContext, ToolDisplay, ToolOutcome, ToolResult } from "./types.ts";

export const ok = (text: string, display?: ToolDisplay): ToolResult => (display ? { content: text, display } : { content: text });
/** A result with what Claude Code's PostToolUse hooks read of it (ToolResult.response). */
export const answering = (r: ToolResult, response: unknown): ToolResult => ({ ...r, response });
export const fail = (text: string, display?: ToolDisplay): ToolResult => (display ? { content: text, isError: true, display } : { content: text, isError: true });

/** A result's text (its text blocks, one per line; images left out): what hooks and command lines read. */
export function outcomeText(content: ToolOutcome["content"]): string {
  return typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
}

/**
 * A result written for the model that ends in bracketed notes ("[exit code 1; cwd: .]"): beside
 * it, what the user is shown instead, the body and notes of their own without the model's
 * bookkeeping (how to call the tool next, the working directory).
 */
export function withNotes(body: string, forModel: string[], forUser: string[], display: ToolDisplay = {}): { text: string; display: ToolDisplay } {
  const text = forModel.length ? `${body}\n\n[${forModel.join("; ")}]` : body;
  return { text, display: { ...display, body: body.length, ...(forUser.length ? { notes: forUser.join("; ") } : {}) } };
}

/** A result whose text goes on, after what the user is shown, with instructions for the model ("Read its output with action=read …"). */
export function withAdvice(shown: string, advice: string): { text: string; display: ToolDisplay } {
  return { text: `${shown} ${advice}`, display: { body: shown.length } };
}

/** The local workspace behind the context (tools need files, spill and processes, not just paths). */
export function localWorkspace(ctx: ToolContext): LocalWorkspace {
  if (!isLocalWorkspace(ctx.workspace)) {
    throw new Error("this tool needs a local workspace (createWorkspace from src/workspace/local.ts)");
  }
  return ctx.workspace;
}

/** A path as the model and the user like to see it: relative inside the project, absolute outside. */
export function displayPath(ws: Workspace, abs: string): string {
  const rel = relative(ws.root, abs);
  if (rel === "") return ".";
  if (rel.startsWith("..") || isAbsolute(rel)) return abs;
  return rel;
}
