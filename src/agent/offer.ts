// What each request offers the model and what the kernel runs a turn with. Asked per request: a
// rule granted or removed, or a mode switched, applies to the next one; many MCP tools go behind
// the API's tool search instead of into every request whole.
import type { KernelDeps } from "../kernel/types.ts";
import { builtinTools } from "../tools/builtin.ts";
import { EXIT_PLAN_TOOL } from "../tools/exit-plan-mode.ts";
import { TOOL_SEARCH_TOOL, toolSearchOffer } from "../mcp/tool-search.ts";
import { costUsd, maxTokensFor } from "../model/models.ts";
import type { OpenedProvider } from "../model/providers/open.ts";
import type { ServerToolSpec, ToolSpec } from "../model/types.ts";
import { webToolSpecs, type WebToolSettings } from "../model/web-tools.ts";
import type { EffortLevel } from "../model/types.ts";
import type { PermissionEngine } from "../permissions/index.ts";
import type { SessionOptions } from "./types.ts";

/** The API's web tools by the names --tools uses for them (Claude Code's WebSearch, WebFetch). */
const SERVER_TOOL_NAMES: Record<string, string> = { websearch: "web_search", webfetch: "web_fetch" };

export /** The built-in tools a host asked for (Claude Code's names work: Bash, Read); names we lack are said. */
function offeredTools(names: string[] | undefined, notices: string[]) {
  const all = builtinTools();
  if (names === undefined) return all;
  const wanted = new Set(names.map((n) => n.toLowerCase()));
  const unknown = names.filter((n) => !all.some((t) => t.name === n.toLowerCase()) && !SERVER_TOOL_NAMES[n.toLowerCase()]);
  if (unknown.length > 0) notices.push(`--tools: KHAELOR has no tool ${unknown.join(", ")}; offering ${all.filter((t) => wanted.has(t.name)).map((t) => t.name).join(", ") || "no tools"}`);
  return all.filter((t) => wanted.has(t.name));
}

/**
 * exit_plan_mode is offered in plan mode only (a call to it outside is answered with why). The same
 * array comes back while nothing changed, so what is built from it is not built again per request.
 */
function planModeSpecs(all: () => ToolSpec[], planning: () => boolean): () => ToolSpec[] {
  let seen: ToolSpec[] | null = null;
  let seenPlanning = false;
  let out: ToolSpec[] = [];
  return () => {
    const now = all();
    const p = planning();
    if (now !== seen || p !== seenPlanning) {
      seen = now;
      seenPlanning = p;
      out = p ? now : now.filter((t) => t.name !== EXIT_PLAN_TOOL);
    }
    return out;
  };
}

function offeredServerTool(names: string[] | undefined, apiName: string): boolean {
  return names === undefined || names.some((n) => SERVER_TOOL_NAMES[n.toLowerCase()] === apiName);
}

/** The API's web tools a session offers now: its rules, mode and settings, its --tools, what its provider runs. */
export function webTools(o: { engine: Pick<PermissionEngine, "rules" | "mode">; settings: WebToolSettings; opts: Pick<SessionOptions, "tools">; provider?: Pick<OpenedProvider, "missingServerTools"> }): () => ServerToolSpec[] {
  // A server tool the provider does not run is left out (the session said so at start).
  const runs = (name: string) => !o.provider?.missingServerTools.has(name);
  return () => webToolSpecs(o.engine.rules(), o.engine.mode, o.settings).filter((t) => offeredServerTool(o.opts.tools, t.name) && runs(t.name));
}

export type TurnOffer = {
  /** The kernel's parts for the next turn. */
  kernel(): KernelDeps;
  /** The tool names the next request offers (MCP ones behind tool search included). */
  offeredTools(): string[];
  setThinkingBudget(tokens: number | null): void;
  /** The effort level from the next request on (undefined: none sent, the API's default). */
  effort(): EffortLevel | undefined;
  setEffort(level: EffortLevel | undefined): void;
  queueSteering(text: string): void;
  takeQueuedSteering(): string[];
};

/** The parts of KernelDeps that stay from turn to turn; the rest is worked out here. */
export type FixedKernelParts = Required<Pick<KernelDeps, "model" | "modelName" | "system" | "tools" | "workspace" | "context" | "gate" | "emit" | "policies" | "takeNotices" | "takeAgentNotices" | "costSoFar">>;

export function turnOffer(
  fixed: FixedKernelParts,
  o: { engine: Pick<PermissionEngine, "rules" | "mode">; settings: WebToolSettings; opts: Pick<SessionOptions, "tools" | "budgets" | "thinkingBudget" | "effort" | "fallbackModel">; provider?: Pick<OpenedProvider, "missingServerTools" | "costOf"> },
): TurnOffer {
  const mcpOffer = toolSearchOffer(planModeSpecs(() => fixed.tools.specs(), () => o.engine.mode === "plan"));
  const web = webTools(o);
  const serverTools = () => [...web(), ...(mcpOffer().search ? [TOOL_SEARCH_TOOL] : [])];
  const steering: string[] = [];
  let thinkingBudget = o.opts.thinkingBudget;
  let effort = o.opts.effort;
  return {
    kernel: () => ({
      ...fixed,
      // the runtime, its specs as offered (MCP tools deferred behind tool search past the budget)
      tools: { ...fixed.tools, specs: () => mcpOffer().tools },
      serverTools,
      budgets: o.opts.budgets ?? {},
      takeSteering: () => steering.splice(0),
      costOf: o.provider?.costOf ?? costUsd,
      maxTokens: maxTokensFor(fixed.modelName()),
      thinkingBudget,
      ...(effort ? { effort } : {}),
      ...(o.opts.fallbackModel ? { fallbackModel: o.opts.fallbackModel } : {}),
    }),
    offeredTools: () => [...mcpOffer().tools.map((t) => t.name), ...serverTools().map((t) => t.name)],
    setThinkingBudget: (tokens) => void (thinkingBudget = tokens ?? undefined),
    effort: () => effort,
    setEffort: (level) => void (effort = level),
    queueSteering: (text) => void steering.push(text),
    takeQueuedSteering: () => steering.splice(0),
  };
}
