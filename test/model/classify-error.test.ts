// The text of an API failure is quoted inside our own sentence and then shown with "Retrying in…":
// it must read as one sentence, without Bun's advice to fetch() callers.
import { expect, test } from "bun:test";
import { APIError } from "@anthropic-ai/sdk";
import { classifyError } from "../../src/model/classify-error.ts";

const ctx = { model: "claude-x", baseURL: "http://127.0.0.1:9" };

test("a dropped connection is quoted without Bun's fetch() hint or a doubled period", () => {
  const e = new Error("The socket connection was closed unexpectedly. For more information, pass `verbose: true` in the second argument to fetch()");
  expect(classifyError(e, ctx).error.message).toBe("The connection to the API broke mid-response (The socket connection was closed unexpectedly).");
});

test("an API message ending in a period does not end the quote with one", () => {
  const body = { type: "error", error: { type: "rate_limit_error", message: "Number of requests exceeded your per-minute rate limit." } };
  const e = APIError.generate(429, body, undefined, new Headers({ "retry-after": "3" }));
  const c = classifyError(e, ctx);
  expect(c.error.message).toBe("Rate limited by the API (429 rate_limit_error: Number of requests exceeded your per-minute rate limit).");
  expect(c.retryAfterMs).toBe(3000);
});
