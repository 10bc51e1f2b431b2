// A server's tool list, taken tool by tool. The SDK's listTools validates the whole answer at once,
// so one malformed tool cost every tool of its server; here the answer is read with a lenient
// schema and each tool is checked alone (its depth first, before anything recurses into it, then
// the MCP schema, then its size), and what fails is left out with the reason.
//
// Not done here, as the SDK's listTools would: checking a structured result against the tool's
// outputSchema. The model is shown the result's content either way.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ToolSchema, type Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { keepWithin, MAX_SERVER_DEFINITION_BYTES, serverCapNotice, toolOverSize, toolTooBig } from "./tool-limits.ts";

/** What is read of each page before the tools are looked at one by one. */
const LenientPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });
/** Pages and tools read at most: a server paging forever is cut off. */
const MAX_PAGES = 100;
const MAX_TOOLS = 10_000;

export type ToolList = { tools: McpTool[]; /** One line per tool left out, and the server's cap. */ notices: string[] };

export async function listToolsLeniently(client: Client, timeoutMs: number): Promise<ToolList> {
  if (!client.getServerCapabilities()?.tools) return { tools: [], notices: [] };
  const raw: unknown[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES && raw.length < MAX_TOOLS; page++) {
    const answer = await client.request({ method: "tools/list", params: cursor ? { cursor } : {} }, LenientPage, { timeout: timeoutMs });
    raw.push(...answer.tools);
    cursor = answer.nextCursor;
    if (!cursor) break;
  }
  return checkTools(raw.slice(0, MAX_TOOLS));
}

/** Each tool alone: the ones that pass, in order, and a line for each that does not. */
export function checkTools(raw: readonly unknown[]): ToolList {
  const tools: McpTool[] = [];
  const notices: string[] = [];
  const seen = new Set<string>();
  for (const [i, t] of raw.entries()) {
    const checked = checkTool(t, seen);
    if ("tool" in checked) {
      seen.add(checked.tool.name);
      tools.push(checked.tool);
      continue;
    }
    const name = typeof t === "object" && t !== null ? (t as { name?: unknown }).name : undefined;
    notices.push(`${typeof name === "string" ? `the tool ${shown(name)}` : `the tool at position ${i + 1}`} ${checked.why}`);
  }
  const capped = keepWithin(tools, MAX_SERVER_DEFINITION_BYTES);
  if (capped.dropped > 0) notices.push(serverCapNotice(capped.dropped, tools.length));
  return { tools: capped.kept, notices };
}

function checkTool(t: unknown, seen: ReadonlySet<string>): { tool: McpTool } | { why: string } {
  const deep = toolTooBig(t);
  if (deep) return { why: `is left out: ${deep}` };
  const parsed = ToolSchema.safeParse(t);
  if (!parsed.success) return { why: `is left out: ${zodWords(parsed.error)}` };
  const big = toolOverSize(parsed.data);
  if (big) return { why: `is left out: ${big}` };
  if (seen.has(parsed.data.name)) return { why: "is listed more than once; it is offered once" };
  return { tool: parsed.data };
}

/** A name as a notice may print it: plain ones as they are, others quoted and cut (no escapes reach a terminal raw). */
function shown(name: string): string {
  return /^[\w.\- ]{1,64}$/.test(name) ? name : JSON.stringify(name.length > 64 ? `${name.slice(0, 64)}…` : name);
}

function zodWords(error: z.ZodError): string {
  const first = error.issues[0];
  if (!first) return "it is not a valid MCP tool";
  const path = first.path.length ? `${first.path.join(".")}: ` : "";
  return `${path}${first.message}${error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : ""}`;
}
