// Session search at scale: 1,000 sessions in 10 projects, about 100 MB of logs. Timed from the
// moment the search opens (as /resume opens it, or `khaelor sessions --search` starts) to the
// results of the first keystroke and of the whole word: cold (no index beside the logs: every log
// read), warm (the index there and current), after 10 logs grew, cold again with no summary cache
// beside any log, and one keystroke once open. "first" is what /resume shows first: the search
// opened, one slice of logs read (newest first, as the picker reads them between keys) and the
// first keystroke's results; the rest arrive as the picker goes on reading.
import { readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DurableEvent } from "../src/events/types.ts";
import * as search from "../src/session/search.ts";
import { INDEX_FILE } from "../src/session/search-index.ts";
import { createSession, openSessionForAppend } from "../src/session/store.ts";
import type { BenchResult } from "./run.ts";

const SESSIONS = 1000;
const PROJECTS = 10;
const TURNS = 20;
const WORDS = "parser token module build cache retry stream index offset commit branch review test flaky fixture render layout width cursor shell process signal timeout buffer socket config schema migration".split(" ");

function sentence(rnd: () => number, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(rnd() * WORDS.length)]!);
  return out.join(" ");
}

/** One plausible session: turns of a question, an answer with a tool call, and its ~4 KB output. */
function sessionEvents(k: number, rnd: () => number, turns = TURNS): DurableEvent[] {
  const events: DurableEvent[] = [];
  let ts = 1_700_000_000_000 + k * 100_000;
  const ev = (e: Record<string, unknown>) => events.push({ id: `e${k}-${events.length}`, ts: ts++, ...e } as unknown as DurableEvent);
  for (let t = 0; t < turns; t++) {
    ev({ type: "user_message", content: `${sentence(rnd, 12)}${k === 777 && t === 13 ? " and the kumquat bug" : ""}` });
    ev({ type: "assistant_message", costUsd: 0.001, message: { id: `m${t}`, model: "claude-sonnet-5-5", stop_reason: "tool_use", usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, content: [{ type: "text", text: `${sentence(rnd, 40)}\n${sentence(rnd, 30)}` }, { type: "tool_use", id: `tu${t}`, name: "bash", input: { command: "bun test" } }] } });
    ev({ type: "tool_result", toolUseId: `tu${t}`, name: "bash", content: sentence(rnd, 600), isError: false, kind: "ok", summary: "bash: bun test", durationMs: 5 });
  }
  return events;
}

function time<T>(f: () => T): { ms: number; value: T } {
  const t0 = performance.now();
  const value = f();
  return { ms: Math.round((performance.now() - t0) * 10) / 10, value };
}

export async function run(): Promise<BenchResult[]> {
  const home = join(tmpdir(), `khaelor-search-bench-${process.pid}`);
  const env = { KHAELOR_HOME: home };
  let seed = 7;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const cwds = Array.from({ length: PROJECTS }, (_, i) => `/work/project-${i}`);
  let bytes = 0;
  try {
    // Written by the session store itself, so each log has the summary cache beside it a real one has.
    const paths: string[] = [];
    for (let k = 0; k < SESSIONS; k++) {
      const w = createSession({ cwd: cwds[k % PROJECTS]!, model: "claude-sonnet-5-5", permissionMode: "default", env, seed: sessionEvents(k, rnd), sessionId: `s${String(k).padStart(4, "0")}` });
      paths.push(w.path);
      w.close();
      bytes += statSync(w.path).size;
    }
    const here = cwds[777 % PROJECTS]!;
    // What /resume shows first (absent before the search grew in the background).
    const start = (search as Partial<{ startSessionSearch: (scope: { cwd: string; allProjects: boolean; env: Record<string, string> }, clock?: () => number, opts?: { listUnread?: boolean }) => search.SessionSearch & { step(until: number): boolean; save(): void } }>).startSessionSearch;
    // Until the answer (as `khaelor sessions --search` prints it): every log read, both queries run.
    // The index is saved after the answer; `saveMs` is that write (before, the open included it).
    const searchOnce = (allProjects: boolean) => {
      let save: (() => void) | null = null;
      const answered = time(() => {
        let s: search.SessionSearch;
        if (start) {
          const growing = start({ cwd: here, allProjects, env }, Date.now, { listUnread: false });
          growing.step(Number.POSITIVE_INFINITY);
          save = () => growing.save();
          s = growing;
        } else s = search.openSessionSearch({ cwd: here, allProjects, env });
        const first = s.query("k");
        const word = s.query("kumquat");
        return { s, first: first.length, word: word.length };
      });
      const saved = save ? time(save).ms : null;
      return { ...answered, saveMs: saved };
    };
    const firstResults = (allProjects: boolean) =>
      start
        ? time(() => {
            const s = start({ cwd: here, allProjects, env });
            s.step(Date.now() + 25);
            return s.query("k").length;
          }).ms
        : null;
    const clearIndexes = () => {
      for (const d of readdirSync(join(home, "sessions"))) rmSync(join(home, "sessions", d, INDEX_FILE), { force: true });
    };
    clearIndexes();
    const coldFirst = firstResults(true);
    clearIndexes();
    const coldHere = searchOnce(false);
    const warmHere = searchOnce(false);
    clearIndexes();
    const coldAll = searchOnce(true);
    const warmFirst = firstResults(true);
    const warmAll = searchOnce(true);
    // Ten logs grew by a turn: each is read on from where it was indexed (every project's index
    // current before: this row once measured nine projects cold).
    for (let k = 0; k < 10; k++) {
      const w = openSessionForAppend(paths[k]!);
      for (const e of sessionEvents(9000 + k, rnd, 1)) w.append(e);
      w.close();
    }
    const grownAll = searchOnce(true);
    // Logs without their summary caches (deleted, or written by a KHAELOR that kept none).
    for (const d of readdirSync(join(home, "sessions"))) for (const f of readdirSync(join(home, "sessions", d))) if (f.endsWith(".meta.json")) rmSync(join(home, "sessions", d, f));
    clearIndexes();
    const noMetaFirst = firstResults(true);
    clearIndexes();
    const noMetaCold = searchOnce(true);
    const noMetaWarm = searchOnce(true);
    // Once open (as in /resume while typing): one keystroke is a query over the text in memory.
    const open = warmAll.value.s;
    open.query("kumqua");
    const keystroke = time(() => open.query("kumquat").length);
    const indexBytes = readdirSync(join(home, "sessions")).reduce((n, d) => n + (statSync(join(home, "sessions", d, INDEX_FILE), { throwIfNoEntry: false })?.size ?? 0), 0);
    return [
      {
        name: "search: 1,000 sessions, all projects (open + first keystroke + the word)",
        sessions: SESSIONS,
        logMB: Math.round(bytes / 1e5) / 10,
        indexMB: Math.round(indexBytes / 1e5) / 10,
        coldMs: coldAll.ms,
        coldSaveMs: coldAll.saveMs,
        warmMs: warmAll.ms,
        after10GrewMs: grownAll.ms,
        after10GrewSaveMs: grownAll.saveMs,
        noSummaryCachesColdMs: noMetaCold.ms,
        noSummaryCachesWarmMs: noMetaWarm.ms,
        firstResultsColdMs: coldFirst,
        firstResultsWarmMs: warmFirst,
        firstResultsNoSummaryCachesMs: noMetaFirst,
        keystrokeOnceOpenMs: keystroke.ms,
        hits: { firstKeystroke: warmAll.value.first, word: warmAll.value.word, wordNoSummaryCaches: noMetaCold.value.word },
      },
      { name: "search: one project (100 sessions)", coldMs: coldHere.ms, warmMs: warmHere.ms, hits: { word: warmHere.value.word } },
    ];
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
