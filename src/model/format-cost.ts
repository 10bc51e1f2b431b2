/** Money as the status line, the exit line and `khaelor sessions` show it: $0.026, $1.24, $0.00. */
export function formatCost(usd: number | null): string {
  if (usd === null) return "cost unknown";
  return usd < 0.995 && usd > 0 ? `$${usd.toFixed(usd < 0.1 ? 3 : 2)}` : `$${usd.toFixed(2)}`;
}
