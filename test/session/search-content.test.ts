// What a session search finds beyond the messages' text: the tool calls' inputs (a command that
// was run, a path), the head and tail of each tool result (where an error usually is), thinking,
// and `!` commands; all over real logs written by the session store, read through the index.
import { describe, expect, test } from "bun:test";
import { rmSync, utimesSync } from "node:fs";
import { openSessionSearch, startSessionSearch, indexInBackground } from "../../src/session/search.ts";
import { TOOL_TEXT_BYTES } from "../../src/session/search-line.ts";
import { listSessions } from "../../src/session/store.ts";
import { metaPathOf } from "../../src/session/paths.ts";
import type { DurableEvent } from "../../src/events/types.ts";
import { assistant, text, toolResult, toolUse, user } from "./make-events.ts";
import { scratch } from "../support/scratch.ts";
import { dataHome, writeSession } from "../export/support.ts";

const filler = (n: number) => Array.from({ length: n }, (_, i) => `line ${i} of the build output`).join("\n");

function session(events: DurableEvent[]) {
  const { env } = dataHome();
  const cwd = scratch("khaelor-search-");
  const s = writeSession(cwd, env, events);
  return { env, cwd, ...s, search: () => openSessionSearch({ cwd, allProjects: false, env }) };
}

describe("search finds what the tools did", () => {
  test("a command the model ran, a path it read, and an error at the end of a long output, each with its line", () => {
    const long = `${filler(2000)}\nerror: TS2345 argument of type Kumquat is not assignable`;
    const p = session([
      user("Fix the build"),
      assistant([text("Running the tests."), toolUse("t1", "bash", { command: "bun test --filter flaky-parser", description: "the parser tests" }), toolUse("t2", "read", { file_path: "src/zebra/crossing.ts" })]),
      toolResult("t1", long, { isError: true }),
      toolResult("t2", [{ type: "text", text: "export const stripes = 12;" }]),
    ]);
    const s = p.search();
    expect(s.query("flaky-parser").map((h) => h.line)).toEqual(["bash: bun test --filter flaky-parser"]);
    expect(s.query("zebra/crossing").map((h) => h.line)).toEqual(["read: src/zebra/crossing.ts"]);
    expect(s.query("ts2345").map((h) => h.line)).toEqual(["error: TS2345 argument of type Kumquat is not assignable"]);
    expect(s.query("line 0 of the build").map((h) => h.session.id)).toEqual([p.id]);
    expect(s.query("stripes = 12").length).toBe(1);
    // The middle of a long output is not kept: the index holds each result's head and tail.
    expect(s.query("line 1000 of the build").length).toBe(0);
  });

  test("thinking and the user's ! commands are found too", () => {
    const p = session([
      user("why?"),
      assistant([{ type: "thinking", thinking: "Maybe the quince cache is stale.", signature: "sig" }, text("Let me look.")]),
      user("output of git status:\nOn branch plum-tree", { synthetic: "shell", shell: { runId: "r1", command: "git status --short", exitCode: 0, durationMs: 3 } }),
    ]);
    const s = p.search();
    expect(s.query("quince").map((h) => h.line)).toEqual(["Maybe the quince cache is stale."]);
    expect(s.query("git status --short").map((h) => h.line)).toEqual(["! git status --short"]);
    expect(s.query("plum-tree").map((h) => h.line)).toEqual(["On branch plum-tree"]);
  });

  test("the head and tail of a result are cut cleanly whatever the escapes and characters at the cut", () => {
    // Quotes, backslashes, tabs and characters of 2, 3 and 4 bytes, moved across both cut points.
    const tricky = '"\\\t é€😀 ';
    for (let shift = 0; shift < 12; shift++) {
      const head = `${"h".repeat(TOOL_TEXT_BYTES - 20 + shift)}${tricky.repeat(3)}`;
      const tail = `${tricky.repeat(3)}${"t".repeat(40 + shift)}\nfinal: the cherry "failed" ✓`;
      const p = session([user("go"), assistant([toolUse("t1")]), toolResult("t1", `${head}\n${filler(300)}\n${tail}`)]);
      const s = p.search();
      expect(s.query('cherry "failed" ✓').map((h) => h.line)).toEqual(['final: the cherry "failed" ✓']);
      expect(s.query("hhhhh").length).toBe(1);
      expect(s.corrupt.lines).toBe(0);
    }
  });
});

describe("summaries without the logs' summary caches", () => {
  test("the index folds each session's summary from the same bytes: the list is the one listSessions reads", () => {
    const { env } = dataHome();
    const cwd = scratch("khaelor-search-");
    writeSession(cwd, env, [user("First question"), assistant([text("An answer.")]), user("Second")]);
    writeSession(cwd, env, [user("Another"), assistant([toolUse("t1")]), toolResult("t1", "x"), { id: "sc", ts: 1_800_000_000_000, type: "setting_change", title: "Renamed by hand" } as DurableEvent]);
    const listed = listSessions(cwd, env);
    for (const s of listed) rmSync(metaPathOf(s.path));
    const cold = openSessionSearch({ cwd, allProjects: false, env });
    const warm = openSessionSearch({ cwd, allProjects: false, env });
    const fields = (xs: typeof listed) => xs.map(({ id, title, turns, costUsd, lastActivity, model, cwd: c }) => ({ id, title, turns, costUsd: Math.round(costUsd * 1e6), lastActivity, model, cwd: c }));
    expect(fields(cold.sessions)).toEqual(fields(listed));
    expect(fields(warm.sessions)).toEqual(fields(listed));
    expect(warm.indexing.bytesRead).toBe(0);
    expect(listed.map((s) => s.title)).toContain("Renamed by hand");
  });
});

describe("reading the logs between keys", () => {
  test("newest first, a slice at a time: results grow as logs are read, and the work is saved for the next search", async () => {
    const { env } = dataHome();
    const cwd = scratch("khaelor-search-");
    const ids: string[] = [];
    for (let k = 0; k < 6; k++) {
      const w = writeSession(cwd, env, [{ ...user(`session ${k}`), ts: 1_700_000_000_000 + k * 1000 }, assistant([text(`the persimmon is number ${k}`)])]);
      // The file's time says which log is newest (the summary cache keeps it).
      utimesSync(w.path, 1_700_000_000 + k, 1_700_000_000 + k);
      rmSync(metaPathOf(w.path));
      ids.push(w.id);
    }
    let now = 0;
    // A clock that moves one ms per look: each slice of 1 ms reads one log.
    const clock = () => now++;
    const s = startSessionSearch({ cwd, allProjects: false, env }, clock);
    // No summary cache to list them from (the file times changed): nothing is listed before it is read.
    expect(s.sessions.length).toBe(0);
    s.step(clock());
    expect(s.done).toBe(false);
    // The newest log is read first.
    expect(s.sessions.map((x) => x.title)).toEqual(["session 5"]);
    expect(s.query("persimmon").map((h) => h.line)).toEqual(["the persimmon is number 5"]);
    const seen: number[] = [];
    await new Promise<void>((resolve) =>
      indexInBackground(s, {
        clock,
        sliceMs: 1,
        progressMs: 0,
        progress: () => {
          seen.push(s.query("persimmon").length);
          if (s.done) resolve();
          return true;
        },
      }),
    );
    expect(seen.at(-1)).toBe(6);
    expect(seen.length).toBeGreaterThan(1);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(openSessionSearch({ cwd, allProjects: false, env }).indexing.bytesRead).toBe(0);
  });

  test("a search left before its end keeps what it read: the next one reads only the rest", () => {
    const { env } = dataHome();
    const cwd = scratch("khaelor-search-");
    const paths = [0, 1, 2].map((k) => writeSession(cwd, env, [user(`s${k}`), assistant([text("fig")])]).path);
    let now = 0;
    const s = startSessionSearch({ cwd, allProjects: false, env }, () => now++);
    s.step(0);
    s.save();
    const next = openSessionSearch({ cwd, allProjects: false, env });
    const total = paths.reduce((n, p) => n + Bun.file(p).size, 0);
    expect(s.indexing.bytesRead).toBeGreaterThan(0);
    expect(s.indexing.bytesRead).toBeLessThan(total);
    expect(next.indexing.bytesRead).toBe(total - s.indexing.bytesRead);
    expect(next.query("fig").length).toBe(3);
  });
});
