// Searching sessions by what was said in them, over real logs written by the session store: the
// index beside the logs (read on from where each log was last read; rebuilt when missing or
// corrupt), a corrupt log line skipped and counted, and `khaelor sessions --search` as a real process.
import { describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { openSessionSearch } from "../../src/session/search.ts";
import { INDEX_FILE } from "../../src/session/search-index.ts";
import { serializeEvent } from "../../src/events/schema.ts";
import { assistant, text, user } from "./make-events.ts";
import { scratch } from "../support/scratch.ts";
import { runCli } from "../support/cli.ts";
import { dataHome, writeSession } from "../export/support.ts";

function twoProjects() {
  const { home, env } = dataHome();
  const here = scratch("khaelor-here-");
  const there = scratch("khaelor-there-");
  const a = writeSession(here, env, [user("Add a --verbose flag"), assistant([text("Done.\nThe Flaky test in parser.test.ts was the cause.")])]);
  const b = writeSession(here, env, [user("Rename the module"), assistant([text("Renamed.")])]);
  const c = writeSession(there, env, [user("why is the flaky test flaky?"), assistant([text("A race.")])]);
  return { home, env, here, there, a, b, c };
}

describe("session search", () => {
  test("finds sessions by any text of their messages, any case, with the line; this project or all", () => {
    const p = twoProjects();
    const mine = openSessionSearch({ cwd: p.here, allProjects: false, env: p.env });
    const hits = mine.query("FLAKY TEST");
    expect(hits.map((h) => h.session.id)).toEqual([p.a.id]);
    expect(hits[0]!.line).toBe("The Flaky test in parser.test.ts was the cause.");
    // The title still matches (with no line to show), and the empty query lists them all.
    expect(mine.query("rename the").map((h) => [h.session.id, h.line])).toEqual([[p.b.id, "Rename the module"]]);
    expect(mine.query("").length).toBe(2);
    const all = openSessionSearch({ cwd: p.here, allProjects: true, env: p.env });
    expect(all.query("flaky test").map((h) => h.session.id).sort()).toEqual([p.a.id, p.c.id].sort());
    expect(all.query("nothing says this")).toEqual([]);
  });

  test("the index beside the logs: built once, then read on only from where a log grew; rebuilt when corrupt or missing", () => {
    const p = twoProjects();
    const indexPath = join(dirname(p.a.path), INDEX_FILE);
    const cold = openSessionSearch({ cwd: p.here, allProjects: false, env: p.env });
    expect(existsSync(indexPath)).toBe(true);
    expect(cold.indexing.rebuilt).toBe(true);
    expect(cold.indexing.bytesRead).toBe(statSync(p.a.path).size + statSync(p.b.path).size);
    const warm = openSessionSearch({ cwd: p.here, allProjects: false, env: p.env });
    expect(warm.indexing).toMatchObject({ bytesRead: 0, rebuilt: false });
    // A log that grew is read from its last indexed offset: only the new line.
    const line = `${serializeEvent(user("and the zebra crossing"))}\n`;
    appendFileSync(p.b.path, line);
    const grown = openSessionSearch({ cwd: p.here, allProjects: false, env: p.env });
    expect(grown.indexing.bytesRead).toBe(Buffer.byteLength(line));
    expect(grown.query("zebra").map((h) => h.session.id)).toEqual([p.b.id]);
    // Corrupt: rebuilt from the logs, same answers.
    writeFileSync(indexPath, '{"v":1,"sessions":{"x.jsonl":{"offset":"');
    const repaired = openSessionSearch({ cwd: p.here, allProjects: false, env: p.env });
    expect(repaired.indexing.rebuilt).toBe(true);
    expect(repaired.query("zebra").map((h) => h.session.id)).toEqual([p.b.id]);
    expect(JSON.parse(readFileSync(indexPath, "utf8").split("\n")[0]!).v).toBe(2);
  });

  test("a corrupt log line is skipped and counted; the rest of that log is searched", () => {
    const p = twoProjects();
    appendFileSync(p.a.path, `{"v":3,"type":"user_message","content":"torn\n${serializeEvent(user("after the damage, kumquat"))}\n`);
    const s = openSessionSearch({ cwd: p.here, allProjects: false, env: p.env });
    expect(s.corrupt).toEqual({ lines: 1, sessions: 1 });
    expect(s.query("kumquat").map((h) => h.session.id)).toEqual([p.a.id]);
  });
});

describe("khaelor sessions --search (the CLI)", () => {
  test("lists matching sessions with their line; --all-projects adds the others; a corrupt line is said on stderr", async () => {
    const p = twoProjects();
    appendFileSync(p.a.path, "not json at all\n");
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: join(p.home, ".."), KHAELOR_HOME: p.home };
    const r = await runCli(["sessions", "--search", "flaky TEST"], { cwd: p.here, env });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(p.a.id.slice(0, 8));
    expect(r.stdout).toContain("› The Flaky test in parser.test.ts was the cause.");
    expect(r.stdout).not.toContain(p.c.id.slice(0, 8));
    expect(r.stderr).toContain("1 unreadable line in 1 session log skipped");
    const all = await runCli(["sessions", "--search", "flaky test", "--all-projects", "--json"], { cwd: p.here, env });
    const rows = JSON.parse(all.stdout) as Array<{ id: string; cwd: string; match: string }>;
    expect(rows.map((x) => x.id).sort()).toEqual([p.a.id, p.c.id].sort());
    expect(rows.find((x) => x.id === p.c.id)).toMatchObject({ match: "why is the flaky test flaky?" });
    const none = await runCli(["sessions", "--search", "zzzz"], { cwd: p.here, env });
    expect(none.stdout).toContain('mentions "zzzz". --all-projects searches every project.');
  });
});
