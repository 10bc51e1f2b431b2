// What a call costs on each provider. Bedrock and Vertex AI charge Anthropic's list prices on their
// global endpoints and 10% more on regional ones (a Bedrock id with a geography's prefix or none,
// an `anthropic.` in-region id; a Vertex region other than `global`), for every model in KHAELOR's
// table (Sonnet 4.5, Haiku 4.5, Opus 4.5 and later). Foundry bills in its own units through Azure,
// and an application inference profile's ARN names no endpoint: there the figure is Anthropic's
// list price, said at start to be an estimate, never passed off as the provider's.
import { costUsd } from "../models.ts";
import type { Usage } from "../types.ts";
import type { ProviderKind } from "./types.ts";

export type Pricing = {
  costOf(model: string, usage: Usage): number | null;
  /** Set when the figure is Anthropic's list price standing in for a price KHAELOR does not know: why. */
  estimate: string | null;
};

export const REGIONAL_PREMIUM = 1.1;

/** Bedrock's price for the id a request was sent: global inference profiles at list price, the rest regional; null when unknown. */
export function bedrockFactor(wireId: string): number | null {
  if (wireId.startsWith("arn:")) return /:inference-profile\/global\./.test(wireId) ? 1 : /:inference-profile\/[a-z-]+\.anthropic\./.test(wireId) ? REGIONAL_PREMIUM : null;
  return wireId.startsWith("global.") ? 1 : REGIONAL_PREMIUM;
}

/** `sentAs`: the id the provider was last sent for a model (a response names the model its own way). */
export function pricingFor(kind: ProviderKind, o: { region?: string; sentAs: (m: string) => string }): Pricing {
  switch (kind) {
    case "anthropic":
      return { costOf: costUsd, estimate: null };
    case "vertex": {
      const factor = o.region === "global" ? 1 : REGIONAL_PREMIUM;
      return { costOf: scaled(() => factor), estimate: null };
    }
    case "bedrock":
      return {
        costOf: scaled((model) => bedrockFactor(o.sentAs(model)) ?? 1),
        estimate: null,
      };
    case "foundry":
      return { costOf: costUsd, estimate: "Microsoft Foundry bills in its own units through Azure: costs shown are estimates at Anthropic's list prices" };
  }
}

function scaled(factor: (model: string) => number): Pricing["costOf"] {
  return (model, usage) => {
    const usd = costUsd(model, usage);
    return usd === null ? null : usd * factor(model);
  };
}
