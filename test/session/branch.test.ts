// The one projection every replay uses: a log through its rewinds, the abandoned branch left out.
import { describe, expect, test } from "bun:test";
import type { DurableEvent } from "../../src/events/types.ts";
import { branchUpTo, currentBranch } from "../../src/session/branch.ts";
import { createConversationView } from "../../src/session/view.ts";
import { assistant, compaction, rewind, text, turnEnd, user } from "./make-events.ts";

const messagesOf = (events: DurableEvent[]) => {
  const v = createConversationView();
  for (const e of events) v.apply(e);
  return v.messages();
};

describe("currentBranch", () => {
  const u1 = user("one");
  const a1 = assistant([text("first answer")]);
  const u2 = user("two");
  const a2 = assistant([text("abandoned answer")]);
  const u2b = user("two, edited");
  const a2b = assistant([text("second answer")]);
  const back = rewind(u2.id, { filesKept: true });
  const log = [u1, a1, turnEnd(), u2, a2, turnEnd(), back, u2b, a2b, turnEnd()];

  test("leaves out what a rewind dropped, keeps the rewind where it cut and everything after it", () => {
    const ids = currentBranch(log).map((e) => e.id);
    expect(ids).toEqual([u1, a1, log[2]!, back, u2b, a2b, log[9]!].map((e) => e.id));
  });

  test("through a message, and rewinds in a row (the second within what the first left)", () => {
    const through = rewind(a1.id, { keep: "through" });
    expect(currentBranch([...log, through]).map((e) => e.id)).toEqual([u1.id, a1.id, through.id]);
  });

  test("projecting twice gives the same events, and the model's view of the branch is the view of the log", () => {
    const more = [...log, compaction("S", u2b.id), user("three"), rewind(a2b.id, { keep: "through" }), user("four")];
    const once = currentBranch(more);
    expect(currentBranch(once)).toEqual(once);
    expect(messagesOf(once)).toEqual(messagesOf(more));
  });

  test("branchUpTo: a fork's seed, through or before a message on the branch; null for one off it", () => {
    expect(branchUpTo(log, a2b.id, "through")!.map((e) => e.id)).toEqual([u1, a1, log[2]!, back, u2b, a2b].map((e) => e.id));
    expect(branchUpTo(log, u2b.id, "before")!.map((e) => e.id)).toEqual([u1, a1, log[2]!, back].map((e) => e.id));
    expect(branchUpTo(log, a2.id, "through")).toBeNull();
  });
});
