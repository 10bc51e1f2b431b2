// Long MCP tool lists must not bloat every request's cached prefix. Past a budget, the MCP tools are
// sent with defer_loading and the API's tool search tool is offered: the model searches for the
// tools it needs, and only those are expanded (Anthropic's "tool search", in the SDK as
// tool_search_tool_regex_20251119). The built-in tools are always sent whole.
import type { CustomToolSpec, ToolSearchSpec, ToolSpec } from "../model/types.ts";
import { isMcpName } from "./tool-names.ts";

/** Bytes of MCP tool definitions (as JSON) sent whole; past this they are deferred. */
export const TOOL_SEARCH_BUDGET_BYTES = 20_000;

export const TOOL_SEARCH_TOOL: ToolSearchSpec = { type: "tool_search_tool_regex_20251119", name: "tool_search_tool_regex" };

export function definitionBytes(specs: readonly CustomToolSpec[]): number {
  return Buffer.byteLength(JSON.stringify(specs));
}

/** The tools to offer: as given, or with the MCP ones deferred behind the tool search tool. */
export function withToolSearch(specs: CustomToolSpec[], budget = TOOL_SEARCH_BUDGET_BYTES): ToolSpec[] {
  const mcp = specs.filter((s) => isMcpName(s.name));
  if (mcp.length === 0 || definitionBytes(mcp) <= budget) return specs;
  return [...specs.filter((s) => !isMcpName(s.name)), TOOL_SEARCH_TOOL, ...mcp.map((s) => ({ ...s, defer_loading: true }))];
}

/** Memoised on the runtime's specs array, so an unchanged tool list gives the same request bytes. */
export function toolSearchOffer(specs: () => CustomToolSpec[], budget?: number): () => ToolSpec[] {
  let seen: CustomToolSpec[] | null = null;
  let offered: ToolSpec[] = [];
  return () => {
    const now = specs();
    if (now !== seen) {
      seen = now;
      offered = withToolSearch(now, budget);
    }
    return offered;
  };
}
