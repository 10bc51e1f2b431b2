// The command line's share of a session: which log, which model and mode, rules, policies and
// budgets. What only a mode knows (who to ask, the demo's endpoint) it adds itself.
import type { SessionOptions } from "../../agent/types.ts";
import type { RunOptions } from "./run-options.ts";

export function sessionOptions(o: RunOptions): SessionOptions {
  const resume = o.continue ? { latest: true as const } : o.resume ? { id: o.resume } : undefined;
  return {
    ...(o.cwd !== null ? { cwd: o.cwd } : {}),
    ...(resume ? { resume, fork: o.forkSession } : {}),
    ...(resume && o.resumeSessionAt !== null ? { resumeAt: o.resumeSessionAt } : {}),
    ...(o.model !== null ? { model: o.model } : {}),
    ...(o.permissionMode !== null ? { permissionMode: o.permissionMode } : {}),
    ...(o.sessionId !== null ? { sessionId: o.sessionId } : {}),
    ...(o.systemPrompt !== null ? { systemPrompt: o.systemPrompt } : {}),
    ...(o.appendSystemPrompt !== null ? { appendSystemPrompt: o.appendSystemPrompt } : {}),
    ...(o.tools !== null ? { tools: o.tools } : {}),
    ...(o.agents.length > 0 ? { agents: o.agents } : {}),
    ...(o.agent !== null ? { agent: o.agent } : {}),
    ...(o.thinkingBudget !== null ? { thinkingBudget: o.thinkingBudget } : {}),
    ...(o.effort !== null ? { effort: o.effort } : {}),
    ...(o.addDirs.length > 0 ? { addDirs: o.addDirs } : {}),
    ...(o.fallbackModel !== null ? { fallbackModel: o.fallbackModel } : {}),
    ...(o.jsonSchema !== null ? { jsonSchema: o.jsonSchema } : {}),
    ...(o.pluginDirs.length > 0 ? { pluginDirs: o.pluginDirs } : {}),
    allowedTools: o.allowedTools,
    disallowedTools: o.disallowedTools,
    verifyNudge: o.verifyNudge,
    mcp: { configs: o.mcpConfig, strict: o.strictMcpConfig, trustProject: o.trustProject },
    doomLoop: o.doomLoop,
    budgets: {
      ...(o.maxTurns !== null ? { maxTurns: o.maxTurns } : {}),
      ...(o.maxBudgetUsd !== null ? { maxBudgetUsd: o.maxBudgetUsd } : {}),
      ...(o.maxTimeS ? { wallTimeMs: o.maxTimeS * 1000 } : {}),
    },
  };
}
