// Reopening a damaged log keeps everything that parses and throws nothing away: a complete last
// event that lacks its newline stays (with or without NUL/blank padding after it), what does not
// parse moves to <id>.jsonl.torn, an empty log is called empty, and a tool result whose line is
// corrupt is not described to the model as an interrupted call (it ran).
import { afterEach, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { readSessionLog } from "../../src/session/log.ts";
import { createSession, openSession, SessionEmptyError } from "../../src/session/store.ts";
import { INTERRUPTED_RESULT, UNREADABLE_RESULT } from "../../src/session/view.ts";
import { assistant, tempHome, text, toolResult, toolUse, turnEnd, user } from "./make-events.ts";

let home: ReturnType<typeof tempHome>;
afterEach(() => home?.cleanup());

function session() {
  home = tempHome();
  const w = createSession({ cwd: home.cwd, model: "m", permissionMode: "default", env: home.env });
  w.append(user("run the tests"));
  w.append(assistant([toolUse("t1", "bash", { command: "npm test" })]));
  w.append(toolResult("t1", "12 passing"));
  w.append(assistant([text("All pass.")]));
  w.append(turnEnd());
  w.close();
  return w.path;
}

const types = (path: string) => readSessionLog(path).events.map((e) => e.type);

describe("a last line without its newline", () => {
  test.each([
    ["nothing after it", ""],
    ["NUL padding after it (a power cut)", "\0\0\0\0\0\0"],
    ["blanks after it", "   \t"],
  ])("a complete event is kept: %s", (_name, padding) => {
    const path = session();
    const full = readFileSync(path, "utf8");
    writeFileSync(path, full.slice(0, -1) + padding);
    const opened = openSession(path);
    expect(opened.warnings.filter((w) => !w.includes(".torn"))).toEqual([]);
    expect(opened.replayed.events.at(-1)!.type).toBe("turn_end");
    opened.writer.append(user("next"));
    opened.writer.close();
    const log = readSessionLog(path);
    expect(log.warnings).toEqual([]);
    expect(log.events.map((e) => e.type)).toEqual(["session_header", "user_message", "assistant_message", "tool_result", "assistant_message", "turn_end", "user_message"]);
    expect(readFileSync(path, "utf8").startsWith(full)).toBe(true);
    if (padding) expect(readFileSync(`${path}.torn`, "utf8")).toBe(`${padding}\n`);
    else expect(existsSync(`${path}.torn`)).toBe(false);
  });

  test.each([
    ["a partial event", '{"v":1,"type":"assistant_message","id":"x","ts":1,"message":{"id":"m","mod'],
    ["binary garbage", "\u0001\u0002\ufffdgarbage"],
  ])("%s is moved to <id>.jsonl.torn, verbatim, and the log ends clean", (_name, junk) => {
    const path = session();
    const full = readFileSync(path, "utf8");
    appendFileSync(path, junk);
    const opened = openSession(path);
    expect(opened.warnings.some((w) => w.includes(`moved to ${path}.torn`))).toBe(true);
    opened.writer.close();
    expect(readFileSync(path, "utf8")).toBe(full);
    expect(readFileSync(`${path}.torn`, "utf8")).toBe(`${junk}\n`);
  });
});

describe("an empty log", () => {
  test("0 bytes: reported as empty, not resumed as a session that 'last ran in default mode'", () => {
    const path = session();
    truncateSync(path, 0);
    expect(() => openSession(path)).toThrow(SessionEmptyError);
    expect(() => openSession(path)).toThrow(/is empty: its log .* is 0 bytes/);
    writeFileSync(path, "garbage\nmore garbage\n");
    expect(() => openSession(path)).toThrow(/has no readable events/);
  });
});

describe("a corrupt tool result in the middle", () => {
  const corruptResult = (path: string) => {
    const lines = readFileSync(path, "utf8").split("\n");
    const i = lines.findIndex((l) => l.includes('"type":"tool_result"'));
    lines[i] = lines[i]!.replace('"12 passing"', '"12 pass\u0000').replace(/}$/, "");
    writeFileSync(path, lines.join("\n"));
  };

  test.each([
    ["after a clean exit", false],
    ["in a session that crashed later", true],
  ])("the model is told the call ran and its result is unreadable, not that it was interrupted (%s)", (_name, crashLater) => {
    const path = session();
    corruptResult(path);
    if (crashLater) appendFileSync(path, `${JSON.stringify({ v: 1, ...user("and then?"), id: "u-later" })}\n`);
    const opened = openSession(path);
    expect(opened.warnings.some((w) => /line 4: skipped/.test(w))).toBe(true);
    const sent = JSON.stringify(opened.replayed.view.messages());
    expect(sent).toContain(UNREADABLE_RESULT.slice(0, 40));
    expect(sent).not.toContain(INTERRUPTED_RESULT.slice(0, 40));
    expect(opened.replayed.danglingToolUses).toEqual([]);
    opened.writer.close();
  });
});
