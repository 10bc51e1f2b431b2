// Anthropic's API, or a gateway in front of it (ANTHROPIC_BASE_URL): a key from the environment or
// the user's settings, a bearer token (ANTHROPIC_AUTH_TOKEN), or the user's apiKeyHelper.
import Anthropic from "@anthropic-ai/sdk";
import { ModelError } from "../types.ts";
import type { KeyHelper } from "./key-helper.ts";
import type { Connection, ErrorHints } from "./types.ts";

export const ANTHROPIC_HINTS: ErrorHints = {
  name: "the Anthropic API",
  credentials: "Set ANTHROPIC_API_KEY to a valid key (https://console.anthropic.com/settings/keys), or ANTHROPIC_AUTH_TOKEN for a bearer token.",
  endpointVar: "ANTHROPIC_BASE_URL",
  models: "",
};

export type AnthropicAuth = { type: "apiKey"; key: string } | { type: "authToken"; token: string } | { type: "helper"; helper: KeyHelper } | { type: "none" };

export function anthropicConnection(o: { baseURL: string; auth: AnthropicAuth; headers: Record<string, string>; wireModel: (m: string) => string }): Connection {
  let sdk: { key: string; client: Anthropic } | null = null;
  const make = (auth: { apiKey: string } | { authToken: string }, extra: Record<string, string> = {}) =>
    new Anthropic({ ...auth, baseURL: o.baseURL, maxRetries: 0, defaultHeaders: { ...o.headers, ...extra } });
  return {
    kind: "anthropic",
    baseURL: o.baseURL,
    renewable: o.auth.type === "helper",
    wireModel: o.wireModel,
    hints: o.auth.type === "helper" ? { ...ANTHROPIC_HINTS, credentials: `Check what ${o.auth.helper.label} prints, or set ANTHROPIC_API_KEY.` } : ANTHROPIC_HINTS,
    async sdk(renew) {
      const auth = o.auth;
      if (auth.type === "none")
        throw new ModelError(
          "fatal",
          "No API key. Set ANTHROPIC_API_KEY (create one at https://console.anthropic.com/settings/keys), or ANTHROPIC_AUTH_TOKEN for a bearer token; or run `khaelor --demo` to see KHAELOR work without one.",
        );
      if (auth.type !== "helper") {
        sdk ??= { key: "", client: make(auth.type === "apiKey" ? { apiKey: auth.key } : { authToken: auth.token }) };
        return sdk.client;
      }
      // A gateway may read either header: the helper's key goes in both, as Claude Code sends it.
      const key = await auth.helper.key(renew);
      if (sdk?.key !== key) sdk = { key, client: make({ apiKey: key }, { authorization: `Bearer ${key}` }) };
      return sdk.client;
    },
  };
}
