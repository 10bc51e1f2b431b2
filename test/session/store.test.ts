import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { serializeEvent } from "../../src/events/schema.ts";
import { dataRoot, lockPathOf, projectSessionsDir, projectSlug } from "../../src/session/paths.ts";
import { createSession, forkSession, latestSession, listSessions, resolveSession, SessionNotFoundError } from "../../src/session/store.ts";
import { readSessionLog } from "../../src/session/log.ts";
import { assistant, tempHome, text, turnEnd, user } from "./make-events.ts";

let home: ReturnType<typeof tempHome>;
afterEach(() => home?.cleanup());

function session(h: ReturnType<typeof tempHome>, id: string, prompt: string, cost = 0.01) {
  const w = createSession({ cwd: h.cwd, model: "claude-sonnet-5-5", permissionMode: "default", env: h.env, sessionId: id });
  w.append(user(`  ${prompt}\n second line `));
  w.append({ ...assistant([text("done")]), costUsd: cost });
  w.append(turnEnd());
  return w;
}

describe("session paths", () => {
  test("KHAELOR_HOME wins, then XDG_DATA_HOME/khaelor, then ~/.local/share/khaelor", () => {
    expect(dataRoot({ KHAELOR_HOME: "/x/k", XDG_DATA_HOME: "/y" })).toBe("/x/k");
    expect(dataRoot({ XDG_DATA_HOME: "/y" })).toBe("/y/khaelor");
    expect(dataRoot({})).toMatch(/\/\.local\/share\/khaelor$/);
  });

  test("two projects with the same folder name get different slugs", () => {
    expect(projectSlug("/a/app")).toMatch(/^app-[0-9a-f]{10}$/);
    expect(projectSlug("/a/app")).not.toBe(projectSlug("/b/app"));
  });
});

describe("session store", () => {
  test("lists sessions newest first with title, turns, cost; the summary cache is used only when it matches the log", () => {
    home = tempHome();
    const a = session(home, "aaaa1111-0000-0000-0000-000000000000", "fix the login bug", 0.5);
    a.close();
    const b = session(home, "bbbb2222-0000-0000-0000-000000000000", "add dark mode", 0.25);
    b.append(user("and make it default"));
    b.append({ ...assistant([text("ok")]), costUsd: 0.25, ts: Date.now() + 10_000 });
    b.append(turnEnd());
    b.close();
    const list = listSessions(home.cwd, home.env);
    expect(list.map((s) => [s.id, s.title, s.turns, s.costUsd])).toEqual([
      ["bbbb2222-0000-0000-0000-000000000000", "add dark mode second line", 2, 0.5],
      ["aaaa1111-0000-0000-0000-000000000000", "fix the login bug second line", 1, 0.5],
    ]);
    // A line appended behind the writer's back (the cache is now stale) is still counted.
    appendFileSync(a.path, serializeEvent({ ...user("one more"), ts: Date.now() + 20_000 }) + "\n");
    const again = listSessions(home.cwd, home.env);
    expect(again[0]!.id).toBe("aaaa1111-0000-0000-0000-000000000000");
    expect(again[0]!.turns).toBe(2);
    expect(latestSession(home.cwd, home.env)!.id).toBe("aaaa1111-0000-0000-0000-000000000000");
  });

  test("resolves an id by unique prefix; none and ambiguous prefixes are clear errors", () => {
    home = tempHome();
    session(home, "abc11111-0000-0000-0000-000000000000", "one").close();
    session(home, "abc22222-0000-0000-0000-000000000000", "two").close();
    expect(resolveSession(home.cwd, "abc1", home.env).title).toBe("one second line");
    expect(() => resolveSession(home.cwd, "abc", home.env)).toThrow(/matches 2 sessions; type more of the id:[\s\S]*abc11111/);
    expect(() => resolveSession(home.cwd, "abc", home.env)).toThrow(/abc22222/);
    expect(() => resolveSession(home.cwd, "zzz", home.env)).toThrow(SessionNotFoundError);
    expect(() => resolveSession(home.cwd, "zzz", home.env)).toThrow(/khaelor sessions/);
    const other = join(home.dir, "other");
    require("node:fs").mkdirSync(other);
    expect(() => resolveSession(other, "abc1", home.env)).toThrow(/belongs to another project/);
  });

  test("a fork continues the conversation in a new session and leaves the original byte for byte untouched", () => {
    home = tempHome();
    const orig = session(home, "0bad0000-0000-0000-0000-000000000000", "refactor the parser");
    orig.close();
    const before = readFileSync(orig.path);
    const mtime = statSync(orig.path).mtimeMs;

    const fork = forkSession(orig.path);
    expect(fork.forkedFrom).toBe("0bad0000-0000-0000-0000-000000000000");
    const w = createSession({ cwd: home.cwd, model: "claude-sonnet-5-5", permissionMode: "default", env: home.env, forkedFrom: fork.forkedFrom, seed: fork.events });
    w.append(user("now the lexer"));
    w.close();

    expect(readFileSync(orig.path).equals(before)).toBe(true);
    expect(statSync(orig.path).mtimeMs).toBe(mtime);
    expect(existsSync(lockPathOf(orig.path))).toBe(false);
    const forked = readSessionLog(w.path).events;
    expect(forked[0]).toMatchObject({ type: "session_header", forkedFrom: "0bad0000-0000-0000-0000-000000000000" });
    expect(forked.slice(1, -1)).toEqual(fork.events);
    expect(listSessions(home.cwd, home.env)).toHaveLength(2);
  });

  test("sessions live under <root>/sessions/<project-slug>/<id>.jsonl", () => {
    home = tempHome();
    const w = session(home, "dddd0000-0000-0000-0000-000000000000", "x");
    w.close();
    expect(w.path).toBe(join(projectSessionsDir(home.cwd, home.env), "dddd0000-0000-0000-0000-000000000000.jsonl"));
    expect(w.path.startsWith(join(home.env.KHAELOR_HOME, "sessions"))).toBe(true);
  });
});
