// Fakes of the three clouds' wire formats on loopback, in front of the first-party fake (which plays
// the scenario): each checks a request the way its cloud would, turns it into a Messages API
// request, and turns the answer back into its own format.
// - Bedrock: POST /model/{id}/invoke-with-response-stream; the body without `model` and `stream`,
//   with `anthropic_version`; a SigV4 signature (checked: src in sigv4.ts) or a Bedrock API key;
//   the answer in AWS event-stream binary framing with its CRCs (event-stream.ts), errors as
//   `{message}` with x-amzn-ErrorType, a failure mid-stream as an exception message.
// - Vertex AI: POST /v1/projects/{p}/locations/{r}/publishers/anthropic/models/{model}:streamRawPredict;
//   the body without `model`, with `anthropic_version`; a Google bearer token; the answer as SSE,
//   errors in Google's `{error: {code, message, status}}`.
// - Foundry: POST /anthropic/v1/messages, the model the deployment's name; `x-api-key` or an Entra
//   bearer token; the Messages API's own SSE and errors.
import { startFakeApi, type FakeApi, type ScenarioInput } from "../../../src/fakeapi/index.ts";
import { chunkMessage, exceptionMessage } from "./event-stream.ts";
import { checkSigV4, type SigV4Expect } from "./sigv4.ts";

export type CloudKind = "bedrock" | "vertex" | "foundry";

export type CloudAuth =
  | { type: "sigv4"; expect: Omit<SigV4Expect, "service"> }
  | { type: "bearer"; token: string }
  | { type: "x-api-key"; key: string }
  | { type: "none" };

export type CloudRequest = {
  path: string;
  /** The model the URL or the body named. */
  model: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
  status: number;
};

export type CloudFake = {
  url: string;
  inner: FakeApi;
  requests: CloudRequest[];
  /** What a request did wrong for its cloud; a test asserts this stays empty. */
  problems: string[];
  /** Answers the next request with this status (a cloud's own auth or throttling refusal). */
  refuseNext(status: number, message: string): void;
  close(): Promise<void>;
};

const SECRET_HEADERS = new Set(["authorization", "x-api-key", "x-amz-security-token", "api-key"]);

export async function startCloudFake(kind: CloudKind, o: { scenario: ScenarioInput; auth: CloudAuth; project?: string; region?: string }): Promise<CloudFake> {
  const inner = await startFakeApi({ scenario: o.scenario });
  const requests: CloudRequest[] = [];
  const problems: string[] = [];
  let refusal: { status: number; message: string } | null = null;

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 120,
    fetch: async (req) => {
      const url = new URL(req.url);
      const bytes = new Uint8Array(await req.arrayBuffer());
      const headers: Record<string, string> = {};
      req.headers.forEach((v, k) => (headers[k] = SECRET_HEADERS.has(k) ? `<redacted ${v.length} chars>` : v));
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(new TextDecoder().decode(bytes)) as Record<string, unknown>;
      } catch {
        problems.push(`${kind}: the body is not JSON`);
      }
      const route = routeOf(kind, url.pathname, o, body);
      const record: CloudRequest = { path: url.pathname, model: route?.model ?? "", headers, body, status: 0 };
      requests.push(record);
      const answer = (status: number, message: string) => ((record.status = status), errorResponse(kind, status, message));
      if (!route) return answer(404, `no such endpoint: ${req.method} ${url.pathname}`);
      const wrong = [...checkBody(kind, body, req.headers), ...checkAuth(kind, o.auth, { method: req.method, rawPath: rawPath(req.url), query: url.search.slice(1), headers: req.headers, body: bytes })];
      if (wrong.length > 0) {
        problems.push(...wrong.map((w) => `${kind}: ${w}`));
        return answer(o.auth.type === "sigv4" ? 403 : 401, wrong.join("; "));
      }
      if (refusal) {
        const r = refusal;
        refusal = null;
        return answer(r.status, r.message);
      }
      // To the first-party fake, which plays the scenario.
      const forwarded = { ...body, model: anthropicName(route.model), stream: true };
      delete (forwarded as Record<string, unknown>).anthropic_version;
      const beta = req.headers.get("anthropic-beta");
      const res = await fetch(`${inner.url}/v1/messages`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "cloud-fake", "anthropic-version": String(body.anthropic_version ?? req.headers.get("anthropic-version") ?? ""), ...(beta ? { "anthropic-beta": beta } : {}) },
        body: JSON.stringify(forwarded),
      });
      record.status = res.status;
      if (!res.ok) {
        const err = (await res.json()) as { error?: { message?: string } };
        return errorResponse(kind, res.status, err.error?.message ?? "error", res.headers);
      }
      if (kind !== "bedrock") return new Response(res.body, { headers: { "content-type": "text/event-stream; charset=utf-8" } });
      return new Response(toEventStream(res.body!), { headers: { "content-type": "application/vnd.amazon.eventstream", "x-amzn-requestid": crypto.randomUUID() } });
    },
  });

  return {
    url: `http://${server.hostname}:${server.port}`,
    inner,
    requests,
    problems,
    refuseNext: (status, message) => void (refusal = { status, message }),
    close: async () => {
      await server.stop(true);
      await inner.close();
    },
  };
}

/** The Anthropic name a cloud's id stands for, as the cloud's answer names the model: `global.anthropic.claude-x-v1:0` → `claude-x`. */
function anthropicName(id: string): string {
  return id.replace(/^arn:.*\//, "").replace(/^[a-z-]+\.anthropic\./, "").replace(/^anthropic\./, "").replace(/-v\d+(:\d+)?$/, "").replace(/@\d{8}$/, "");
}

/** The path as sent, before URL parsing decodes anything the signature covers. */
function rawPath(url: string): string {
  const afterHost = url.replace(/^[a-z]+:\/\/[^/]+/i, "");
  return afterHost.split("?")[0]!;
}

function routeOf(kind: CloudKind, path: string, o: { project?: string; region?: string }, body: Record<string, unknown>): { model: string } | null {
  if (kind === "bedrock") {
    const m = /^\/model\/([^/]+)\/invoke-with-response-stream$/.exec(path);
    return m ? { model: decodeURIComponent(m[1]!) } : null;
  }
  if (kind === "vertex") {
    const m = /^\/v1\/projects\/([^/]+)\/locations\/([^/]+)\/publishers\/anthropic\/models\/([^/:]+):streamRawPredict$/.exec(path);
    if (!m || (o.project && m[1] !== o.project) || (o.region && m[2] !== o.region)) return null;
    return { model: decodeURIComponent(m[3]!) };
  }
  return path === "/anthropic/v1/messages" && typeof body.model === "string" ? { model: body.model } : null;
}

function checkBody(kind: CloudKind, body: Record<string, unknown>, headers: Headers): string[] {
  const wrong: string[] = [];
  if (kind === "foundry") {
    if (!headers.get("anthropic-version")) wrong.push("anthropic-version header missing");
    if (body.stream !== true) wrong.push("not a streaming request");
    return wrong;
  }
  if ("model" in body) wrong.push("the body names the model (it belongs in the URL)");
  if (typeof body.anthropic_version !== "string") wrong.push("anthropic_version missing from the body");
  if (headers.get("anthropic-version")) wrong.push("anthropic-version sent as a header (the cloud takes it from the body)");
  if (kind === "bedrock" && "stream" in body) wrong.push("the body says stream (Bedrock's path does)");
  if (kind === "vertex" && body.stream !== true) wrong.push("not a streaming request");
  return wrong;
}

function checkAuth(kind: CloudKind, auth: CloudAuth, req: Parameters<typeof checkSigV4>[0]): string[] {
  const h = req.headers;
  switch (auth.type) {
    case "sigv4": {
      const wrong = checkSigV4(req, { ...auth.expect, service: "bedrock" });
      return wrong ? [wrong] : [];
    }
    case "bearer":
      if (h.get("x-api-key")) return ["an x-api-key was sent beside the bearer token"];
      return h.get("authorization") === `Bearer ${auth.token}` ? [] : ["no valid bearer token"];
    case "x-api-key":
      return h.get("x-api-key") === auth.key ? [] : ["no valid x-api-key"];
    case "none":
      return h.get("authorization") || h.get("x-api-key") ? [`${kind}: credentials were sent to a gateway that signs itself`] : [];
  }
}

const VERTEX_STATUS: Record<number, string> = { 400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE" };
const BEDROCK_TYPE: Record<number, string> = { 400: "ValidationException", 403: "AccessDeniedException", 404: "ResourceNotFoundException", 408: "ModelTimeoutException", 429: "ThrottlingException", 500: "InternalServerException", 503: "ServiceUnavailableException" };

function errorResponse(kind: CloudKind, status: number, message: string, from?: Headers): Response {
  const retry = from?.get("retry-after");
  const extra: Record<string, string> = retry ? { "retry-after": retry } : {};
  if (kind === "bedrock") {
    // Bedrock has no 529 nor 401: an overloaded model is a 503, a bad signature a 403.
    const s = status === 529 ? 503 : status === 401 ? 403 : status;
    return Response.json({ message }, { status: s, headers: { ...extra, "x-amzn-errortype": `${BEDROCK_TYPE[s] ?? "InternalServerException"}:http://internal.amazon.com/coral/com.amazon.bedrock/` } });
  }
  if (kind === "vertex") {
    const s = status === 529 ? 503 : status;
    return Response.json({ error: { code: s, message, status: VERTEX_STATUS[s] ?? "UNKNOWN" } }, { status: s, headers: extra });
  }
  const type = status === 401 ? "authentication_error" : status === 429 ? "rate_limit_error" : status === 529 ? "overloaded_error" : status >= 500 ? "api_error" : "invalid_request_error";
  return Response.json({ type: "error", error: { type, message } }, { status, headers: extra });
}

const EXCEPTION: Record<string, string> = { overloaded_error: "serviceUnavailableException", rate_limit_error: "throttlingException", api_error: "internalServerException" };

/** The first-party SSE, event by event, as Bedrock's event-stream messages. */
function toEventStream(sse: ReadableStream<Uint8Array>): ReadableStream<Uint8Array> {
  const reader = sse.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      for (;;) {
        const end = buffer.indexOf("\n\n");
        if (end !== -1) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const data = frame.split("\n").find((l) => l.startsWith("data: "))?.slice(6);
          if (!data) continue;
          const event = JSON.parse(data) as { type: string; error?: { type: string; message: string } };
          if (event.type === "error") controller.enqueue(exceptionMessage(EXCEPTION[event.error!.type] ?? "modelStreamErrorException", event.error!.message));
          else controller.enqueue(chunkMessage(data));
          return;
        }
        let next;
        try {
          next = await reader.read();
        } catch {
          controller.error(undefined);
          return;
        }
        if (next.done) {
          controller.close();
          return;
        }
        buffer += decoder.decode(next.value, { stream: true });
      }
    },
    cancel: () => reader.cancel(),
  });
}
