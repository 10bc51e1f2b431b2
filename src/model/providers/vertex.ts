// Google Vertex AI through @anthropic-ai/vertex-sdk: Claude Code's variables (CLAUDE_CODE_USE_VERTEX,
// CLOUD_ML_REGION, ANTHROPIC_VERTEX_PROJECT_ID, ANTHROPIC_VERTEX_BASE_URL, CLAUDE_CODE_SKIP_VERTEX_AUTH)
// and Google's application default credentials. Whether there are any is checked at start without
// the network (a key file, gcloud's login, or Google Cloud's metadata server); the token itself is
// fetched, and refreshed, by the package.
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import type { AnthropicVertex } from "@anthropic-ai/vertex-sdk";
import { truthy } from "./bedrock.ts";
import { ProviderConfigError, type Connection, type Env, type ErrorHints } from "./types.ts";

export type VertexPlan = { region: string; projectId: string; baseURL: string; skipAuth: boolean; source: string };

type AuthClient = NonNullable<NonNullable<ConstructorParameters<typeof AnthropicVertex>[0]>["authClient"]>;

export const VERTEX_HINTS: ErrorHints = {
  name: "Google Vertex AI",
  credentials: "Run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service account key; check that ANTHROPIC_VERTEX_PROJECT_ID may use Claude in CLOUD_ML_REGION.",
  endpointVar: "ANTHROPIC_VERTEX_BASE_URL",
  models: "Vertex ids look like claude-sonnet-5-5 or claude-sonnet-4-5@20250929, and not every model is in every region",
};

/** The package's own endpoints for a region. */
function vertexBase(region: string): string {
  if (region === "global") return "https://aiplatform.googleapis.com/v1";
  if (region === "us" || region === "eu") return `https://aiplatform.${region}.rep.googleapis.com/v1`;
  return `https://${region}-aiplatform.googleapis.com/v1`;
}

export function vertexPlan(env: Env): VertexPlan {
  const region = env.CLOUD_ML_REGION?.trim() ?? "";
  if (!region) throw new ProviderConfigError("Google Vertex AI needs a region: set CLOUD_ML_REGION (for example CLOUD_ML_REGION=global, or us-east5)");
  const projectId = env.ANTHROPIC_VERTEX_PROJECT_ID?.trim() ?? "";
  if (!projectId) throw new ProviderConfigError("Google Vertex AI needs a project: set ANTHROPIC_VERTEX_PROJECT_ID to your Google Cloud project id");
  const baseURL = env.ANTHROPIC_VERTEX_BASE_URL?.trim() || vertexBase(region);
  const skipAuth = truthy(env.CLAUDE_CODE_SKIP_VERTEX_AUTH);
  return { region, projectId, baseURL, skipAuth, source: skipAuth ? "none sent (CLAUDE_CODE_SKIP_VERTEX_AUTH: the gateway signs)" : googleCredentialSource(env) };
}

/** Where application default credentials would come from, in the order Google's library looks; throws when nowhere. */
function googleCredentialSource(env: Env): string {
  const file = env.GOOGLE_APPLICATION_CREDENTIALS?.trim();
  if (file) {
    if (!existsSync(file)) throw new ProviderConfigError(`GOOGLE_APPLICATION_CREDENTIALS names ${file}, which does not exist: point it at your key file, or unset it to use gcloud's login`);
    return `GOOGLE_APPLICATION_CREDENTIALS (${file})`;
  }
  const gcloud = join(env.CLOUDSDK_CONFIG?.trim() || join(env.HOME || homedir(), ".config", "gcloud"), "application_default_credentials.json");
  if (existsSync(gcloud)) return `gcloud's application default login (${gcloud})`;
  if (onGoogleCloud(env)) return "the Google Cloud metadata server (this machine's service account)";
  throw new ProviderConfigError(
    "Google Vertex AI needs credentials: run `gcloud auth application-default login`, or set GOOGLE_APPLICATION_CREDENTIALS to a service account key (CLAUDE_CODE_SKIP_VERTEX_AUTH=1 behind a gateway that signs)",
  );
}

/** Google Cloud's serverless runtimes say so in the environment; its VMs in the BIOS vendor. */
function onGoogleCloud(env: Env): boolean {
  if (env.K_SERVICE || env.FUNCTION_NAME || env.GCE_METADATA_HOST) return true;
  try {
    return /Google/.test(readFileSync("/sys/class/dmi/id/bios_vendor", "utf8"));
  } catch {
    return false;
  }
}

/** Behind a gateway that signs: no Google header at all. */
const NO_AUTH = { getRequestHeaders: async () => new Headers(), projectId: null } as unknown as AuthClient;

export async function vertexConnection(plan: VertexPlan, o: { headers: Record<string, string>; wireModel: (m: string) => string }): Promise<Connection> {
  // Loaded only for Vertex: google-auth-library is not parsed at every start.
  const { AnthropicVertex } = await import("@anthropic-ai/vertex-sdk");
  const client = new AnthropicVertex({
    region: plan.region,
    projectId: plan.projectId,
    baseURL: plan.baseURL,
    ...(plan.skipAuth ? { authClient: NO_AUTH } : {}),
    maxRetries: 0,
    defaultHeaders: o.headers,
  });
  return { kind: "vertex", baseURL: plan.baseURL, renewable: false, wireModel: o.wireModel, hints: VERTEX_HINTS, sdk: async () => client };
}
