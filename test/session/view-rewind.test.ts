// A rewind is an event; the model's view is the projection of the log without what it dropped.
// Each case compares the view after the rewind with a view built from only the events it keeps.
import { describe, expect, test } from "bun:test";
import type { DurableEvent } from "../../src/events/types.ts";
import { messageProblems } from "../../src/session/validate.ts";
import { createConversationView, SUMMARY_PREAMBLE } from "../../src/session/view.ts";
import { readSessionLog } from "../../src/session/log.ts";
import { assistant, compaction, rewind, text, toolResult, toolUse, turnEnd, user } from "./make-events.ts";

const viewOf = (events: DurableEvent[]) => {
  const v = createConversationView();
  for (const e of events) v.apply(e);
  return v;
};

describe("rewind in the model's view", () => {
  const u1 = user("make notes.txt");
  const a1 = assistant([text("Making it."), toolUse("t1")]);
  const r1 = toolResult("t1", "done");
  const a1b = assistant([text("Made.")]);
  const u2 = user("now append a line");
  const a2 = assistant([text("Appended.")]);
  const first = [u1, a1, r1, a1b, turnEnd()];

  test("back to before a user message: the view holds exactly what came before it", () => {
    const v = viewOf([...first, u2, a2, turnEnd(), rewind(u2.id)]);
    expect(v.messages()).toEqual(viewOf(first).messages());
    // And the message sent after it follows that history.
    const again = user("append two lines instead");
    v.apply(again);
    expect(v.messages()).toEqual(viewOf([...first, again]).messages());
    expect(messageProblems(v.messages())).toEqual([]);
  });

  test("through a message (--resume-session-at): the view ends with it", () => {
    const v = viewOf([...first, u2, a2, turnEnd(), rewind(a1b.id, { keep: "through" })]);
    expect(v.messages()).toEqual(viewOf([u1, a1, r1, a1b]).messages());
  });

  test("across a compaction: its summary goes, and what came before the target is back verbatim", () => {
    const u3 = user("third");
    const v = viewOf([...first, u2, a2, turnEnd(), compaction("SUMMARY OF TURN ONE", u2.id), u3, assistant([text("3")]), rewind(u2.id)]);
    const body = JSON.stringify(v.messages());
    expect(body).not.toContain("SUMMARY OF TURN ONE");
    expect(body).not.toContain(SUMMARY_PREAMBLE);
    expect(v.messages()).toEqual(viewOf(first).messages());
    expect(v.compactions()).toBe(0);
  });

  test("to a message after a compaction: the compaction stays in effect", () => {
    const u3 = user("third");
    const before = [...first, u2, a2, turnEnd(), compaction("SUMMARY OF TURN ONE", u2.id)];
    const v = viewOf([...before, u3, assistant([text("3")]), turnEnd(), rewind(u3.id)]);
    expect(v.messages()).toEqual(viewOf(before).messages());
    expect(JSON.stringify(v.messages())).toContain("SUMMARY OF TURN ONE");
  });

  test("rewinds in a row: the second goes back within what the first left; the abandoned branch stays out", () => {
    const u2b = user("second, edited");
    const a2b = assistant([text("edited answer")]);
    const once = rewind(u2.id);
    const second = rewind(u2b.id);
    const third = user("third try");
    const v = viewOf([...first, u2, a2, turnEnd(), once, u2b, a2b, turnEnd(), second, third]);
    expect(v.messages()).toEqual(viewOf([...first, third]).messages().map((m) => m));
    // Each rewind stands where it cut (it may have a note for the model): the first before the second's target.
    expect(v.history().map((e) => e.id)).toEqual(first.filter((e) => e.type !== "turn_end").map((e) => e.id).concat(once.id, second.id, third.id));
  });

  test("a target the view does not hold (rewound away already) changes nothing", () => {
    const u2b = user("second, edited");
    const events = [...first, u2, a2, turnEnd(), rewind(u2.id), u2b, assistant([text("ok")])];
    const v = viewOf([...events, rewind(a2.id)]);
    expect(v.messages()).toEqual(viewOf(events).messages());
  });

  test("a rewind of the code only leaves the conversation and tells the model the files went back", () => {
    const v = viewOf([...first, rewind(u1.id, { conversation: false, code: { snapshot: "abc", restored: ["notes.txt"], removed: ["notes.txt"], skipped: [] } })]);
    const last = JSON.stringify(v.messages().at(-1));
    expect(v.messages().length).toBe(viewOf(first).messages().length + 1);
    expect(last).toContain("put the files back");
    expect(last).toContain("notes.txt");
  });
});

test("a rewind survives the log: written, read back, the same event", async () => {
  const { createSession } = await import("../../src/session/store.ts");
  const { mkdtempSync } = await import("node:fs");
  const { join } = await import("node:path");
  const { tmpdir } = await import("node:os");
  const cwd = mkdtempSync(join(tmpdir(), "khaelor-rw-"));
  process.env.KHAELOR_HOME = join(cwd, "data");
  const w = createSession({ sessionId: "0badc0de-0000-4000-8000-000000000000", cwd, model: "m", permissionMode: "default", khaelorVersion: "0", git: null });
  const r = rewind("e000001", { keep: "through", code: { snapshot: "t", restored: ["a"], removed: [], skipped: [{ path: "b", reason: "yours" }] } });
  w.append(r);
  w.close();
  delete process.env.KHAELOR_HOME;
  expect(readSessionLog(w.path).events.at(-1)).toEqual(r);
});

describe("a rewind that left the files as they are", () => {
  const u1 = user("make notes.txt");
  const a1 = assistant([text("Made.")]);
  const u2 = user("now append a line");
  const first = [u1, a1, turnEnd()];

  test("conversation only: the next request carries a short note that the files may differ, before the new message", () => {
    const v = viewOf([...first, u2, assistant([text("Appended.")]), turnEnd(), rewind(u2.id, { filesKept: true }), user("append two instead")]);
    const last = JSON.stringify(v.messages().at(-1));
    expect(last).toContain("left the files as they are now");
    expect(last.indexOf("left the files")).toBeLessThan(last.indexOf("append two instead"));
    expect(JSON.stringify(v.messages())).not.toContain("Appended.");
    expect(messageProblems(v.messages())).toEqual([]);
  });

  test("code and conversation: no note, unless a file the user changed was left", () => {
    const both = rewind(u2.id, { code: { snapshot: "abc", restored: ["notes.txt"], removed: [], skipped: [] } });
    expect(JSON.stringify(viewOf([...first, u2, turnEnd(), both]).messages())).toEqual(JSON.stringify(viewOf(first).messages()));
    const left = rewind(u2.id, { code: { snapshot: "abc", restored: [], removed: [], skipped: [{ path: "own.txt", reason: "you changed it after the agent did" }] } });
    expect(JSON.stringify(viewOf([...first, u2, turnEnd(), left]).messages().at(-1))).toContain("own.txt (you changed it after the agent did)");
  });

  test("the note survives a later compaction's rebuild and goes with a later rewind to before it", () => {
    const u3 = user("third");
    const back = rewind(u2.id, { filesKept: true });
    const noted = [...first, u2, turnEnd(), back, u3, assistant([text("3")]), turnEnd()];
    const compacted = viewOf([...noted, compaction("S", back.id)]).messages();
    expect(JSON.stringify(compacted)).toContain("verbatim.\\n\\nS");
    expect(JSON.stringify(compacted)).toContain("left the files as they are now");
    expect(JSON.stringify(viewOf([...noted, rewind(u1.id)]).messages())).not.toContain("left the files");
  });
});
