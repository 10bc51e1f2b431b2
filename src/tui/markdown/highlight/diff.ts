// Unified diff colouring by line type; no parser needed, the first characters say it all.
export type DiffLineKind = "added" | "removed" | "hunk" | "header" | null;

export function diffLineKind(line: string): DiffLineKind {
  if (line.startsWith("+++ ") || line.startsWith("--- ") || line.startsWith("diff ") || line.startsWith("index ")) return "header";
  if (line.startsWith("@@")) return "hunk";
  if (line.startsWith("+")) return "added";
  if (line.startsWith("-")) return "removed";
  return null;
}
