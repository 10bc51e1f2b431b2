// /context's report: the context window by category, as the session measured it (src/agent/
// context-usage.ts), with where the numbers come from said on the first line.
import type { ContextUsage } from "../../agent/types.ts";

const n = (x: number) => x.toLocaleString("en-US");
function pct(x: number, of: number): string {
  const share = of > 0 ? (100 * x) / of : 0;
  if (x > 0 && share < 0.1) return "<0.1%";
  return `${share.toFixed(share < 1 ? 1 : 0)}%`;
}

export function contextReport(u: ContextUsage): string {
  const threshold = u.window - u.reserve;
  const head =
    u.total === null
      ? `Context: ${u.model}, ${n(u.window)}-token window; nothing measured yet`
      : `Context: ${n(u.total)} of ${n(u.window)} tokens (${pct(u.total, u.window)}) · ${u.model}`;
  const source =
    u.source === "count_tokens"
      ? "Counted now by the API's token counting endpoint (not billed)."
      : u.source === "last_usage"
        ? `From the last response's usage (${u.fallbackReason}); no per-category counts without the endpoint.`
        : `No figures: ${u.fallbackReason}, and no response has come yet.`;
  const rows: Array<[string, number | null, string]> = u.categories.map((c) => [
    c.label,
    c.tokens,
    [c.count !== undefined ? `${c.count} tool${c.count === 1 ? "" : "s"}` : "", c.deferred ? "deferred: behind tool search, loaded when the model searches" : c.kind === "mcp" ? "sent whole" : "", c.files?.length ? c.files.join(", ") : ""]
      .filter((x) => x !== "")
      .join(", "),
  ]);
  if (u.total !== null) {
    rows.push(["Free space", Math.max(0, threshold - u.total), `before compaction starts at ${n(threshold)}`]);
    rows.push(["Compaction reserve", u.reserve, "kept free for the answer and the summary"]);
  }
  const width = Math.max(...rows.map((r) => r[0].length), 10);
  const body = rows.map(([label, tokens, note]) => `  ${label.padEnd(width)}  ${tokens === null ? "" : n(tokens).padStart(9)}${tokens !== null && u.total !== null ? `  ${pct(tokens, u.window).padStart(5)}` : ""}${note ? `  ${note}` : ""}`);
  return [head, source, ...body].join("\n");
}
