// Turns whatever the SDK or the network threw into our taxonomy: retryable, overflow or fatal,
// with a message that tells the user what to do. Never matches on SDK class names alone: a
// proxy or a fake server may answer with any status, so the status and the body's error type decide.
import { APIConnectionError, APIError, APIUserAbortError } from "@anthropic-ai/sdk";
import { ModelError } from "./types.ts";
import { SUGGESTED_MODELS } from "./models.ts";
import { trimEndChars } from "../text/trim-chars.ts";
import type { ErrorHints, ProviderKind } from "./providers/types.ts";

export type Classified = { error: ModelError; retryAfterMs: number | null };

/** `hints` and `kind`: the provider's variables, for what to set (Anthropic's API when absent). */
export type ErrorContext = { model: string; baseURL: string; hints?: ErrorHints; kind?: ProviderKind };

const OVERFLOW = /prompt is too long:\s*(\d+)\s*tokens?\s*>\s*(\d+)\s*maximum/i;
// Bedrock's stream exceptions arrive as `error` events typed by the exception's name.
const RETRYABLE_TYPES = new Set([
  "overloaded_error",
  "api_error",
  "rate_limit_error",
  "timeout_error",
  "throttlingException",
  "internalServerException",
  "serviceUnavailableException",
  "modelStreamErrorException",
  "modelTimeoutException",
]);
const CERTIFICATE = /certificate|self[- ]signed|UNABLE_TO_VERIFY|CERT_|DEPTH_ZERO/i;
/** A credential the package could not get that says why: not the network. */
const NETWORK = /ECONNREFUSED|ECONNRESET|ENOTFOUND|ETIMEDOUT|EAI_AGAIN|socket|fetch failed|network|timed? ?out/i;

export function classifyError(e: unknown, ctx: ErrorContext): Classified {
  if (e instanceof ModelError) return { error: e, retryAfterMs: null };
  // Our own credential errors (a key helper, AWS's chain) come back wrapped by the client package.
  if (e instanceof Error && e.cause instanceof ModelError) return { error: e.cause, retryAfterMs: null };
  if (e instanceof APIUserAbortError) return fatal("The request was aborted.", null);
  if (e instanceof APIConnectionError) {
    const cause = clean(e.cause instanceof Error ? e.cause.message : e.message);
    if (ctx.hints && /credentials/i.test(e.message) && !NETWORK.test(cause))
      return fatal(`${capital(ctx.hints.name)} could not get credentials (${cause}). ${ctx.hints.credentials}`, null);
    // A certificate nobody here vouches for does not get better by waiting.
    if (CERTIFICATE.test(cause))
      return fatal(`The API at ${ctx.baseURL} has a certificate this machine does not trust (${cause}). Behind a proxy or gateway with its own certificate authority, set NODE_EXTRA_CA_CERTS to its certificate file.`, null);
    const variable = ctx.hints?.endpointVar ?? "ANTHROPIC_BASE_URL";
    return retryable(`Could not reach the API at ${ctx.baseURL} (${cause}). Check your network, or ${variable} if you set it.`, null, null);
  }
  if (e instanceof APIError) return classifyApiError(e, ctx);
  // Anything else thrown while reading the body: the connection dropped (ECONNRESET, socket closed).
  const message = clean(e instanceof Error ? e.message : String(e));
  return retryable(`The connection to the API broke mid-response (${message}).`, null, null);
}

function classifyApiError(e: APIError, ctx: ErrorContext): Classified {
  const status = typeof e.status === "number" ? e.status : null;
  const type = e.type ?? cloudErrorType(e);
  const apiMessage = e.apiMessage ?? cloudMessage(e.error) ?? e.message;
  const retryAfterMs = e.headers ? retryAfterFromHeaders(e.headers) : null;
  const said = `${status ?? "stream"} ${type ?? "error"}: ${clean(apiMessage)}`;

  // An `error` event inside a 200 stream: no status, only the body's type.
  if (status === null) {
    if (type && RETRYABLE_TYPES.has(type)) return retryable(`The API failed mid-stream (${said}).`, null, retryAfterMs);
    return fatal(`The API failed mid-stream (${said}).`, null);
  }

  const overflow = OVERFLOW.exec(apiMessage);
  if (status === 400 && overflow) {
    const tokens = { actual: Number(overflow[1]), maximum: Number(overflow[2]) };
    return {
      error: new ModelError(
        "overflow",
        `The conversation is too long for ${ctx.model}: ${tokens.actual} tokens > ${tokens.maximum} maximum. Compact it (/compact) or start a new session.`,
        status,
        [],
        tokens,
      ),
      retryAfterMs: null,
    };
  }
  if (status === 413)
    return { error: new ModelError("overflow", `The request is too large for the API (${said}). Compact the conversation or drop large attachments.`, status), retryAfterMs: null };

  if (status === 429) return retryable(`Rate limited by the API (${said}).`, status, retryAfterMs);
  if (status === 529) return retryable(`The API is overloaded (${said}).`, status, retryAfterMs);
  if (status >= 500 || status === 408 || status === 409) return retryable(`The API had a server error (${said}).`, status, retryAfterMs);

  const cloud = ctx.hints && ctx.kind && ctx.kind !== "anthropic" ? ctx.hints : null;
  if (cloud && (status === 401 || status === 403)) {
    const expired = /expired/i.test(apiMessage) || /expired/i.test(type ?? "");
    return fatal(`${capital(cloud.name)} ${expired ? "says the credentials have expired" : "rejected the request's credentials or access"} (${said}). ${cloud.credentials}`, status);
  }
  if (status === 401)
    return fatal(`The API rejected the credentials (${said}). ${ctx.hints?.credentials ?? "Set ANTHROPIC_API_KEY to a valid key (https://console.anthropic.com/settings/keys), or ANTHROPIC_AUTH_TOKEN for a bearer token."}`, status);
  if (status === 403)
    return fatal(`The API key is not allowed to do this (${said}). Check the key's organisation and workspace permissions, or try another --model.`, status);
  if (status === 402) return fatal(`The account has a billing problem (${said}). Check your plan and credits in the Anthropic Console.`, status);
  if (status === 404 && cloud)
    return fatal(`${capital(cloud.name)} has no model "${ctx.model}" here, or no such endpoint (${said}). ${capital(cloud.models)}; check ${cloud.endpointVar} if you set it.`, status);
  if (status === 424) return retryable(`The model failed on the provider's side (${said}).`, status, retryAfterMs);
  if (status === 404) {
    if (/model/i.test(apiMessage))
      return fatal(
        `Unknown model "${ctx.model}" (${said}). Pick another with --model, e.g. ${SUGGESTED_MODELS.join(", ")}.`,
        status,
      );
    return fatal(`The API endpoint was not found (${said}). Check ANTHROPIC_BASE_URL (${ctx.baseURL}).`, status);
  }
  if (status === 400) return fatal(`The API rejected the request (${said}). This is a bug in KHAELOR or in the session: please report it.`, status);
  return fatal(`The API answered ${said}.`, status);
}

/**
 * Text quoted inside our own sentence: no closing period (it would read "….)."), and not Bun's
 * advice to its caller ("For more information, pass `verbose: true` … to fetch()").
 */
function clean(text: string): string {
  const tail = text.indexOf("For more information, pass `verbose: true`");
  return trimEndChars((tail === -1 ? text : text.slice(0, tail)).trim(), ".\\s");
}

const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** A cloud's own error shape: Bedrock's `{message}` with its type in x-amzn-errortype, Vertex's `{error: {message, status}}`. */
function cloudMessage(body: unknown): string | null {
  if (typeof body !== "object" || body === null) return null;
  const b = body as { message?: unknown; Message?: unknown; error?: { message?: unknown } };
  const m = b.error?.message ?? b.message ?? b.Message;
  return typeof m === "string" ? m : null;
}

function cloudErrorType(e: APIError): string | null {
  const amzn = e.headers?.get("x-amzn-errortype");
  if (amzn) return amzn.split(":")[0]!;
  const status = (e.error as { error?: { status?: unknown } } | undefined)?.error?.status;
  return typeof status === "string" ? status : null;
}

function retryable(message: string, status: number | null, retryAfterMs: number | null): Classified {
  return { error: new ModelError("retryable", message, status), retryAfterMs };
}

function fatal(message: string, status: number | null): Classified {
  return { error: new ModelError("fatal", message, status), retryAfterMs: null };
}

/** `retry-after-ms` (non-standard, precise) wins over `retry-after` (seconds or an HTTP date). */
export function retryAfterFromHeaders(h: Headers): number | null {
  const ms = h.get("retry-after-ms");
  if (ms !== null) {
    const v = Number.parseFloat(ms);
    if (Number.isFinite(v) && v >= 0) return v;
  }
  const ra = h.get("retry-after");
  if (ra !== null) {
    const secs = Number.parseFloat(ra);
    if (Number.isFinite(secs) && secs >= 0) return secs * 1000;
    const date = Date.parse(ra);
    if (Number.isFinite(date)) return Math.max(0, date - Date.now());
  }
  return null;
}
