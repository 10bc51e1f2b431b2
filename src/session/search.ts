// Searching sessions by what was said in them: `khaelor sessions --search` and typing in /resume.
// The indexes (./search-index.ts) are brought up to date once when a search opens; each query then
// runs over the text in memory, so a keystroke costs a scan of the text, not a read of the logs.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { openProjectIndex } from "./search-index.ts";
import { projectSessionsDir, sessionsRoot } from "./paths.ts";
import { summarizeSession } from "./store.ts";
import type { SessionSummary } from "./summary.ts";

type Env = Record<string, string | undefined>;

export type SearchScope = { cwd: string; allProjects: boolean; env?: Env };

export type SearchHit = {
  session: SessionSummary;
  /** The line that matched (clipped around the match), or null when only the title or id did. */
  line: string | null;
};

export type SessionSearch = {
  /** Sessions whose messages (or title, or id) contain `query`, any case; newest first. */
  query(query: string): SearchHit[];
  /** Every session in scope, newest first (the empty query). */
  sessions: SessionSummary[];
  /** Lines of the logs that could not be read, and in how many sessions: skipped. */
  corrupt: { lines: number; sessions: number };
  /** How the indexes were brought up to date: log bytes read, and whether any was built from scratch. */
  indexing: { bytesRead: number; rebuilt: boolean; ms: number };
};

type Searchable = { session: SessionSummary; text: string; lower: string | null };

function projectDirs(scope: SearchScope): string[] {
  if (!scope.allProjects) return [projectSessionsDir(scope.cwd, scope.env)];
  const root = sessionsRoot(scope.env);
  try {
    return readdirSync(root, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(root, d.name));
  } catch {
    return [];
  }
}

const CLIP = 120;

/** The line around the match at `at` (an index into `line`), at most CLIP characters. */
export function clipAround(line: string, at: number, length: number): string {
  if (line.length <= CLIP) return line;
  const before = Math.max(0, Math.min(at - 30, line.length - CLIP));
  const end = Math.min(line.length, Math.max(before + CLIP, at + length));
  return `${before > 0 ? "…" : ""}${line.slice(before, end)}${end < line.length ? "…" : ""}`;
}

/** The matching line of `s` for a lower-cased query, or undefined when nothing matches. */
function matchIn(s: Searchable, q: string): string | null | undefined {
  s.lower ??= s.text.toLowerCase();
  const i = s.lower.indexOf(q);
  if (i !== -1) {
    // Lower-casing keeps every "\n" (it may change other lengths), so the line number carries over.
    const lineNo = countNewlines(s.lower, i);
    const lineStart = s.lower.lastIndexOf("\n", i) + 1;
    const line = nthLine(s.text, lineNo);
    const lowerLine = line.toLowerCase();
    const at = lowerLine.indexOf(q);
    return clipAround(line, at === -1 ? i - lineStart : at, q.length);
  }
  if (s.session.title.toLowerCase().includes(q) || s.session.id.toLowerCase().startsWith(q)) return null;
  return undefined;
}

function countNewlines(s: string, end: number): number {
  let n = 0;
  for (let i = s.indexOf("\n"); i !== -1 && i < end; i = s.indexOf("\n", i + 1)) n++;
  return n;
}

function nthLine(s: string, n: number): string {
  let start = 0;
  for (let k = 0; k < n; k++) start = s.indexOf("\n", start) + 1;
  const end = s.indexOf("\n", start);
  return s.slice(start, end === -1 ? s.length : end);
}

export function openSessionSearch(scope: SearchScope, clock: () => number = Date.now): SessionSearch {
  const started = clock();
  const all: Searchable[] = [];
  let bytesRead = 0;
  let rebuilt = false;
  const corrupt = { lines: 0, sessions: 0 };
  for (const dir of projectDirs(scope)) {
    const index = openProjectIndex(dir);
    bytesRead += index.bytesRead;
    rebuilt ||= index.state === "fresh" && index.sessions.size > 0;
    for (const [name, entry] of index.sessions) {
      const session = summarizeSession(join(dir, name));
      if (!session) continue;
      if (entry.corrupt > 0) {
        corrupt.lines += entry.corrupt;
        corrupt.sessions++;
      }
      all.push({ session, text: entry.text, lower: null });
    }
  }
  all.sort((a, b) => b.session.lastActivity - a.session.lastActivity);
  return {
    sessions: all.map((s) => s.session),
    corrupt,
    indexing: { bytesRead, rebuilt, ms: clock() - started },
    query(query) {
      const q = query.trim().toLowerCase();
      if (q === "") return all.map((s) => ({ session: s.session, line: null }));
      const hits: SearchHit[] = [];
      for (const s of all) {
        const line = matchIn(s, q);
        if (line !== undefined) hits.push({ session: s.session, line });
      }
      return hits;
    },
  };
}
