// Searching sessions by what was said in them: `khaelor sessions --search` and typing in /resume.
// The indexes (./search-index.ts) are loaded when a search opens and the logs they are behind on
// are read newest first, all at once (`openSessionSearch`) or a slice at a time between keys
// (`startSessionSearch` with `indexInBackground`: /resume shows what is found as it is found).
// Each query runs over the text in memory, so a keystroke costs a scan of the text, not a read of
// the logs.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { indexLog, loadProjectIndex, saveProjectIndex, type IndexEntry, type PendingLog, type ProjectIndex } from "./search-index.ts";
import { projectSessionsDir, sessionsRoot } from "./paths.ts";
import { readSummaryCache } from "./store.ts";
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
  readonly sessions: SessionSummary[];
  /** Lines of the logs that could not be read, and in how many sessions: skipped. */
  readonly corrupt: { lines: number; sessions: number };
  /** How the indexes were brought up to date: log bytes read, whether any was built from scratch, and the time it took (so far). */
  readonly indexing: { bytesRead: number; rebuilt: boolean; ms: number };
};

/** A search whose logs are still being read: `step` reads more of them, newest first. */
export type GrowingSearch = SessionSearch & {
  /** Reads logs until the clock passes `until` (at least one); true once every log is read. */
  step(until: number): boolean;
  readonly done: boolean;
  /**
   * Saves what was read into the indexes beside the logs (a search left before its end keeps its
   * work for the next). Apart from step, so a search can answer first and save after.
   */
  save(): void;
};

type Searchable = { session: SessionSummary; text: string };

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

/**
 * The matching line of `s` for a query, or undefined when nothing matches. The text is searched
 * as it is, by a case-blind pattern: lower-casing every session's text first cost most of a search.
 */
function matchIn(s: Searchable, q: Query): string | null | undefined {
  const m = q.pattern.exec(s.text);
  if (m) {
    const lineStart = s.text.lastIndexOf("\n", m.index) + 1;
    const lineEnd = s.text.indexOf("\n", m.index);
    const line = s.text.slice(lineStart, lineEnd === -1 ? s.text.length : lineEnd);
    return clipAround(line, m.index - lineStart, m[0].length);
  }
  if (q.pattern.test(s.session.title) || s.session.id.toLowerCase().startsWith(q.lower)) return null;
  return undefined;
}

type Query = { pattern: RegExp; lower: string };

function queryOf(text: string): Query {
  return { pattern: new RegExp(text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "iu"), lower: text.toLowerCase() };
}

/**
 * A search with its indexes loaded and nothing read from the logs yet. `listUnread`: the sessions
 * whose logs are still to read are listed from their summary caches (what a chooser shows before
 * it has read them); a search that reads everything first needs not.
 */
export function startSessionSearch(scope: SearchScope, clock: () => number = Date.now, opts: { listUnread?: boolean } = {}): GrowingSearch {
  const started = clock();
  let finishedAt: number | null = null;
  const projects = projectDirs(scope).map(loadProjectIndex);
  const byPath = new Map<string, Searchable>();
  const entries = new Map<string, IndexEntry>();
  let sorted: Searchable[] = [];
  let dirty = true;
  const put = (path: string, session: SessionSummary, entry: IndexEntry | null) => {
    byPath.set(path, { session, text: entry?.text ?? "" });
    if (entry) entries.set(path, entry);
    dirty = true;
  };
  const queue: Array<{ project: ProjectIndex; log: PendingLog }> = [];
  for (const project of projects) {
    for (const [name, entry] of project.sessions) {
      const path = join(project.dir, name);
      put(path, summaryOf(path, entry, project.mtimes.get(name) ?? 0), entry);
    }
    for (const log of project.pending) {
      queue.push({ project, log });
      // Until its log is read, a session is listed (and found by its title) from its summary cache.
      const cached = opts.listUnread === false ? null : readSummaryCache(log.path, log.size, log.mtimeMs);
      if (cached) put(log.path, { ...cached, path: log.path }, null);
    }
    project.pending = [];
  }
  queue.sort((a, b) => b.log.mtimeMs - a.log.mtimeMs);
  let nextLog = 0;
  const all = () => {
    if (dirty) sorted = [...byPath.values()].sort((a, b) => b.session.lastActivity - a.session.lastActivity);
    dirty = false;
    return sorted;
  };
  const finish = () => {
    finishedAt ??= clock();
  };
  if (queue.length === 0) finish();
  return {
    get sessions() {
      return all().map((s) => s.session);
    },
    get corrupt() {
      const corrupt = { lines: 0, sessions: 0 };
      for (const e of entries.values()) {
        corrupt.lines += e.corrupt;
        if (e.corrupt > 0) corrupt.sessions++;
      }
      return corrupt;
    },
    get indexing() {
      const bytesRead = projects.reduce((n, p) => n + p.bytesRead, 0);
      return { bytesRead, rebuilt: projects.some((p) => p.fresh && p.sessions.size > 0), ms: (finishedAt ?? clock()) - started };
    },
    get done() {
      return finishedAt !== null;
    },
    step(until) {
      do {
        const next = queue[nextLog];
        if (!next) break;
        nextLog++;
        const entry = indexLog(next.project, next.log);
        if (entry) put(next.log.path, summaryOf(next.log.path, entry, next.log.mtimeMs), entry);
      } while (clock() < until);
      if (nextLog >= queue.length) finish();
      return finishedAt !== null;
    },
    save() {
      for (const p of projects) saveProjectIndex(p);
    },
    query(query) {
      const trimmed = query.trim();
      if (trimmed === "") return all().map((s) => ({ session: s.session, line: null }));
      const q = queryOf(trimmed);
      const hits: SearchHit[] = [];
      for (const s of all()) {
        const line = matchIn(s, q);
        if (line !== undefined) hits.push({ session: s.session, line });
      }
      return hits;
    },
  };
}

/** The summary an entry folded; a log of a newer KHAELOR is marked, and lasts at least until its file's time. */
function summaryOf(path: string, entry: IndexEntry, mtimeMs: number): SessionSummary {
  const s = entry.fold.summary;
  const lastActivity = entry.newer !== undefined || s.lastActivity === 0 ? Math.max(s.lastActivity, mtimeMs) : s.lastActivity;
  return { ...s, lastActivity, path, ...(entry.newer !== undefined ? { newerFormat: entry.newer } : {}) };
}

/** Every log read first and the indexes saved. */
export function openSessionSearch(scope: SearchScope, clock: () => number = Date.now): SessionSearch {
  const search = startSessionSearch(scope, clock, { listUnread: false });
  search.step(Number.POSITIVE_INFINITY);
  search.save();
  return search;
}

/**
 * Reads the rest of a search's logs a slice at a time (`sliceMs`), giving the event loop back
 * between slices so keys are answered; `progress` is told at most every `progressMs` and at the
 * end, and stops the reading by returning false (the picker closed). Returns a stop of its own.
 */
export function indexInBackground(search: GrowingSearch, opts: { progress: () => boolean; clock?: () => number; sliceMs?: number; progressMs?: number }): () => void {
  const clock = opts.clock ?? Date.now;
  const slice = opts.sliceMs ?? 25;
  const every = opts.progressMs ?? 100;
  let stopped = false;
  let told = clock();
  const tick = () => {
    if (stopped) return;
    const already = search.done;
    const done = already || search.step(clock() + slice);
    if ((done && !already) || clock() - told >= every) {
      told = clock();
      if (!opts.progress()) stopped = true;
    }
    // The indexes are written once the reading ends (or stops), after what it found was shown.
    if (done || stopped) {
      stopped = true;
      search.save();
    } else setImmediate(tick);
  };
  setImmediate(tick);
  return () => {
    if (stopped) return;
    stopped = true;
    search.save();
  };
}
