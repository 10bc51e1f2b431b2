// The live retry line: what failed in a few words, which retry, and a countdown that moves; at
// narrow widths the help and then the cause give way, never the countdown.
import { describe, expect, test } from "bun:test";
import type { RetryView } from "../../../src/tui/transcript/entry.ts";
import { renderRetryLine, retryCause } from "../../../src/tui/views/retry-line.ts";
import { displayWidth, rowText } from "../../../src/tui/views/text.ts";

const retry = (over: Partial<RetryView> = {}): RetryView => ({ attempt: 2, maxRetries: 8, status: 529, message: "The API is overloaded (529 overloaded_error: Overloaded).", until: 10_000, ...over });

describe("retry line", () => {
  test("says what failed, which retry of how many, and counts down to it", () => {
    const at = (now: number) => rowText(renderRetryLine(retry(), { width: 100, now, frame: 0 }));
    expect(at(7_000)).toBe("⠋ API overloaded; retry 2 of 8 in 3s  Esc to interrupt");
    expect(at(8_200)).toContain("; retry 2 of 8 in 2s");
    expect(at(10_000)).toContain("; retry 2 of 8 now");
  });

  test("a dropped stream is said in its own words, without a period before the semicolon", () => {
    expect(retryCause(null, "The connection to the API broke mid-response (socket closed).")).toBe("The connection to the API broke mid-response (socket closed)");
    expect(retryCause(429, "Rate limited by the API (429 rate_limit_error: slow down).")).toBe("API rate limit reached");
    expect(retryCause(503, "The API had a server error (503 api_error: x).")).toBe("API server error (503)");
  });

  test("narrow: the countdown stays whole; the help goes, then the cause is shortened", () => {
    const long = retry({ status: null, message: "The connection to the API broke mid-response (ECONNRESET: The socket connection was closed unexpectedly)." });
    for (const width of [30, 45, 60, 80]) {
      const t = rowText(renderRetryLine(long, { width, now: 7_000, frame: 0 }));
      expect(displayWidth(t)).toBeLessThanOrEqual(width);
      expect(t.endsWith("; retry 2 of 8 in 3s")).toBe(true);
    }
    expect(rowText(renderRetryLine(retry(), { width: 45, now: 7_000, frame: 0 }))).toBe("⠋ API overloaded; retry 2 of 8 in 3s");
  });
});
