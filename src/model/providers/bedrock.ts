// Amazon Bedrock through @anthropic-ai/bedrock-sdk: Claude Code's variables (CLAUDE_CODE_USE_BEDROCK,
// AWS_REGION, AWS_BEARER_TOKEN_BEDROCK, ANTHROPIC_BEDROCK_BASE_URL, CLAUDE_CODE_SKIP_BEDROCK_AUTH),
// and AWS credentials from the usual chain (the environment, AWS_PROFILE, the SSO cache, a role),
// resolved once at start so a missing or expired login is said before anything is sent.
import type { AnthropicBedrock } from "@anthropic-ai/bedrock-sdk";
import { ModelError } from "../types.ts";
import { ProviderConfigError, type Connection, type Env, type ErrorHints } from "./types.ts";

type ChainResolver = NonNullable<NonNullable<ConstructorParameters<typeof AnthropicBedrock>[0]>["providerChainResolver"]>;
type AwsCredentialIdentityProvider = Awaited<ReturnType<ChainResolver>>;

export type BedrockPlan = {
  region: string;
  baseURL: string;
  auth: "skip" | "bearer" | "aws";
  /** Where the credentials come from, in words (never a secret). */
  source: string;
};

export const BEDROCK_HINTS = (plan: BedrockPlan): ErrorHints => ({
  name: "Amazon Bedrock",
  credentials:
    plan.auth === "bearer"
      ? "Check AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key), or unset it to sign with AWS credentials."
      : "Check the AWS credentials (AWS_PROFILE, AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or `aws sso login`), and that the model is enabled in the Bedrock console for AWS_REGION.",
  endpointVar: "ANTHROPIC_BEDROCK_BASE_URL",
  models: "Bedrock ids look like global.anthropic.claude-sonnet-5-5 or an inference profile's ARN",
});

export function bedrockPlan(env: Env): BedrockPlan {
  const skip = truthy(env.CLAUDE_CODE_SKIP_BEDROCK_AUTH);
  const region = env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || "";
  const base = env.ANTHROPIC_BEDROCK_BASE_URL?.trim();
  if (!region && !(skip && base)) throw new ProviderConfigError("Amazon Bedrock needs a region: set AWS_REGION (for example AWS_REGION=us-east-1)");
  const baseURL = base || `https://bedrock-runtime.${region}.amazonaws.com`;
  if (skip) return { region, baseURL, auth: "skip", source: "none sent (CLAUDE_CODE_SKIP_BEDROCK_AUTH: the gateway signs)" };
  if (env.AWS_BEARER_TOKEN_BEDROCK?.trim()) return { region, baseURL, auth: "bearer", source: "AWS_BEARER_TOKEN_BEDROCK (a Bedrock API key)" };
  const source =
    env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY
      ? `AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY${env.AWS_SESSION_TOKEN ? " with AWS_SESSION_TOKEN" : ""}`
      : env.AWS_PROFILE
        ? `AWS profile "${env.AWS_PROFILE}" (~/.aws/config, its SSO login or role)`
        : "the AWS default chain (~/.aws profiles, the SSO cache, a container or instance role)";
  return { region, baseURL, auth: "aws", source };
}

export const truthy = (v: string | undefined): boolean => v !== undefined && /^(1|true|yes|on)$/i.test(v.trim());

/** Resolves the AWS credentials now (a missing login is a setting to fix) and returns the connection. */
export async function bedrockConnection(plan: BedrockPlan, o: { env: Env; headers: Record<string, string>; wireModel: (m: string) => string }): Promise<Connection> {
  const hints = BEDROCK_HINTS(plan);
  let providerChainResolver: ChainResolver | null = null;
  if (plan.auth === "aws") {
    const provider = await awsCredentials(hints);
    try {
      await provider();
    } catch (e) {
      throw new ProviderConfigError(e instanceof Error ? e.message : String(e));
    }
    providerChainResolver = async () => provider;
  }
  // Loaded here, not at the top: it brings the AWS SDK's core, which a session on Anthropic's API
  // would parse at every start.
  const { AnthropicBedrock } = await import("@anthropic-ai/bedrock-sdk");
  const client = new AnthropicBedrock({
    awsRegion: plan.region || "us-east-1",
    baseURL: plan.baseURL,
    // null: never the environment's ANTHROPIC_API_KEY, and no bearer token unless one is set.
    apiKey: plan.auth === "bearer" ? o.env.AWS_BEARER_TOKEN_BEDROCK!.trim() : null,
    skipAuth: plan.auth === "skip",
    providerChainResolver,
    maxRetries: 0,
    defaultHeaders: o.headers,
  });
  return { kind: "bedrock", baseURL: plan.baseURL, renewable: false, wireModel: o.wireModel, hints, sdk: async () => client };
}

/** The chain Anthropic's package uses (the environment first, then Node's default chain), its failures in one line. */
async function awsCredentials(hints: ErrorHints): Promise<AwsCredentialIdentityProvider> {
  const { createCredentialChain, fromEnv, fromNodeProviderChain } = await import("@aws-sdk/credential-providers");
  const chain = createCredentialChain(fromEnv(), fromNodeProviderChain());
  return async (props) => {
    try {
      const creds = await chain(props);
      if (creds.expiration && creds.expiration.getTime() <= Date.now()) throw new Error("they have expired");
      return creds;
    } catch (e) {
      const why = (e instanceof Error ? e.message : String(e)).split("\n")[0]!.replace(/\.$/, "");
      throw new ModelError("fatal", `Amazon Bedrock: no usable AWS credentials (${why}). ${hints.credentials}`);
    }
  };
}
