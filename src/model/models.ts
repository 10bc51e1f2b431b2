// What we know about each model: window, output cap, thinking style and price. A model missing
// from this table still works; it just has no price (cost shows as unknown, never a guess) and a
// conservative max_tokens.
import type { Usage } from "./types.ts";

/** USD per million tokens. `cacheWrite` is the 5-minute write, the only TTL we request. */
export type Price = { input: number; output: number; cacheWrite: number; cacheRead: number };

export type ModelInfo = {
  name: string;
  contextWindow: number;
  maxOutputTokens: number;
  /**
   * "adaptive": the model decides how long to think (`thinking: {type: "adaptive"}`); a manual
   * budget is rejected by the API. "extended": `thinking: {type: "enabled", budget_tokens}`.
   */
  thinking: "adaptive" | "extended";
  /** null: no published price we trust; cost is reported as unknown. */
  price: Price | null;
  /** Some models bill a whole request at higher rates once its prompt passes a threshold. */
  longPrompt?: { thresholdTokens: number; price: Price };
  /** Announced end of life (ISO date), for a notice; the SDK's deprecation list. */
  retiresOn?: string;
};

/** The newest Sonnet in the SDK's `Model` list. */
export const DEFAULT_MODEL = "claude-sonnet-5-5";

const p = (input: number, output: number, cacheWrite: number, cacheRead: number): Price => ({ input, output, cacheWrite, cacheRead });

// Prices: platform.claude.com pricing and model pages (checked for the SDK 1.14 model list).
// Windows of models whose pages we could not read are the conservative 200K/64K.
const TABLE: ModelInfo[] = [
  { name: "claude-fable-5-2", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: null },
  { name: "claude-mythos-5-2", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: null },
  { name: "claude-fable-5-1", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: p(10, 50, 12.5, 0.25) },
  { name: "claude-mythos-5-1", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: p(10, 50, 12.5, 0.25) },
  { name: "claude-fable-5", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: p(10, 50, 12.5, 1) },
  { name: "claude-mythos-5", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: p(10, 50, 12.5, 1) },
  { name: "claude-opus-5-5", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: p(4, 20, 5, 0.2) },
  { name: "claude-opus-5", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: p(5, 25, 6.25, 0.5) },
  { name: "claude-sonnet-5-5", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: p(2, 10, 2.5, 0.1) },
  { name: "claude-sonnet-5", contextWindow: 1_000_000, maxOutputTokens: 128_000, thinking: "adaptive", price: p(2, 10, 2.5, 0.2) },
  {
    name: "claude-haiku-5-5",
    contextWindow: 1_000_000,
    maxOutputTokens: 128_000,
    thinking: "adaptive",
    price: p(0.1, 0.5, 0.125, 0.01),
    longPrompt: { thresholdTokens: 100_000, price: p(0.5, 2.5, 0.625, 0.05) },
  },
  { name: "claude-opus-4-8", contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "adaptive", price: p(5, 25, 6.25, 0.5) },
  { name: "claude-opus-4-7", contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "adaptive", price: p(5, 25, 6.25, 0.5) },
  { name: "claude-opus-4-6", contextWindow: 200_000, maxOutputTokens: 128_000, thinking: "adaptive", price: p(5, 25, 6.25, 0.5) },
  { name: "claude-sonnet-4-6", contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "extended", price: p(3, 15, 3.75, 0.3) },
  { name: "claude-opus-4-5", contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "extended", price: p(5, 25, 6.25, 0.5), retiresOn: "2027-01-22" },
  { name: "claude-sonnet-4-5", contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "extended", price: p(3, 15, 3.75, 0.3), retiresOn: "2026-11-30" },
  { name: "claude-haiku-4-5", contextWindow: 200_000, maxOutputTokens: 64_000, thinking: "extended", price: p(1, 5, 1.25, 0.1) },
];

/** Dated snapshot ids resolve to their family entry. */
const ALIASES: Record<string, string> = {
  "claude-opus-4-5-20251101": "claude-opus-4-5",
  "claude-sonnet-4-5-20250929": "claude-sonnet-4-5",
  "claude-haiku-4-5-20251001": "claude-haiku-4-5",
};

/** Claude Code's family names: `--model opus` is KHAELOR's newest of the family. */
const FAMILY_ALIASES: Record<string, string> = { opus: "claude-opus-5-5", sonnet: "claude-sonnet-5-5", haiku: "claude-haiku-5-5" };

const BY_NAME = new Map(TABLE.map((m) => [m.name, m]));

export const KNOWN_MODELS: readonly string[] = TABLE.map((m) => m.name);
/** Named in error messages when a model id is wrong. */
export const SUGGESTED_MODELS: readonly string[] = ["claude-sonnet-5-5", "claude-opus-5-5", "claude-haiku-5-5"];

export function modelInfo(name: string): ModelInfo | null {
  const own = (n: string) => BY_NAME.get(ALIASES[n] ?? FAMILY_ALIASES[n] ?? n);
  return own(name) ?? own(tableName(name)) ?? null;
}

/** The family names (opus, sonnet, haiku) and KHAELOR's model for each. */
export const FAMILIES: Readonly<Record<string, string>> = FAMILY_ALIASES;

/**
 * A cloud's id for a model as the table names it: Bedrock's `global.anthropic.claude-sonnet-5-5`,
 * `anthropic.claude-haiku-4-5-20251001-v1:0` or an inference-profile ARN that names one, Vertex's
 * `claude-sonnet-4-5@20250929`. An application inference profile's ARN names no model: unknown.
 */
export function tableName(id: string): string {
  const arn = /^arn:aws[\w-]*:bedrock:[^:]*:[^:]*:(?:inference-profile|foundation-model)\/(.+)$/.exec(id.trim());
  return (arn ? arn[1]! : id.trim())
    .replace(/^(?:global|us|us-gov|eu|apac|jp|au|ca)\./, "")
    .replace(/^anthropic\./, "")
    .replace(/-v\d+(?::\d+)?$/, "")
    .replace(/@(?:\d{8}|latest)$/, "")
    .replace(/-\d{8}$/, "");
}

/** max_tokens for a request. Capped at 32K: a larger cap buys nothing for an agent turn and counts against output rate limits. */
export function maxTokensFor(model: string): number {
  const info = modelInfo(model);
  // 8192 is the smallest output cap of any Claude model still served, so an unknown model accepts it.
  return info ? Math.min(info.maxOutputTokens, 32_000) : 8192;
}

/** A one-line notice for a model with an announced end of life, or null. */
export function deprecationNotice(model: string): string | null {
  const info = modelInfo(model);
  if (!info?.retiresOn) return null;
  return `${model} is deprecated and reaches end of life on ${info.retiresOn}; switch with --model (e.g. ${DEFAULT_MODEL}).`;
}

/** The API's price of one web search ($10 per 1,000), on top of the tokens its results add. */
export const WEB_SEARCH_USD_PER_CALL = 0.01;

/** Cost of one call in USD, or null when the model has no known price. */
export function costUsd(model: string, usage: Usage): number | null {
  const info = modelInfo(model);
  if (!info?.price) return null;
  const prompt = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
  const price = info.longPrompt && prompt > info.longPrompt.thresholdTokens ? info.longPrompt.price : info.price;
  const tokens =
    (usage.input_tokens * price.input +
      usage.output_tokens * price.output +
      usage.cache_creation_input_tokens * price.cacheWrite +
      usage.cache_read_input_tokens * price.cacheRead) /
    1_000_000;
  // Fetched pages cost only their tokens; each search is billed on top.
  return tokens + (usage.server_tool_use?.web_search_requests ?? 0) * WEB_SEARCH_USD_PER_CALL;
}
