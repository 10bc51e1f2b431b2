// Checks an AWS Signature Version 4 the way AWS does, written from AWS's documentation of it
// (canonical request, string to sign, the derived key), with node:crypto: an independent check
// of what @anthropic-ai/bedrock-sdk signs, not the same code run twice.
import { createHash, createHmac } from "node:crypto";

const sha256 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");
const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data).digest();

/** RFC 3986 encoding, as SigV4 wants it (everything but A-Z a-z 0-9 - _ . ~). */
const rfc3986 = (s: string) => encodeURIComponent(s).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

export type SigV4Expect = { accessKeyId: string; secretAccessKey: string; region: string; service: string; sessionToken?: string };

/** null when the request is signed as expected; otherwise what is wrong, in a sentence. */
export function checkSigV4(req: { method: string; rawPath: string; query: string; headers: Headers; body: Uint8Array }, want: SigV4Expect): string | null {
  const auth = req.headers.get("authorization") ?? "";
  const m = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([^/]+)\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(auth);
  if (!m) return `Authorization is not a SigV4 signature: ${auth.slice(0, 40)}`;
  const [, keyId, day, region, service, signedList, signature] = m as unknown as string[];
  if (keyId !== want.accessKeyId) return `signed with access key ${keyId}, not ${want.accessKeyId}`;
  if (region !== want.region || service !== want.service) return `scope is ${region}/${service}, not ${want.region}/${want.service}`;
  const amzDate = req.headers.get("x-amz-date");
  if (!amzDate || !amzDate.startsWith(day!)) return "x-amz-date is missing or not the credential's day";
  if (want.sessionToken !== undefined && req.headers.get("x-amz-security-token") !== want.sessionToken) return "x-amz-security-token is not the session token";
  const signed = signedList!.split(";");
  for (const h of ["host", "x-amz-date"]) if (!signed.includes(h)) return `${h} is not among the signed headers`;
  const canonicalHeaders = signed.map((h) => `${h}:${(req.headers.get(h) ?? "").trim().replace(/\s+/g, " ")}\n`).join("");
  // Services other than S3 encode each path segment once more.
  const canonicalPath = req.rawPath.split("/").map((seg) => rfc3986(seg)).join("/");
  const canonicalQuery = req.query
    .split("&")
    .filter(Boolean)
    .map((kv) => kv.split("=").map((x) => rfc3986(decodeURIComponent(x))).join("="))
    .sort()
    .join("&");
  const payloadHash = req.headers.get("x-amz-content-sha256") ?? sha256(req.body);
  if (payloadHash !== sha256(req.body)) return "x-amz-content-sha256 is not the body's hash";
  const canonical = [req.method, canonicalPath, canonicalQuery, canonicalHeaders, signedList, payloadHash].join("\n");
  const scope = `${day}/${region}/${service}/aws4_request`;
  const toSign = ["AWS4-HMAC-SHA256", amzDate, scope, sha256(canonical)].join("\n");
  const key = hmac(hmac(hmac(hmac(`AWS4${want.secretAccessKey}`, day!), region!), service!), "aws4_request");
  const expected = createHmac("sha256", key).update(toSign).digest("hex");
  return expected === signature ? null : "the signature does not match the request (a signed header or the body changed, or the secret is wrong)";
}
