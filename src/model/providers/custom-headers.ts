// ANTHROPIC_CUSTOM_HEADERS: "Name: value" lines sent with every request (a gateway's own headers).
// Checked once at start: a line that is not a header would otherwise fail every request later, as
// a network error. A value may be a secret: errors and descriptions name the header, never its value.
import { ProviderConfigError, type Env } from "./types.ts";

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

export function customHeaders(env: Env): Record<string, string> {
  const text = env.ANTHROPIC_CUSTOM_HEADERS;
  const out: Record<string, string> = {};
  if (!text) return out;
  text.split(/\r?\n/).forEach((line, i) => {
    if (line.trim() === "") return;
    const colon = line.indexOf(":");
    const name = colon === -1 ? "" : line.slice(0, colon).trim();
    if (!TOKEN.test(name))
      throw new ProviderConfigError(`ANTHROPIC_CUSTOM_HEADERS line ${i + 1} is not a header: write one "Name: value" per line`);
    const value = line.slice(colon + 1).trim();
    // Controls other than tab cannot go in a header; fetch would refuse the request each time.
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value))
      throw new ProviderConfigError(`ANTHROPIC_CUSTOM_HEADERS: the value of ${name} has a control character`);
    out[name] = value;
  });
  return out;
}
