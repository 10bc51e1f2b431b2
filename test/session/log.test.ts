import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openSync } from "node:fs";
import { createWriter, readSessionLog, SessionWriteError } from "../../src/session/log.ts";
import { createSession, openSessionForAppend } from "../../src/session/store.ts";
import { assistant, tempHome, text, toolResult, toolUse, user } from "./make-events.ts";

let home: ReturnType<typeof tempHome>;
afterEach(() => home?.cleanup());

function sessionWithTurn() {
  home = tempHome();
  const w = createSession({ cwd: home.cwd, model: "claude-sonnet-5-5", permissionMode: "default", env: home.env });
  const events = [user("list the files"), assistant([toolUse("t1")]), toolResult("t1", "a.txt\nb.txt"), assistant([text("Two files.")])];
  for (const e of events) w.append(e);
  return { w, events };
}

describe("session log", () => {
  test("every appended event reads back as it was, after the header, one line each", () => {
    const { w, events } = sessionWithTurn();
    w.close();
    const raw = readFileSync(w.path, "utf8");
    expect(raw.split("\n").filter(Boolean)).toHaveLength(5);
    const log = readSessionLog(w.path);
    expect(log.warnings).toEqual([]);
    expect(log.events[0]!.type).toBe("session_header");
    expect(log.events.slice(1)).toEqual(events);
  });

  test("a torn last line is ignored and reported; the events before it survive", () => {
    const { w, events } = sessionWithTurn();
    w.close();
    appendFileSync(w.path, '{"v":1,"type":"assistant_message","id":"x","ts":1,"message":{"id":"m","mod');
    const log = readSessionLog(w.path);
    expect(log.tornTail).toBe(true);
    expect(log.events.slice(1)).toEqual(events);
    expect(log.warnings).toHaveLength(1);
    expect(log.warnings[0]!.message).toContain("incomplete");
  });

  test("a corrupt line in the middle is skipped with a warning naming its line", () => {
    const { w, events } = sessionWithTurn();
    w.close();
    const lines = readFileSync(w.path, "utf8").split("\n");
    lines[2] = lines[2]!.slice(0, 20) + "\u0000garbage";
    lines.splice(4, 0, '{"v":1,"type":"tool_result","id":"bad"}');
    writeFileSync(w.path, lines.join("\n"));
    const log = readSessionLog(w.path);
    expect(log.tornTail).toBe(false);
    expect(log.events.slice(1)).toEqual([events[0]!, events[2]!, events[3]!]);
    expect(log.warnings.map((x) => x.line)).toEqual([3, 5]);
    expect(log.warnings[1]!.message).toContain("not a valid event");
  });

  test("reopening a log with a torn tail cuts the partial line, so new events start clean", () => {
    const { w, events } = sessionWithTurn();
    w.close();
    appendFileSync(w.path, '{"v":1,"type":"user_mess');
    const w2 = openSessionForAppend(w.path);
    const next = user("and now?");
    w2.append(next);
    w2.close();
    const log = readSessionLog(w.path);
    expect(log.warnings).toEqual([]);
    expect(log.events.slice(1)).toEqual([...events, next]);
  });

  test("a complete last event whose newline never made it is kept", () => {
    const { w, events } = sessionWithTurn();
    w.close();
    writeFileSync(w.path, readFileSync(w.path, "utf8").replace(/\n$/, ""));
    const w2 = openSessionForAppend(w.path);
    const next = user("more");
    w2.append(next);
    w2.close();
    expect(readSessionLog(w.path).events.slice(1)).toEqual([...events, next]);
  });

  test("a log written by a newer KHAELOR is refused with what to do", () => {
    const { w } = sessionWithTurn();
    w.close();
    const lines = readFileSync(w.path, "utf8").split("\n");
    lines[0] = lines[0]!.replace(/"v":\d+/, '"v":99').replace(/"formatVersion":\d+/, '"formatVersion":99');
    writeFileSync(w.path, lines.join("\n"));
    expect(() => readSessionLog(w.path)).toThrow(/newer KHAELOR.*upgrade/);
  });

  test("a full disk is reported with what to do; without a handler, append throws", () => {
    home = tempHome();
    // /dev/full answers every write with ENOSPC: a real full disk, on demand.
    const errors: string[] = [];
    const w = createWriter(join(home.dir, "s.jsonl"), openSync("/dev/full", "w"), { onError: (e) => errors.push(e.message) });
    w.append(user("lost to the full disk"));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain("the disk is full");
    expect(errors[0]).toContain("nothing after the start of the session was saved");
    const strict = createWriter(join(home.dir, "t.jsonl"), openSync("/dev/full", "w"));
    expect(() => strict.append(user("x"))).toThrow(SessionWriteError);
  });
});
