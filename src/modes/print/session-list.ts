// This project's sessions, newest first: `khaelor sessions [--json]`, and the list print mode shows
// for `--resume` without an id; with `--search TEXT [--all-projects]`, those whose messages say it.
import { resolve } from "node:path";
import { formatCost } from "../../model/format-cost.ts";
import { listSessions } from "../../session/store.ts";
import { redactText } from "../../session/redact.ts";
import { startSessionSearch, type SessionSearch } from "../../session/search.ts";
import type { SessionSummary } from "../../session/summary.ts";
import { terminalWriter } from "../../text/terminal-out.ts";
import { EXIT } from "../shared/exit-codes.ts";
import type { RunOptions } from "../shared/run-options.ts";

type Listed = SessionSummary & { match?: string | null };

export function printSessionList(opts: Pick<RunOptions, "cwd" | "json"> & Partial<Pick<RunOptions, "search" | "allProjects">>, heading: string | null): number {
  const cwd = resolve(opts.cwd ?? process.cwd());
  if (opts.search) return printSearch(cwd, opts.search, opts.allProjects ?? false, opts.json);
  // A title is the first prompt: redacted (summaries written before redaction covered them hold it
  // in clear), and on a terminal its controls are shown, not obeyed.
  const sessions = listSessions(cwd).map((s) => ({ ...s, title: s.title ? redactText(s.title) : s.title }));
  const out = terminalWriter(process.stdout);
  if (opts.json) {
    out.write(`${JSON.stringify(sessions.map(jsonOf))}\n`);
    return EXIT.ok;
  }
  if (sessions.length === 0) {
    out.write(`No sessions for ${cwd} yet.\n`);
    return EXIT.ok;
  }
  if (heading) out.write(`${heading}\n`);
  for (const s of sessions) out.write(`${row(s)}\n`);
  return EXIT.ok;
}

function jsonOf(s: Listed) {
  return { id: s.id, title: s.title, lastActivity: new Date(s.lastActivity).toISOString(), turns: s.turns, costUsd: s.costUsd, path: s.path, ...(s.newerFormat ? { newerFormat: s.newerFormat } : {}), ...(s.match !== undefined ? { cwd: s.cwd, match: s.match } : {}) };
}

function row(s: SessionSummary): string {
  const when = new Date(s.lastActivity).toISOString().replace("T", " ").slice(0, 16);
  const turns = `${String(s.turns).padStart(3)} turn${s.turns === 1 ? " " : "s"}`;
  const newer = s.newerFormat ? "  [written by a newer KHAELOR: upgrade to resume it]" : "";
  return `${s.id.slice(0, 8)}  ${when}  ${turns}  ${formatCost(s.costUsd).padEnd(7)}  ${s.title || (s.cwd === "" && !s.newerFormat ? "(empty: nothing was saved)" : "(untitled)")}${newer}`;
}

function printSearch(cwd: string, text: string, allProjects: boolean, json: boolean): number {
  const search = startSessionSearch({ cwd, allProjects }, Date.now, { listUnread: false });
  search.step(Number.POSITIVE_INFINITY);
  // The answer first; the indexes beside the logs are written after it.
  try {
    return printHits(search, text, cwd, allProjects, json);
  } finally {
    search.save();
  }
}

function printHits(search: SessionSearch, text: string, cwd: string, allProjects: boolean, json: boolean): number {
  const hits: Listed[] = search.query(text).map((h) => ({ ...h.session, title: h.session.title ? redactText(h.session.title) : h.session.title, match: h.line === null ? null : redactText(h.line) }));
  const out = terminalWriter(process.stdout);
  const { lines, sessions } = search.corrupt;
  // Said on stderr, so the list on stdout stays the list.
  if (lines > 0) terminalWriter(process.stderr).write(`khaelor: ${lines} unreadable line${lines === 1 ? "" : "s"} in ${sessions} session log${sessions === 1 ? "" : "s"} skipped (torn or corrupt writes); the rest was searched\n`);
  if (json) {
    out.write(`${JSON.stringify(hits.map(jsonOf))}\n`);
    return EXIT.ok;
  }
  const where = allProjects ? "any project" : cwd;
  if (hits.length === 0) {
    out.write(`No session of ${where} mentions "${text}".${allProjects ? "" : " --all-projects searches every project."}\n`);
    return EXIT.ok;
  }
  for (const s of hits) {
    out.write(`${row(s)}${allProjects && s.cwd ? `  (${s.cwd})` : ""}\n`);
    if (s.match) out.write(`          › ${s.match}\n`);
  }
  return EXIT.ok;
}
