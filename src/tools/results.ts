// Result constructors and the path forms every tool shares.
import { relative, isAbsolute } from "node:path";
import type { Workspace } from "../workspace/types.ts";
import { isLocalWorkspace, type LocalWorkspace } from "../workspace/types.ts";
import type { ToolContext, ToolDisplay, ToolResult } from "./types.ts";

export const ok = (text: string, display?: ToolDisplay): ToolResult => (display ? { content: text, display } : { content: text });
export const fail = (text: string, display?: ToolDisplay): ToolResult => (display ? { content: text, isError: true, display } : { content: text, isError: true });

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
