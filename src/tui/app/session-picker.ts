// The /resume chooser (and --resume's, without an id): this project's sessions, newest first;
// typing searches what was said in them (src/session/search.ts), each hit with its matching line;
// Ctrl-A switches between this project and every project. A session of another project is not
// opened here (its permissions, trust and files are that project's): picking one says how to.
// The logs the search index is behind on are read while the chooser is open, newest first, a
// slice at a time between keys: what they hold joins the list as it is read.
import { dirname } from "node:path";
import { projectSessionsDir } from "../../session/paths.ts";
import type { SessionSummary } from "../../session/summary.ts";
import { indexInBackground, startSessionSearch, type GrowingSearch, type SearchHit } from "../../session/search.ts";
import type { ChooserItem, ChooserOptions, ChooserView } from "./actions.ts";

export const ALL_PROJECTS_KEY = "C-a";

export type SessionPick = { kind: "here"; id: string } | { kind: "elsewhere"; id: string; cwd: string };

const SHOWN = 50;
/** How long one slice of log reading holds the keys up. */
const SLICE_MS = 25;

export type SessionChooser = { title: string; items: ChooserItem[]; options: ChooserOptions; /** What a picked value means. */ pick(value: string): SessionPick | null; empty: boolean };

/**
 * `leave` is the Esc word of the title ("cancels", "leaves"); `describe` the detail of a session;
 * `exclude` a session not to offer (the one in use); `skipped` is told, once this project's logs
 * are all read, of the lines that could not be (in words).
 */
export function sessionChooser(cwd: string, opts: { leave: string; describe: (s: SessionSummary) => string; exclude?: string; env?: Record<string, string | undefined>; skipped?: (line: string) => void }): SessionChooser {
  const searches: { here?: GrowingSearch; all?: GrowingSearch } = {};
  const watchers = new Set<() => void>();
  const open = (allProjects: boolean): GrowingSearch => {
    const key = allProjects ? "all" : "here";
    const known = searches[key];
    if (known) return known;
    const search = (searches[key] = startSessionSearch({ cwd, allProjects, ...(opts.env ? { env: opts.env } : {}) }));
    // The newest logs are read before the first frame (with no summary cache to list them from, until
    // there is something to show); the unreadable lines said at once are those of the logs read so far.
    do search.step(Date.now() + SLICE_MS);
    while (!search.done && search.sessions.every((s) => s.id === opts.exclude));
    const told = () => {
      if (!allProjects && search.done) sayCorrupt(search.corrupt);
    };
    told();
    indexInBackground(search, {
      sliceMs: SLICE_MS,
      progress: () => {
        told();
        for (const w of watchers) w();
        return watchers.size > 0;
      },
    });
    return search;
  };
  let said = false;
  const sayCorrupt = ({ lines, sessions }: { lines: number; sessions: number }) => {
    if (said || lines === 0) return;
    said = true;
    opts.skipped?.(`${lines} unreadable line${lines === 1 ? "" : "s"} in ${sessions} session log${sessions === 1 ? "" : "s"} of this project ${lines === 1 ? "was" : "were"} skipped (torn or corrupt writes); the rest is searched.`);
  };
  open(false);
  const homeDir = projectSessionsDir(cwd, opts.env);
  const elsewhere = new Map<string, string>();
  const item = (h: SearchHit, all: boolean): ChooserItem => {
    const s = h.session;
    const other = all && dirname(s.path) !== homeDir;
    if (other) elsewhere.set(s.path, s.cwd);
    const where = other ? ` · ${s.cwd || "another project"}` : "";
    return { label: s.title || "(untitled)", detail: `${opts.describe(s)}${where}${h.line ? `  › ${h.line}` : ""}`, value: other ? s.path : s.id };
  };
  const view = (all: boolean): ChooserView => {
    const search = open(all);
    const list = (q: string) =>
      search
        .query(q)
        .filter((h) => h.session.id !== opts.exclude)
        .slice(0, SHOWN)
        .map((h) => item(h, all));
    // Short: the filter typed is shown after it on the same row.
    const title = all ? `Resume from any project? Type to search · Ctrl-A this project · Esc ${opts.leave}` : `Resume which session? Type to search · Ctrl-A all projects · Esc ${opts.leave}`;
    return { title, items: list(""), search: list };
  };
  let all = false;
  const first = view(false);
  return {
    title: first.title,
    items: first.items,
    empty: first.items.length === 0,
    options: {
      ...(first.search ? { search: first.search } : {}),
      watch: (changed) => {
        watchers.add(changed);
        return () => watchers.delete(changed);
      },
      toggle: {
        key: ALL_PROJECTS_KEY,
        next: () => {
          all = !all;
          return view(all);
        },
      },
    },
    pick(value) {
      const other = elsewhere.get(value);
      if (other !== undefined) return { kind: "elsewhere", id: value.replace(/^.*\//, "").replace(/\.jsonl$/, ""), cwd: other };
      return { kind: "here", id: value };
    },
  };
}

/** What to say when a session of another project is picked. */
export function elsewhereLine(p: Extract<SessionPick, { kind: "elsewhere" }>): string {
  return `Session ${p.id.slice(0, 8)} belongs to ${p.cwd || "another project"}; resume it there: cd ${p.cwd ? JSON.stringify(p.cwd) : "<its project>"} && khaelor --resume ${p.id.slice(0, 8)}`;
}
