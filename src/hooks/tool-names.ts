// Our tools are lowercase (read, edit, bash); hook scripts written for Claude Code match and read
// its names (Read, Edit, Bash), each tool's own fact (src/tools), and absolute file paths. MCP
// tools keep their mcp__server__tool name.
import { isAbsolute, resolve } from "node:path";

export { claudeToolName } from "../tools/builtin.ts";

/** The call's input as Claude Code's hooks see it: the same field names, file_path absolute. */
export function claudeToolInput(input: unknown, cwd: string): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input ?? {};
  const out = { ...(input as Record<string, unknown>) };
  for (const k of ["file_path", "path"] as const) {
    const v = out[k];
    if (typeof v === "string" && v && !isAbsolute(v)) out[k] = resolve(cwd, v);
  }
  return out;
}
