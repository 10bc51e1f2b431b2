// A call's facts as its tool declares them (Claude Code's name, ACP's kind, what it reaches, whether
// it only reads): the one place that turns a tool and its input into them, for the runtime (which
// carries them on every prepared call) and for readers of a log, who have only names and inputs.
import { homedir } from "node:os";
import { isAbsolute, normalize, resolve } from "node:path";
import type { Tool, ToolFacts } from "./types.ts";

/** A path as the tools take it: `~` is the home directory, relative is relative to `cwd` (the workspace's rule). */
export function resolveIn(cwd: string, path: string): string {
  let p = path.trim();
  if (p === "~" || p.startsWith("~/")) p = homedir() + p.slice(1);
  return normalize(isAbsolute(p) ? p : resolve(cwd, p));
}

/** Claude Code's name for a tool: the tool's own word, an MCP tool's mcp__ name, else capitalised. */
export function claudeNameOf(tool: Tool | undefined, name: string): string {
  if (tool?.claudeName) return tool.claudeName;
  if (tool || name.startsWith("mcp__")) return name;
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/**
 * The facts of one call to `tool` (undefined: a tool this session does not have) with its input as
 * the model sent it; an input the tool would reject reaches nothing.
 */
export function callFacts(tool: Tool | undefined, name: string, input: unknown, cwd: string): ToolFacts {
  const facts: ToolFacts = { name, claudeName: claudeNameOf(tool, name), kind: tool?.kind ?? "other", access: tool?.readOnly ? "read" : "write", paths: [] };
  if (!tool?.reach) return facts;
  const parsed = tool.inputSchema.safeParse(input ?? {});
  return parsed.success ? { ...facts, ...tool.reach(parsed.data, cwd) } : facts;
}
