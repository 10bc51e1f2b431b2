// Long MCP tool lists must not bloat every request's cached prefix. Past a budget, the MCP tools are
// sent with defer_loading and the API's tool search tool is offered: the model searches for the
// tools it needs, and only those are expanded (Anthropic's "tool search", in the SDK as
// tool_search_tool_regex_20251119). The built-in tools are always sent whole.
import type { ServerToolSpec, ToolSpec } from "../model/types.ts";
import { isMcpName } from "../permissions/index.ts";

/** Bytes of MCP tool definitions (as JSON) sent whole; past this they are deferred. */
export const TOOL_SEARCH_BUDGET_BYTES = 20_000;

/** Offered beside the web tools (the request's server tools) when MCP tools are deferred. */
export const TOOL_SEARCH_TOOL: ServerToolSpec = { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" };

export function definitionBytes(specs: readonly ToolSpec[]): number {
  return Buffer.byteLength(JSON.stringify(specs));
}

export type ToolOffer = { tools: ToolSpec[]; /** MCP tools are deferred: offer TOOL_SEARCH_TOOL. */ search: boolean };

/** The tools to offer: as given, or with the MCP ones deferred (the built-in tools stay whole). */
export function withToolSearch(specs: ToolSpec[], budget = TOOL_SEARCH_BUDGET_BYTES): ToolOffer {
  const mcp = specs.filter((s) => isMcpName(s.name));
  if (mcp.length === 0 || definitionBytes(mcp) <= budget) return { tools: specs, search: false };
  return { tools: [...specs.filter((s) => !isMcpName(s.name)), ...mcp.map((s) => ({ ...s, defer_loading: true }))], search: true };
}

/** Memoised on the runtime's specs array, so an unchanged tool list gives the same request bytes. */
export function toolSearchOffer(specs: () => ToolSpec[], budget?: number): () => ToolOffer {
  let seen: ToolSpec[] | null = null;
  let offered: ToolOffer = { tools: [], search: false };
  return () => {
    const now = specs();
    if (now !== seen) {
      seen = now;
      offered = withToolSearch(now, budget);
    }
    return offered;
  };
}
