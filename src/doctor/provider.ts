// Doctor's provider line: which model provider and base URL a session would use, and whether a
// credential is set, never the credential itself. Mirrors what src/agent/foundation.ts and
// src/model/anthropic-client.ts do. Kept to one function so it can become the providers' own
// describeProvider() (src/model/providers/) once there is more than the Anthropic API.
type Env = Record<string, string | undefined>;

export type ProviderReport = { line: string; problem: string | null; fix: string | null };

export function describeProviderForDoctor(env: Env, settingsApiKey: string | undefined): ProviderReport {
  const baseURL = env.ANTHROPIC_BASE_URL || "https://api.anthropic.com";
  const from = env.ANTHROPIC_BASE_URL ? " (ANTHROPIC_BASE_URL)" : "";
  const key = env.ANTHROPIC_API_KEY ? "ANTHROPIC_API_KEY" : settingsApiKey ? "apiKey in your settings" : env.ANTHROPIC_AUTH_TOKEN ? "ANTHROPIC_AUTH_TOKEN (a bearer token)" : null;
  const line = `Anthropic API at ${baseURL}${from}; credential: ${key ? `set, from ${key}` : "none"}`;
  if (key) return { line, problem: null, fix: null };
  return {
    line,
    problem: "no API key is set",
    fix: "export ANTHROPIC_API_KEY=<your key> (create one at https://console.anthropic.com/settings/keys), or ANTHROPIC_AUTH_TOKEN for a bearer token; khaelor --demo runs without one",
  };
}
