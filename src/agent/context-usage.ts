// /context: what the next request takes of the context window, by category, in tokens the API
// counted, never guessed. Each category is counted alone by the token counting endpoint (free, not
// billed) beside a one-character probe request, and the probe's own count is taken off; the total
// is the whole request counted as it would be sent. MCP tool schemas are their own lines, per server
// and deferred or not (claude-code#62750, #50061: hidden under "Messages" there). A provider
// without the endpoint, or a failed count, falls back to the last response's usage: the total the
// API reported, with no categories, and the report says which it is.
import type { Message, ModelClient, ServerToolSpec, SystemBlock, ToolSpec } from "../model/types.ts";
import { isMcpName } from "../permissions/index.ts";

export type ContextCategory = {
  /** "system" (KHAELOR's prompt), "instructions" (AGENTS.md, CLAUDE.md), "skills", "tools" (built-in), "api-tools" (web search, tool search), "mcp" (one server), "messages". */
  kind: "system" | "instructions" | "skills" | "tools" | "api-tools" | "mcp" | "messages";
  label: string;
  tokens: number;
  /** How many tools; for MCP, the server's tools go behind tool search (defer_loading). */
  count?: number;
  deferred?: boolean;
  files?: string[];
};

export type ContextUsage = {
  model: string;
  window: number;
  /** Compaction starts when the request passes window − reserve. */
  reserve: number;
  /** "count_tokens": every number counted now; "last_usage": the last response's usage, no categories; "none": neither. */
  source: "count_tokens" | "last_usage" | "none";
  /** Tokens of the next request as it stands (null with no count and no response yet). */
  total: number | null;
  categories: ContextCategory[];
  /** Why the token counting endpoint was not used. */
  fallbackReason?: string;
};

export type ContextUsageInput = {
  client: ModelClient;
  model: string;
  system: SystemBlock[];
  /** The instruction files' sections of the system prompt, as included, and the files. */
  instructions: { text: string; files: string[] };
  /** The skills' section of the system prompt ("" without skills). */
  skills: string;
  tools: ToolSpec[];
  serverTools: ServerToolSpec[];
  messages: Message[];
  window: number;
  reserve: number;
  /** Input, cache and output tokens of the last response (null before one). */
  lastUsage: number | null;
  signal?: AbortSignal;
};

const PROBE: Message[] = [{ role: "user", content: "." }];

export async function contextUsage(i: ContextUsageInput): Promise<ContextUsage> {
  const head = { model: i.model, window: i.window, reserve: i.reserve };
  const fallback = (why: string): ContextUsage => ({ ...head, source: i.lastUsage === null ? "none" : "last_usage", total: i.lastUsage, categories: [], fallbackReason: why });
  const countTokens = i.client.countTokens?.bind(i.client);
  if (!countTokens) return fallback("this provider has no token counting endpoint");
  const count = (p: { system?: SystemBlock[]; tools?: ToolSpec[]; serverTools?: ServerToolSpec[]; messages?: Message[] }) =>
    countTokens({ model: i.model, system: p.system ?? [], tools: p.tools ?? [], serverTools: p.serverTools ?? [], messages: p.messages ?? PROBE, signal: i.signal });
  const text = (t: string): SystemBlock[] => (t.trim() === "" ? [] : [{ type: "text", text: t }]);
  const builtins = i.tools.filter((t) => !isMcpName(t.name));
  const servers = new Map<string, ToolSpec[]>();
  for (const t of i.tools.filter((t) => isMcpName(t.name))) {
    const server = t.name.split("__")[1] ?? "?";
    servers.set(server, [...(servers.get(server) ?? []), t]);
  }
  let counted: number[];
  try {
    counted = await Promise.all([
      count({}),
      count({ system: i.system, tools: i.tools, serverTools: i.serverTools, messages: i.messages.length > 0 ? i.messages : PROBE }),
      count({ system: i.system }),
      i.instructions.text ? count({ system: text(i.instructions.text) }) : Promise.resolve(-1),
      i.skills ? count({ system: text(i.skills) }) : Promise.resolve(-1),
      builtins.length > 0 ? count({ tools: builtins }) : Promise.resolve(-1),
      i.serverTools.length > 0 ? count({ serverTools: i.serverTools }) : Promise.resolve(-1),
      i.messages.length > 0 ? count({ messages: i.messages }) : Promise.resolve(-1),
      ...[...servers.values()].map((tools) => count({ tools })),
    ]);
  } catch (e) {
    return fallback(`the token counting endpoint failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const [base, total, system, instructions, skills, tools, apiTools, messages, ...mcp] = counted as [number, number, number, number, number, number, number, number, ...number[]];
  const less = (n: number) => (n < 0 ? 0 : Math.max(0, n - base));
  const categories: ContextCategory[] = [
    { kind: "system", label: "System prompt", tokens: Math.max(0, less(system) - less(instructions) - less(skills)) },
    ...(builtins.length > 0 ? [{ kind: "tools" as const, label: "Built-in tools", tokens: less(tools), count: builtins.length }] : []),
    ...(i.serverTools.length > 0 ? [{ kind: "api-tools" as const, label: `API tools (${i.serverTools.map((t) => t.name).join(", ")})`, tokens: less(apiTools), count: i.serverTools.length }] : []),
    ...[...servers.entries()].map(([server, specs], n) => ({ kind: "mcp" as const, label: `MCP tools: ${server}`, tokens: less(mcp[n] ?? -1), count: specs.length, deferred: specs.every((s) => s.defer_loading === true) })),
    ...(i.skills ? [{ kind: "skills" as const, label: "Skills", tokens: less(skills) }] : []),
    ...(i.instructions.text ? [{ kind: "instructions" as const, label: "Instruction files", tokens: less(instructions), files: i.instructions.files }] : []),
    { kind: "messages", label: "Messages", tokens: less(messages) },
  ];
  return { ...head, source: "count_tokens", total, categories };
}
