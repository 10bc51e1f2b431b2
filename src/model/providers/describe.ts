// What is in force, for people: the provider, its region and endpoint, where the credentials come
// from, the transport's proxy and extra certificates. Never a secret: no key, no token, no header
// value, no helper's arguments, no password in a proxy's URL. `khaelor doctor` prints it; a session
// shows it at start when a cloud or a key helper is in force.
import { accessSync, constants } from "node:fs";
import { customHeaders } from "./custom-headers.ts";
import { credentialSource, planProvider, type ApiOverride } from "./plan.ts";
import { PROVIDER_NAMES, type Env, type ProviderKind, type ProviderSettings } from "./types.ts";
import { wireModel } from "./model-ids.ts";

export type ProviderDescription = {
  provider: ProviderKind;
  /** "Amazon Bedrock" */
  name: string;
  region: string | null;
  /** Vertex AI's project. */
  project: string | null;
  baseURL: string | null;
  /** Where the credentials come from, in words. */
  credentials: string;
  /** ANTHROPIC_CUSTOM_HEADERS' names (their values are not shown). */
  headers: string[];
  /** HTTPS_PROXY (or HTTP_PROXY for http endpoints) without its user and password; null when none, or when NO_PROXY covers the endpoint. */
  proxy: string | null;
  /** NODE_EXTRA_CA_CERTS, and whether it can be read (Bun ignores a file it cannot read, silently). */
  extraCa: { file: string; readable: boolean } | null;
  /** The setting to fix before a session can open, one line; null when none is missing. */
  problem: string | null;
};

export function describeProvider(env: Env, settings: ProviderSettings, override: ApiOverride = {}): ProviderDescription {
  const extraCa = env.NODE_EXTRA_CA_CERTS ? { file: env.NODE_EXTRA_CA_CERTS, readable: readable(env.NODE_EXTRA_CA_CERTS) } : null;
  let headers: string[] = [];
  let problem: string | null = null;
  try {
    headers = Object.keys(customHeaders(env));
  } catch (e) {
    problem = (e as Error).message;
  }
  let plan;
  try {
    plan = planProvider(env, settings, override);
  } catch (e) {
    const kind = (["bedrock", "vertex", "foundry"] as const).find((k) => /^(1|true|yes|on)$/i.test(env[`CLAUDE_CODE_USE_${k.toUpperCase()}`]?.trim() ?? "")) ?? "anthropic";
    return { provider: kind, name: PROVIDER_NAMES[kind], region: null, project: null, baseURL: null, credentials: "unknown", headers, proxy: null, extraCa, problem: (e as Error).message };
  }
  if (plan.kind === "anthropic" && plan.auth.type === "none") problem ??= "no API key: set ANTHROPIC_API_KEY (or ANTHROPIC_AUTH_TOKEN, or apiKey or apiKeyHelper in your settings)";
  const region = plan.kind === "bedrock" ? plan.region || null : plan.kind === "vertex" ? plan.region : null;
  return {
    provider: plan.kind,
    name: PROVIDER_NAMES[plan.kind],
    region,
    project: plan.kind === "vertex" ? plan.projectId : null,
    baseURL: plan.baseURL,
    credentials: credentialSource(plan),
    headers,
    proxy: proxyFor(plan.baseURL, env),
    extraCa,
    problem,
  };
}

/** The start-up notice: only when a cloud or a key helper is in force (a plain key needs no news). */
export function providerNotice(d: ProviderDescription, model: string, env: Env): string | null {
  const lines: string[] = [];
  if (d.extraCa && !d.extraCa.readable) lines.push(`NODE_EXTRA_CA_CERTS names ${d.extraCa.file}, which cannot be read: its certificates are not used`);
  const helper = d.credentials.startsWith("apiKeyHelper");
  if (d.provider === "anthropic" && !helper) return lines.length > 0 ? lines.join("\n") : null;
  const where = [d.region ? `region ${d.region}` : null, d.project ? `project ${d.project}` : null, d.baseURL].filter(Boolean).join(", ");
  const sent = wireModel(model, d.provider, env);
  const extras = [d.headers.length > 0 ? `headers ${d.headers.join(", ")}` : null, d.proxy ? `through proxy ${d.proxy}` : null].filter(Boolean);
  lines.unshift(`using ${d.name} (${where}); credentials: ${d.credentials}${sent !== model ? `; ${model} is sent as ${sent}` : ""}${extras.length > 0 ? `; ${extras.join("; ")}` : ""}`);
  return lines.join("\n");
}

function readable(file: string): boolean {
  try {
    accessSync(file, constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** The proxy Bun's fetch uses for `url` (it reads these variables itself), shown without credentials. */
function proxyFor(url: string, env: Env): string | null {
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    return null;
  }
  const raw = target.protocol === "https:" ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  if (!raw) return null;
  const skip = (env.NO_PROXY ?? env.no_proxy ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean);
  const host = target.hostname.toLowerCase();
  if (skip.some((s) => s === "*" || host === s.replace(/^\./, "") || host.endsWith(s.startsWith(".") ? s : `.${s}`))) return null;
  try {
    const p = new URL(raw);
    return `${p.protocol}//${p.host}`;
  } catch {
    return "(HTTPS_PROXY is not a URL)";
  }
}
