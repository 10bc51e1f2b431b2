// The API's own web search and web fetch, offered when the permission rules allow them. The API
// runs them, so no call can be asked about one by one: a rule decides for all calls at once.
// - `WebSearch` / `WebFetch` deny rules (and ask rules, outside bypassPermissions: nobody could be
//   asked) leave the tool out of the request; `"webSearch": false` / `"webFetch": false` in the
//   settings do too.
// - `WebFetch(domain:example.com)` deny rules become blocked_domains of both tools (a blocked site
//   is not read through search results either); allow rules of that form limit fetches to those
//   domains (allowed_domains), unless a bare `WebFetch` allow rule allows every domain.
// - Every mode offers them, plan included: they only read.
import type { ServerToolSpec } from "./types.ts";

/** The newest versions in the SDK's types (@anthropic-ai/sdk 1.14: WebSearchTool20260318, WebFetchTool20260318). */
export const WEB_SEARCH_TOOL = { type: "web_search_20260318", name: "web_search" } as const;
export const WEB_FETCH_TOOL = { type: "web_fetch_20260318", name: "web_fetch" } as const;
/** A fetched page is cut to about this many tokens: one page must not take the context window. */
export const WEB_FETCH_MAX_CONTENT_TOKENS = 25_000;

export type WebToolRule = { rule: string; behavior: "allow" | "ask" | "deny" };
export type WebToolSettings = { webSearch?: boolean; webFetch?: boolean };

type Parsed = { tool: "WebSearch" | "WebFetch"; behavior: WebToolRule["behavior"]; domain: string | null; other: boolean };

function parse(r: WebToolRule): Parsed | null {
  const m = /^\s*(websearch|webfetch)\s*(?:\((.*)\))?\s*$/is.exec(r.rule);
  if (!m) return null;
  const tool = m[1]!.toLowerCase() === "websearch" ? "WebSearch" : "WebFetch";
  const spec = m[2]?.trim();
  if (spec === undefined || spec === "" || spec === "*") return { tool, behavior: r.behavior, domain: null, other: false };
  const d = /^domain:\s*(?:\*\.)?([^\s/]+)$/i.exec(spec);
  if (d && tool === "WebFetch") return { tool, behavior: r.behavior, domain: d[1]!.toLowerCase(), other: false };
  return { tool, behavior: r.behavior, domain: null, other: true };
}

/** The server tools to offer under these rules and settings, in a stable order (the prompt cache keys on it). */
export function webToolSpecs(rules: readonly WebToolRule[], mode: string, settings: WebToolSettings = {}): ServerToolSpec[] {
  const parsed = rules.map(parse).filter((p): p is Parsed => p !== null);
  const bypass = mode === "bypassPermissions";
  // Asking is impossible: an ask rule for the whole tool keeps it out, except where nothing asks.
  // A deny or ask with a specifier we cannot map (not a domain) is taken for the whole tool.
  const shut = (tool: Parsed["tool"]) => parsed.some((p) => p.tool === tool && !p.domain && (p.behavior === "deny" || (p.behavior === "ask" && !bypass)));
  const sorted = (xs: string[]) => [...new Set(xs)].sort();
  const blocked = sorted(parsed.filter((p) => p.tool === "WebFetch" && p.domain && (p.behavior === "deny" || (p.behavior === "ask" && !bypass))).map((p) => p.domain!));
  const openFetch = parsed.some((p) => p.tool === "WebFetch" && p.behavior === "allow" && !p.domain && !p.other);
  const allowed = openFetch ? [] : sorted(parsed.filter((p) => p.tool === "WebFetch" && p.behavior === "allow" && p.domain).map((p) => p.domain!)).filter((d) => !blocked.includes(d));
  // The API takes one list or the other; an allow list already leaves every other domain out.
  const domains = (allowedHere: string[]) => (allowedHere.length > 0 ? { allowed_domains: allowedHere } : blocked.length > 0 ? { blocked_domains: blocked } : {});
  const out: ServerToolSpec[] = [];
  if (settings.webSearch !== false && !shut("WebSearch")) out.push({ ...WEB_SEARCH_TOOL, ...domains([]) });
  // Allow rules naming only domains that are also denied leave nothing to fetch.
  const nothingLeft = !openFetch && allowed.length === 0 && parsed.some((p) => p.tool === "WebFetch" && p.behavior === "allow" && p.domain);
  if (settings.webFetch !== false && !shut("WebFetch") && !nothingLeft) out.push({ ...WEB_FETCH_TOOL, ...domains(allowed), max_content_tokens: WEB_FETCH_MAX_CONTENT_TOKENS });
  return out;
}
