// The seven built-in tools, in the order the model sees them.
import { bashTool } from "./bash.ts";
import { editTool } from "./edit.ts";
import { EXIT_PLAN_TOOL } from "./exit-plan-mode.ts";
import { callFacts, claudeNameOf } from "./facts.ts";
import { globTool } from "./glob.ts";
import { grepTool } from "./grep.ts";
import { processTool } from "./process.ts";
import { readTool } from "./read.ts";
import type { Tool, ToolFacts } from "./types.ts";
import { writeTool } from "./write.ts";

export function builtinTools(): Tool[] {
  return [readTool, writeTool, editTool, grepTool, globTool, bashTool, processTool];
}

const BY_NAME = new Map(builtinTools().map((t) => [t.name, t]));

/**
 * A call's facts from its name and input alone (a session log, an assistant message): the built-in
 * tool's own, or for any other name (an MCP tool) its name and nothing it reaches.
 */
export function builtinFacts(name: string, input: unknown, cwd: string): ToolFacts {
  return callFacts(BY_NAME.get(name), name, input, cwd);
}

/**
 * For the system prompt: each dedicated tool the session has, with the shell commands it stands in
 * for ("read, not cat/head/tail"), when the session has a shell they would otherwise be run in.
 */
export function shellEquivalents(names: readonly string[]): string[] {
  const have = builtinTools().filter((t) => names.includes(t.name));
  if (!have.some((t) => t.kind === "execute")) return [];
  return have.flatMap((t) => (t.insteadOf ? [`${t.name}, not ${t.insteadOf}`] : []));
}

/** Claude Code's name for a tool the model called: Read for read, ExitPlanMode for exit_plan_mode, SendMessage for send_message, an MCP tool's as it is. */
export function claudeToolName(name: string): string {
  if (name === EXIT_PLAN_TOOL) return "ExitPlanMode";
  // The subagents' continuation tool (src/agent/subagents/send-message.ts): Claude Code's name.
  if (name === "send_message") return "SendMessage";
  return claudeNameOf(BY_NAME.get(name), name);
}
