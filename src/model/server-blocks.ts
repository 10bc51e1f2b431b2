// Reading the blocks of the API's own tools (web search and fetch) for people: what was searched,
// which pages came back, which page was fetched and how big it was. The blocks themselves are
// never changed; toWire only unwraps a block of a type this version does not know.
import type { AssistantBlock, ServerBlock, ServerToolUseBlock } from "./types.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

export const isServerBlock = (b: AssistantBlock): b is ServerBlock =>
  b.type === "server_tool_use" || b.type === "web_search_tool_result" || b.type === "web_fetch_tool_result" || b.type === "unknown_block";

/** The block as the API sent it (and wants it back). */
export function toWire(b: AssistantBlock): Obj {
  return b.type === "unknown_block" ? b.block : (b as Obj);
}

/** The id of the server tool call a result block answers, if it names one. */
export function answeredCall(b: AssistantBlock): string | null {
  if (b.type === "web_search_tool_result" || b.type === "web_fetch_tool_result") return b.tool_use_id;
  if (b.type === "unknown_block" && typeof b.block.tool_use_id === "string") return b.block.tool_use_id;
  return null;
}

/** One line for a call: `web_search "bun pty"`, `web_fetch https://…`. */
export function describeServerCall(b: ServerToolUseBlock): string {
  const input = isObj(b.input) ? b.input : {};
  if (typeof input.query === "string") return `${b.name} "${input.query}"`;
  if (typeof input.url === "string") return `${b.name} ${input.url}`;
  const json = JSON.stringify(b.input ?? {});
  return `${b.name} ${json.length > 80 ? `${json.slice(0, 79)}…` : json}`;
}

export type SearchHit = { title: string; url: string };

/** Results of a web search (empty for an error), in order. */
export function searchHits(b: AssistantBlock): SearchHit[] {
  if (b.type !== "web_search_tool_result" || !Array.isArray(b.content)) return [];
  return b.content.filter(isObj).map((r) => ({ title: typeof r.title === "string" ? r.title : "", url: typeof r.url === "string" ? r.url : "" }));
}

/** The error code of a failed server tool call, or null. */
export function serverError(b: AssistantBlock): string | null {
  const c = b.type === "unknown_block" ? b.block.content : "content" in b ? b.content : undefined;
  return isObj(c) && typeof c.error_code === "string" ? c.error_code : null;
}

/** What a fetch brought: its URL and the characters of its text. */
export function fetchedPage(b: AssistantBlock): { url: string; chars: number; title: string | null } | null {
  if (b.type !== "web_fetch_tool_result" || !isObj(b.content) || typeof b.content.url !== "string") return null;
  const doc = isObj(b.content.content) ? b.content.content : {};
  const source = isObj(doc.source) ? doc.source : {};
  const chars = typeof source.data === "string" ? source.data.length : JSON.stringify(doc).length;
  return { url: b.content.url, chars, title: typeof doc.title === "string" ? doc.title : null };
}

/** A result as plain text lines: hits, the fetched page, an error, or a block this version does not know. */
export function describeServerResult(b: AssistantBlock): string {
  const error = serverError(b);
  if (error) return `error: ${error}`;
  if (b.type === "web_search_tool_result") return searchHits(b).map((h) => `${h.title} — ${h.url}`).join("\n") || "no results";
  const page = fetchedPage(b);
  if (page) return `${page.url} (${page.chars.toLocaleString("en-US")} characters${page.title ? `, "${page.title}"` : ""})`;
  const raw = toWire(b);
  return `${String(raw.type)} (${JSON.stringify(raw).length.toLocaleString("en-US")} bytes, not shown by this version)`;
}
