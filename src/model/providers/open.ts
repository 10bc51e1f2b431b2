// Opens the provider in force: its connection (credentials resolved or checked now, so what is
// missing is said before anything is written), its prices, the server tools it lacks, and what
// the session should say at start.
import { createAnthropicClient, type RetryOptions } from "../anthropic-client.ts";
import { tableName } from "../models.ts";
import type { ModelClient, Usage } from "../types.ts";
import { anthropicConnection } from "./anthropic.ts";
import { bedrockConnection } from "./bedrock.ts";
import { customHeaders } from "./custom-headers.ts";
import { describeProvider, providerNotice, type ProviderDescription } from "./describe.ts";
import { foundryConnection } from "./foundry.ts";
import { keyHelper } from "./key-helper.ts";
import { wireModel } from "./model-ids.ts";
import { planProvider, type ApiOverride, type ProviderPlan } from "./plan.ts";
import { bedrockFactor, pricingFor } from "./pricing.ts";
import { missingServerTools, missingToolsNotice } from "./server-tools.ts";
import { ModelError } from "../types.ts";
import { ProviderConfigError, type Connection, type Env, type ProviderKind, type ProviderSettings } from "./types.ts";
import { vertexConnection } from "./vertex.ts";

export type OpenedProvider = {
  kind: ProviderKind;
  plan: ProviderPlan;
  client: ModelClient;
  costOf(model: string, usage: Usage): number | null;
  /** Server tools (by API name) to leave out of every request. */
  missingServerTools: ReadonlySet<string>;
  /** For the start, once the session's model is known: what is in force (a cloud, a key helper), what is left out, what is an estimate. */
  notices(model: string): string[];
  description: ProviderDescription;
};

export type OpenProviderOptions = {
  env: Env;
  settings: ProviderSettings;
  cwd: string;
  override?: ApiOverride;
  retry?: RetryOptions;
  idleTimeoutMs?: number;
};

/**
 * Throws ProviderConfigError for a setting to fix (one line). With Anthropic's API and no key at all
 * it returns a plan whose auth is "none": the caller says so in its own words.
 */
export async function openProvider(o: OpenProviderOptions): Promise<OpenedProvider> {
  const headers = customHeaders(o.env);
  const plan = planProvider(o.env, o.settings, o.override);
  // The id each model was last sent as: a response names its model its own way, and the price
  // follows the endpoint the request went to.
  const sent = new Map<string, string>();
  const toWire = (model: string) => {
    const id = wireModel(model, plan.kind, o.env);
    sent.set(tableName(id), id);
    return id;
  };
  const connection = await connect(plan, { ...o, headers, wireModel: toWire });
  const pricing = pricingFor(plan.kind, { ...(plan.kind === "vertex" ? { region: plan.region } : {}), sentAs: (m) => sent.get(tableName(m)) ?? wireModel(m, plan.kind, o.env) });
  const description = describeProvider(o.env, o.settings, o.override);
  const notices = (model: string) => {
    const out = [providerNotice(description, model, o.env), missingToolsNotice(plan.kind), pricing.estimate];
    if (plan.kind === "bedrock" && bedrockFactor(wireModel(model, "bedrock", o.env)) === null)
      out.push("an application inference profile's ARN names no endpoint type: costs shown are estimates at Anthropic's list prices");
    return out.filter((n): n is string => n !== null);
  };
  return {
    kind: plan.kind,
    plan,
    client: createAnthropicClient({ connection, ...(o.retry ? { retry: o.retry } : {}), ...(o.idleTimeoutMs ? { idleTimeoutMs: o.idleTimeoutMs } : {}) }),
    costOf: pricing.costOf,
    missingServerTools: missingServerTools(plan.kind),
    notices,
    description,
  };
}

async function connect(plan: ProviderPlan, o: OpenProviderOptions & { headers: Record<string, string>; wireModel: (m: string) => string }): Promise<Connection> {
  switch (plan.kind) {
    case "bedrock":
      return bedrockConnection(plan, o);
    case "vertex":
      return vertexConnection(plan, o);
    case "foundry":
      return foundryConnection(plan, o);
    case "anthropic": {
      const a = plan.auth;
      if (a.type !== "helper") return anthropicConnection({ ...o, baseURL: plan.baseURL, auth: a.type === "apiKey" ? { type: "apiKey", key: a.key } : a });
      const helper = keyHelper(a.command, { cwd: o.cwd, env: o.env });
      // Run now: a helper that fails is a setting to fix, said before the session opens.
      try {
        await helper.key();
      } catch (e) {
        throw new ProviderConfigError(e instanceof ModelError ? e.message : String(e));
      }
      return anthropicConnection({ ...o, baseURL: plan.baseURL, auth: { type: "helper", helper } });
    }
  }
}
