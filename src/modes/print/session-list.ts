// This project's sessions, newest first: `khaelor sessions [--json]`, and the list print mode shows
// for `--resume` without an id.
import { resolve } from "node:path";
import { formatCost } from "../../model/format-cost.ts";
import { listSessions } from "../../session/store.ts";
import { redactText } from "../../session/redact.ts";
import { terminalWriter } from "../../text/terminal-out.ts";
import { EXIT } from "../shared/exit-codes.ts";
import type { RunOptions } from "../shared/run-options.ts";

export function printSessionList(opts: Pick<RunOptions, "cwd" | "json">, heading: string | null): number {
  const cwd = resolve(opts.cwd ?? process.cwd());
  // A title is the first prompt: redacted (summaries written before redaction covered them hold it
  // in clear), and on a terminal its controls are shown, not obeyed.
  const sessions = listSessions(cwd).map((s) => ({ ...s, title: s.title ? redactText(s.title) : s.title }));
  const out = terminalWriter(process.stdout);
  if (opts.json) {
    out.write(`${JSON.stringify(sessions.map((s) => ({ id: s.id, title: s.title, lastActivity: new Date(s.lastActivity).toISOString(), turns: s.turns, costUsd: s.costUsd, path: s.path, ...(s.newerFormat ? { newerFormat: s.newerFormat } : {}) })))}\n`);
    return EXIT.ok;
  }
  if (sessions.length === 0) {
    out.write(`No sessions for ${cwd} yet.\n`);
    return EXIT.ok;
  }
  if (heading) out.write(`${heading}\n`);
  for (const s of sessions) {
    const when = new Date(s.lastActivity).toISOString().replace("T", " ").slice(0, 16);
    const turns = `${String(s.turns).padStart(3)} turn${s.turns === 1 ? " " : "s"}`;
    const newer = s.newerFormat ? "  [written by a newer KHAELOR: upgrade to resume it]" : "";
    out.write(`${s.id.slice(0, 8)}  ${when}  ${turns}  ${formatCost(s.costUsd).padEnd(7)}  ${s.title || (s.cwd === "" && !s.newerFormat ? "(empty: nothing was saved)" : "(untitled)")}${newer}\n`);
  }
  return EXIT.ok;
}
