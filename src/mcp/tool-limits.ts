// What one MCP server's tools may cost a session. Every request carries the definitions of every
// tool offered (deferred ones too, behind tool search: tool-search.ts decides how they are sent,
// this decides what is kept at all), so a server listing 5,000 tools made each request 11.8 MB,
// and one 100,000-deep schema overflowed the stack wherever it was turned into JSON. A tool past a
// limit is left out with a notice naming the server and the tool; the rest goes on.
//
// The limits, in the bytes of the definition as sent (name, description, input schema as JSON):
// - one tool: nested at most MAX_DEFINITION_DEPTH levels, at most MAX_TOOL_DEFINITION_BYTES;
// - one server: MAX_SERVER_DEFINITION_BYTES (about 100 tools of the usual size; large real
//   servers such as GitHub's list well under it), tools kept in the server's order;
// - all servers: MAX_TOTAL_DEFINITION_BYTES, servers in the order of the configuration.
import type { Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";

export const MAX_DEFINITION_DEPTH = 64;
export const MAX_TOOL_DEFINITION_BYTES = 64 * 1024;
export const MAX_SERVER_DEFINITION_BYTES = 256 * 1024;
export const MAX_TOTAL_DEFINITION_BYTES = 1024 * 1024;
/** Claude Code cuts server tool descriptions here too: some servers ship pages of prose. */
export const MAX_DESCRIPTION = 2048;

const kb = (bytes: number) => `${Math.ceil(bytes / 1024)} KB`;

/** Whether a parsed JSON value nests deeper than `limit` objects and arrays; without recursion, as the value may be 100,000 deep. */
export function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== "object" || v === null) continue;
    if (depth > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (typeof child === "object" && child !== null) stack.push([child, depth + 1]);
  }
  return false;
}

/** The description the model is shown. */
export function toolDescription(t: McpTool): string {
  return (t.description ?? t.title ?? t.annotations?.title ?? "").slice(0, MAX_DESCRIPTION);
}

const sizes = new WeakMap<McpTool, number>();
/** The bytes a tool adds to a request (call only on a tool that passed the depth check). */
export function definitionSize(t: McpTool): number {
  let n = sizes.get(t);
  if (n === undefined) {
    n = Buffer.byteLength(JSON.stringify({ name: t.name, description: toolDescription(t), input_schema: t.inputSchema }));
    sizes.set(t, n);
  }
  return n;
}

/** Why one tool is left out, or null: checked before anything turns it into JSON. */
export function toolTooBig(t: unknown): string | null {
  if (nestedDeeperThan(t, MAX_DEFINITION_DEPTH)) return `its definition is nested more than ${MAX_DEFINITION_DEPTH} levels deep`;
  return null;
}

/** After the schema check: a tool too big alone. */
export function toolOverSize(t: McpTool): string | null {
  const size = definitionSize(t);
  return size > MAX_TOOL_DEFINITION_BYTES ? `its definition is ${kb(size)}, over the ${kb(MAX_TOOL_DEFINITION_BYTES)} one tool may have` : null;
}

/** Keeps tools in order while they fit `budget` bytes; says how many were left out. */
export function keepWithin(tools: readonly McpTool[], budget: number): { kept: McpTool[]; dropped: number } {
  let used = 0;
  let i = 0;
  for (; i < tools.length; i++) {
    const size = definitionSize(tools[i]!);
    if (used + size > budget) break;
    used += size;
  }
  return { kept: tools.slice(0, i), dropped: tools.length - i };
}

export function serverCapNotice(dropped: number, total: number): string {
  return `${dropped.toLocaleString("en-US")} of its ${total.toLocaleString("en-US")} tools are left out: their definitions pass the ${kb(MAX_SERVER_DEFINITION_BYTES)} one server may add to each request`;
}

/**
 * The tools each server may offer once all servers' together are capped: servers in the order
 * given, each keeping what fits in what the ones before it left. Notices by server name.
 */
export function capTotal(servers: ReadonlyArray<{ name: string; tools: readonly McpTool[] }>, budget = MAX_TOTAL_DEFINITION_BYTES): { kept: Map<string, McpTool[]>; notices: Map<string, string> } {
  const kept = new Map<string, McpTool[]>();
  const notices = new Map<string, string>();
  let left = budget;
  for (const s of servers) {
    const fit = keepWithin(s.tools, left);
    kept.set(s.name, fit.kept);
    for (const t of fit.kept) left -= definitionSize(t);
    if (fit.dropped === 0) continue;
    const which = fit.dropped === s.tools.length ? `its ${s.tools.length.toLocaleString("en-US")} tools are` : `${fit.dropped.toLocaleString("en-US")} of its ${s.tools.length.toLocaleString("en-US")} tools are`;
    notices.set(s.name, `${which} left out: the MCP servers' definitions together pass the ${kb(budget)} they may add to each request`);
  }
  return { kept, notices };
}
