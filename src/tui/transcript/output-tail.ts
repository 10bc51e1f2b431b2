// The live output of a running command, as the transcript keeps it: the last lines, a carriage
// return rewriting its line as a terminal would.

/** Live output lines shown under a running command. */
export const TAIL_LINES = 5;
const MAX_LINE = 2000;

/** Keeps the last `max` complete-or-partial lines of a stream of output chunks. */
export function appendTail(lines: string[], chunk: string, max = TAIL_LINES * 4): string[] {
  const parts = chunk.replace(/\r\n/g, "\n").split("\n");
  const out = lines.slice();
  const first = parts.shift() ?? "";
  if (out.length === 0) out.push(first);
  else out[out.length - 1] = (out[out.length - 1] ?? "") + first;
  out.push(...parts);
  // A carriage return (progress bars) rewrites the line: keep what follows the last one.
  for (let i = 0; i < out.length; i++) {
    const l = out[i] ?? "";
    const cr = l.lastIndexOf("\r");
    if (cr >= 0) out[i] = l.slice(cr + 1);
  }
  const trimmed = out.length > max ? out.slice(out.length - max) : out;
  // Only the start of a huge line can ever be shown; keep memory flat under minified output.
  for (let i = 0; i < trimmed.length; i++) if ((trimmed[i] ?? "").length > MAX_LINE) trimmed[i] = (trimmed[i] ?? "").slice(0, MAX_LINE);
  return trimmed;
}
