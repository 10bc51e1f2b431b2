// The one live line shown while the model client waits to retry a failed request: what went
// wrong, which retry is next and a countdown to it. It lives in the live zone only; a retry that
// succeeds leaves nothing behind, and a turn that finally fails says so in its error line.
import type { Row, Span } from "../render/style.ts";
import { clipSpans, cleanText, span, spansWidth } from "./text.ts";
import { ui } from "./theme.ts";
import { SPINNER } from "./tool-row.ts";
import { trimEndChars } from "../../text/trim-chars.ts";
import type { RetryView } from "../transcript/entry.ts";

/** What failed, in a few words: the status says it for HTTP errors; a dropped stream has only its message. */
export function retryCause(status: number | null, message: string): string {
  if (status === 429) return "API rate limit reached";
  if (status === 529) return "API overloaded";
  if (status === 408) return "API request timed out";
  if (status !== null && status >= 500) return `API server error (${status})`;
  // The message is a sentence of our own; inside this line its closing period would read "…).;".
  return trimEndChars(cleanText(message.trim()), ".\\s") || "API request failed";
}

export function retryCountdown(r: RetryView, now: number): string {
  const which = r.maxRetries ? `retry ${r.attempt} of ${r.maxRetries}` : `retry ${r.attempt}`;
  const secs = Math.ceil((r.until - now) / 1000);
  return secs > 0 ? `${which} in ${secs}s` : `${which} now`;
}

/**
 * At narrow widths the "Esc to interrupt" help goes first, then the cause is shortened: the
 * countdown is what changes and what the user waits on, so it always shows.
 */
export function renderRetryLine(r: RetryView, opts: { width: number; now: number; frame: number }): Row {
  const head: Span[] = [span(`${SPINNER[opts.frame % SPINNER.length] ?? "·"} `, ui.warn)];
  const cause: Span[] = [span(retryCause(r.status, r.message), ui.warn)];
  const tail: Span[] = [span(`; ${retryCountdown(r, opts.now)}`, ui.warn)];
  const help: Span[] = [span("  Esc to interrupt", ui.dim)];
  const whole = [...head, ...cause, ...tail];
  if (spansWidth(whole) + spansWidth(help) <= opts.width) return { spans: [...whole, ...help] };
  const room = opts.width - spansWidth(head) - spansWidth(tail);
  return { spans: clipSpans([...head, ...clipSpans(cause, Math.max(1, room), true), ...tail], opts.width, true) };
}
