// Doctor's provider line: the providers' own description (src/model/providers/describe.ts) of
// which provider, region and endpoint a session would use and where its credentials come from,
// never a secret; its problem, when a session could not open, with the fix it names.
import { describeProvider } from "../model/providers/describe.ts";

type Env = Record<string, string | undefined>;

export type ProviderReport = { line: string; problem: string | null; fix: string | null };

/** `settings`: the user's own (a project's file never picks the key). */
export function describeProviderForDoctor(env: Env, settings: { apiKey?: string | undefined; apiKeyHelper?: string | undefined }): ProviderReport {
  const d = describeProvider(env, settings);
  const where = [d.region ? `region ${d.region}` : "", d.project ? `project ${d.project}` : ""].filter(Boolean).join(", ");
  const base = d.baseURL ? ` at ${d.baseURL}${env.ANTHROPIC_BASE_URL && d.provider === "anthropic" ? " (ANTHROPIC_BASE_URL)" : ""}` : "";
  const extras = [d.headers.length > 0 ? `custom headers: ${d.headers.join(", ")}` : "", d.proxy ? `proxy ${d.proxy}` : "", d.extraCa ? `extra CA ${d.extraCa.file}${d.extraCa.readable ? "" : " (cannot be read)"}` : ""].filter(Boolean);
  const line = `${d.name}${where ? ` (${where})` : ""}${base}; credentials: ${d.credentials}${extras.length > 0 ? `; ${extras.join("; ")}` : ""}`;
  const problem = d.problem ?? (d.extraCa && !d.extraCa.readable ? `NODE_EXTRA_CA_CERTS names ${d.extraCa.file}, which cannot be read (Bun ignores it silently)` : null);
  if (!problem) return { line, problem: null, fix: null };
  return { line, problem, fix: d.provider === "anthropic" && /no API key/.test(problem) ? "export ANTHROPIC_API_KEY=<your key> (create one at https://console.anthropic.com/settings/keys), or ANTHROPIC_AUTH_TOKEN for a bearer token; khaelor --demo runs without one" : problem };
}
