// The API's own tools each provider does not run. Anthropic's documentation has web fetch on
// neither Bedrock nor Vertex AI and web search not on Bedrock; Foundry serves Claude from
// Anthropic's own infrastructure, with both. Such a tool is left out of the request, with a notice,
// rather than sent to fail every request.
import { PROVIDER_NAMES, type ProviderKind } from "./types.ts";

const MISSING: Record<ProviderKind, readonly string[]> = {
  anthropic: [],
  bedrock: ["web_search", "web_fetch"],
  vertex: ["web_fetch"],
  foundry: [],
};

export function missingServerTools(kind: ProviderKind): ReadonlySet<string> {
  return new Set(MISSING[kind]);
}

const SAID: Record<string, string> = { web_search: "web search", web_fetch: "web fetch" };

/** The notice, or null when the provider has every tool. */
export function missingToolsNotice(kind: ProviderKind): string | null {
  const missing = MISSING[kind];
  if (missing.length === 0) return null;
  return `${PROVIDER_NAMES[kind]} does not run the API's ${missing.map((t) => SAID[t] ?? t).join(" and ")}: left out of every request`;
}
