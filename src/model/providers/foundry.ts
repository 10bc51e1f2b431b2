// Microsoft Foundry through @anthropic-ai/foundry-sdk: Claude Code's variables (CLAUDE_CODE_USE_FOUNDRY,
// ANTHROPIC_FOUNDRY_RESOURCE or ANTHROPIC_FOUNDRY_BASE_URL, ANTHROPIC_FOUNDRY_API_KEY,
// CLAUDE_CODE_SKIP_FOUNDRY_AUTH); the model is the deployment's name. Without a key, a Microsoft
// Entra token from the Azure CLI's login (`az login`): KHAELOR has no Azure SDK of its own.
import type { AnthropicFoundry } from "@anthropic-ai/foundry-sdk";
import { truthy } from "./bedrock.ts";
import { keyHelper, type KeyHelper } from "./key-helper.ts";
import { ProviderConfigError, type Connection, type Env, type ErrorHints } from "./types.ts";

export type FoundryPlan = { baseURL: string; resource: string | null; auth: "skip" | "key" | "azure-cli"; source: string };

/** The Entra scope Foundry's Claude endpoints take. */
const AZURE_CLI_TOKEN = "az account get-access-token --resource https://cognitiveservices.azure.com --query accessToken --output tsv";

export const FOUNDRY_HINTS: ErrorHints = {
  name: "Microsoft Foundry",
  credentials: "Set ANTHROPIC_FOUNDRY_API_KEY to the resource's key, or sign in with `az login`.",
  endpointVar: "ANTHROPIC_FOUNDRY_BASE_URL",
  models: "on Foundry the model is the deployment's name",
};

export function foundryPlan(env: Env, onPath: (program: string) => boolean): FoundryPlan {
  const base = env.ANTHROPIC_FOUNDRY_BASE_URL?.trim();
  const resource = env.ANTHROPIC_FOUNDRY_RESOURCE?.trim() || null;
  if (!base && !resource) throw new ProviderConfigError("Microsoft Foundry needs its endpoint: set ANTHROPIC_FOUNDRY_RESOURCE to the resource's name (or ANTHROPIC_FOUNDRY_BASE_URL)");
  if (base && resource) throw new ProviderConfigError("ANTHROPIC_FOUNDRY_RESOURCE and ANTHROPIC_FOUNDRY_BASE_URL are both set: keep one");
  const baseURL = base || `https://${resource}.services.ai.azure.com/anthropic/`;
  if (truthy(env.CLAUDE_CODE_SKIP_FOUNDRY_AUTH)) return { baseURL, resource, auth: "skip", source: "none sent (CLAUDE_CODE_SKIP_FOUNDRY_AUTH: the gateway signs)" };
  if (env.ANTHROPIC_FOUNDRY_API_KEY?.trim()) return { baseURL, resource, auth: "key", source: "ANTHROPIC_FOUNDRY_API_KEY" };
  if (onPath("az")) return { baseURL, resource, auth: "azure-cli", source: "the Azure CLI's login (az account get-access-token)" };
  throw new ProviderConfigError(`Microsoft Foundry needs credentials: ${FOUNDRY_HINTS.credentials.replace(/^S/, "s")}`);
}

export async function foundryConnection(plan: FoundryPlan, o: { env: Env; cwd: string; headers: Record<string, string>; wireModel: (m: string) => string; tokenTimeoutMs?: number }): Promise<Connection> {
  let cli: KeyHelper | null = null;
  if (plan.auth === "azure-cli") {
    cli = keyHelper(AZURE_CLI_TOKEN, { cwd: o.cwd, env: o.env, ttlMs: 10 * 60_000, label: "the Azure CLI (az account get-access-token)", ...(o.tokenTimeoutMs ? { timeoutMs: o.tokenTimeoutMs } : {}) });
    try {
      await cli.key();
    } catch (e) {
      throw new ProviderConfigError(`Microsoft Foundry: no Azure token (${e instanceof Error ? e.message : String(e)}); sign in with \`az login\`, or set ANTHROPIC_FOUNDRY_API_KEY`);
    }
  }
  let renewNext = false;
  const takeRenew = () => {
    const r = renewNext;
    renewNext = false;
    return r;
  };
  const { AnthropicFoundry } = await import("@anthropic-ai/foundry-sdk"); // only for Foundry
  const client = new AnthropicFoundry({
    baseURL: plan.baseURL,
    ...(cli ? { azureADTokenProvider: () => cli.key(takeRenew()) } : { apiKey: plan.auth === "key" ? o.env.ANTHROPIC_FOUNDRY_API_KEY!.trim() : "none" }),
    maxRetries: 0,
    // Behind a gateway that signs, no key header at all (the package insists on one to start).
    defaultHeaders: plan.auth === "skip" ? { ...o.headers, "x-api-key": null } : o.headers,
  });
  return {
    kind: "foundry",
    baseURL: plan.baseURL,
    renewable: cli !== null,
    wireModel: o.wireModel,
    hints: FOUNDRY_HINTS,
    sdk: async (renew) => {
      renewNext = renew;
      return client;
    },
  };
}
