// Which provider is in force and how it is reached, from the environment and the user's settings
// alone: no network, no secret kept beyond what the connection needs. Claude Code's switches pick
// the cloud (CLAUDE_CODE_USE_BEDROCK, _VERTEX, _FOUNDRY); without one it is Anthropic's API, or a
// gateway at ANTHROPIC_BASE_URL.
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { bedrockPlan, truthy, type BedrockPlan } from "./bedrock.ts";
import { foundryPlan, type FoundryPlan } from "./foundry.ts";
import { helperProgram } from "./key-helper.ts";
import { ProviderConfigError, type Env, type ProviderSettings } from "./types.ts";
import { vertexPlan, type VertexPlan } from "./vertex.ts";

export type AnthropicPlan = {
  baseURL: string;
  auth: { type: "apiKey"; key: string; from: string } | { type: "authToken"; token: string } | { type: "helper"; command: string } | { type: "none" };
};

export type ProviderPlan =
  | ({ kind: "anthropic" } & AnthropicPlan)
  | ({ kind: "bedrock" } & BedrockPlan)
  | ({ kind: "vertex" } & VertexPlan)
  | ({ kind: "foundry" } & FoundryPlan);

/** What this run was told to use instead (--demo, a host's own endpoint): Anthropic's API at that place. */
export type ApiOverride = { apiKey?: string | undefined; baseURL?: string | undefined };

const SWITCHES = [
  ["CLAUDE_CODE_USE_BEDROCK", "bedrock"],
  ["CLAUDE_CODE_USE_VERTEX", "vertex"],
  ["CLAUDE_CODE_USE_FOUNDRY", "foundry"],
] as const;

export function planProvider(env: Env, settings: ProviderSettings, override: ApiOverride = {}): ProviderPlan {
  const on = override.apiKey || override.baseURL ? [] : SWITCHES.filter(([name]) => truthy(env[name]));
  if (on.length > 1) throw new ProviderConfigError(`${on.map(([n]) => n).join(" and ")} are all set: keep the one for the cloud you mean`);
  switch (on[0]?.[1]) {
    case "bedrock":
      return { kind: "bedrock", ...bedrockPlan(env) };
    case "vertex":
      return { kind: "vertex", ...vertexPlan(env) };
    case "foundry":
      return { kind: "foundry", ...foundryPlan(env, (p) => onPath(p, env)) };
  }
  return { kind: "anthropic", ...anthropicPlan(env, settings, override) };
}

function anthropicPlan(env: Env, settings: ProviderSettings, override: ApiOverride): AnthropicPlan {
  const baseURL = override.baseURL || env.ANTHROPIC_BASE_URL || "https://api.anthropic.com";
  if (override.apiKey) return { baseURL, auth: { type: "apiKey", key: override.apiKey, from: "this run's own key" } };
  if (env.ANTHROPIC_API_KEY) return { baseURL, auth: { type: "apiKey", key: env.ANTHROPIC_API_KEY, from: "ANTHROPIC_API_KEY" } };
  if (settings.apiKey) return { baseURL, auth: { type: "apiKey", key: settings.apiKey, from: "apiKey in your settings" } };
  if (env.ANTHROPIC_AUTH_TOKEN) return { baseURL, auth: { type: "authToken", token: env.ANTHROPIC_AUTH_TOKEN } };
  if (settings.apiKeyHelper) return { baseURL, auth: { type: "helper", command: settings.apiKeyHelper } };
  return { baseURL, auth: { type: "none" } };
}

/** Where the credentials come from, in words: never a key, a token, or a helper's arguments. */
export function credentialSource(plan: ProviderPlan): string {
  if (plan.kind !== "anthropic") return plan.source;
  switch (plan.auth.type) {
    case "apiKey":
      return plan.auth.from;
    case "authToken":
      return "ANTHROPIC_AUTH_TOKEN (a bearer token)";
    case "helper":
      return `apiKeyHelper in your settings (runs ${helperProgram(plan.auth.command)})`;
    case "none":
      return "none: set ANTHROPIC_API_KEY";
  }
}

function onPath(program: string, env: Env): boolean {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    if (!dir) continue;
    try {
      accessSync(join(dir, program), constants.X_OK);
      return true;
    } catch {
      // not here
    }
  }
  return false;
}
