import { describe, expect, test } from "bun:test";
import type { DurableEvent } from "../../src/events/types.ts";
import type { AssistantBlock, Message } from "../../src/model/types.ts";
import { messageProblems } from "../../src/session/validate.ts";
import { createConversationView, INTERRUPTED_RESULT, SUMMARY_PREAMBLE } from "../../src/session/view.ts";
import { assistant, compaction, text, toolResult, toolUse, turnEnd, user } from "./make-events.ts";
import { seededRandom } from "../support/prng.ts";

const viewOf = (events: DurableEvent[]) => {
  const v = createConversationView();
  for (const e of events) v.apply(e);
  return v;
};
const roles = (ms: Message[]) => ms.map((m) => m.role).join(",");

describe("the model's view", () => {
  test("a tool call that never got its result is answered 'interrupted', and the user's next words join that message", () => {
    const events = [user("run the tests"), assistant([text("Running."), toolUse("t1"), toolUse("t2")]), toolResult("t1", "3 passed")];
    const v = viewOf(events);
    expect(v.unansweredToolUses()).toEqual(["t2"]);
    let ms = v.messages();
    expect(messageProblems(ms)).toEqual([]);
    expect(ms.at(-1)).toEqual({
      role: "user",
      content: [
        { type: "tool_result", tool_use_id: "t1", content: "3 passed" },
        { type: "tool_result", tool_use_id: "t2", content: INTERRUPTED_RESULT, is_error: true },
      ],
    });
    v.apply(user("what happened?"));
    ms = v.messages();
    expect(roles(ms)).toBe("user,assistant,user");
    expect((ms[2]!.content as Array<{ type: string }>).map((b) => b.type)).toEqual(["tool_result", "tool_result", "text"]);
  });

  test("steering and policy nudges are user text after the tool results of the same step", () => {
    const v = viewOf([
      user("fix it"),
      assistant([toolUse("t1")]),
      user("use the new API", { steering: true }),
      toolResult("t1", "edited"),
      user("Run the checks before you finish.", { synthetic: "verify" }),
    ]);
    const last = v.messages().at(-1)!;
    expect(last.content).toEqual([
      { type: "tool_result", tool_use_id: "t1", content: "edited" },
      { type: "text", text: "use the new API" },
      { type: "text", text: "Run the checks before you finish." },
    ]);
  });

  test("an interrupted answer keeps its text, loses unsigned thinking, and the next answer follows validly", () => {
    const partial: AssistantBlock[] = [
      { type: "thinking", thinking: "half a thou", signature: "" },
      { type: "text", text: "I will start by" },
    ];
    const v = viewOf([user("go"), assistant(partial, { interrupted: true }), { id: "i1", ts: 1, type: "interruption", reason: "user" }, turnEnd(), user("go on")]);
    const ms = v.messages();
    expect(messageProblems(ms)).toEqual([]);
    expect(ms[1]).toEqual({ role: "assistant", content: [{ type: "text", text: "I will start by" }] });
    expect(JSON.stringify(ms[2])).toContain("interrupted");
  });

  test("a compaction replaces what came before its cut with the summary; a cut inside a tool pair moves back to keep it whole", () => {
    const u1 = user("first task");
    const a1 = assistant([toolUse("t1")]);
    const r1 = toolResult("t1", "old output");
    const a2 = assistant([text("first done")]);
    const u2 = user("second task");
    const a3 = assistant([toolUse("t2")]);
    const r2 = toolResult("t2", "new output");
    const v = viewOf([u1, a1, r1, a2, u2, a3, r2, compaction("## Objective\nfirst task, done", r2.id)]);
    const ms = v.messages();
    expect(messageProblems(ms)).toEqual([]);
    expect(v.retained()[0]!.id).toBe(a3.id);
    expect(ms[0]!.role).toBe("user");
    expect(JSON.stringify(ms[0])).toContain(SUMMARY_PREAMBLE);
    expect(JSON.stringify(ms)).not.toContain("old output");
    expect(JSON.stringify(ms)).toContain("new output");
  });

  test("pruned tool outputs become a stub naming the spill file", () => {
    const r = toolResult("t1", "line\n".repeat(100) + "[... the full output (9,999 characters) is in /tmp/spill/bash-1.txt — read or grep it for the rest ...]");
    const v = viewOf([user("x"), assistant([toolUse("t1")]), r, compaction("", "nope", { prunedToolUseIds: ["t1"] })]);
    const block = (v.messages()[2]!.content as Array<{ type: string; content?: unknown }>)[0]!;
    expect(String(block.content)).toContain("/tmp/spill/bash-1.txt");
    expect(String(block.content)).not.toContain("line\nline");
  });

  test("applying the same event twice changes nothing", () => {
    const events = [user("a"), assistant([toolUse("t1")]), toolResult("t1")];
    const v = viewOf([...events, ...events]);
    expect(v.messages()).toEqual(viewOf(events).messages());
  });
});


/** Realistic and hostile sequences: lost results, duplicates, orphans, odd cuts, empty content. */
function randomSession(seed: number, length: number): DurableEvent[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(r() * xs.length)]!;
  const events: DurableEvent[] = [];
  let pending: string[] = [];
  let tool = 0;
  const seenToolIds: string[] = [];
  for (let i = 0; i < length; i++) {
    const x = r();
    if (x < 0.14) events.push(user(pick(["do it", "", "  ", "more", "stop"]), pick([{}, { steering: true }, { synthetic: "verify" as const }])));
    else if (x < 0.17) events.push(user([{ type: "text", text: "see" }, { type: "image", source: { type: "base64", media_type: "image/png", data: "AAAA" } }]));
    else if (x < 0.42) {
      const blocks: AssistantBlock[] = [];
      if (r() < 0.3) blocks.push({ type: "thinking", thinking: "hmm", signature: r() < 0.5 ? "sig" : "" });
      if (r() < 0.7) blocks.push(text(pick(["ok", "", "Let me look."])));
      const calls = Math.floor(r() * 4);
      for (let c = 0; c < calls; c++) {
        const id = `t${++tool}`;
        blocks.push(toolUse(id));
        seenToolIds.push(id);
      }
      const interrupted = r() < 0.1;
      events.push(assistant(blocks, interrupted ? { interrupted: true } : {}));
      pending = interrupted ? [] : blocks.flatMap((b) => (b.type === "tool_use" ? [b.id] : []));
    } else if (x < 0.75) {
      // Usually the next pending result; sometimes a duplicate, an orphan, or one from long ago.
      const y = r();
      const id = y < 0.8 && pending.length > 0 ? pending.splice(Math.floor(r() * pending.length), 1)[0]! : y < 0.9 ? pick([...seenToolIds, "orphan"]) : `never-${i}`;
      events.push(toolResult(id, pick(["out", "", [{ type: "text", text: "" }], [{ type: "text", text: "x" }]]), { isError: r() < 0.2 }));
    } else if (x < 0.8) events.push({ id: `int-${seed}-${i}`, ts: 1, type: "interruption", reason: pick(["user", "crash_recovery"] as const) });
    else if (x < 0.83 && events.length > 0) {
      const target = r() < 0.9 ? pick(events).id : "unknown-id";
      const pruned = seenToolIds.filter(() => r() < 0.2);
      events.push(compaction(pick(["", "## Objective\nthe work so far"]), target, { prunedToolUseIds: pruned }));
    } else if (x < 0.86) events.push({ id: `undo-${seed}-${i}`, ts: 1, type: "undo", snapshot: "abc", restored: ["a.ts"], skipped: [] });
    else if (x < 0.95) events.push(turnEnd());
    else events.push({ id: `err-${seed}-${i}`, ts: 1, type: "error", kind: "retryable", message: "overloaded" });
  }
  return events;
}

const keptCall = (items: readonly DurableEvent[], id: string) =>
  items.some((x) => x.type === "assistant_message" && x.message.content.some((b) => b.type === "tool_use" && b.id === id));

describe("the model's view under random event sequences", () => {
  test("messages() is a valid request after every event (300 seeds × 80 events)", () => {
    for (let seed = 1; seed <= 300; seed++) {
      const v = createConversationView();
      const events = randomSession(seed, 80);
      events.forEach((e, i) => {
        const before = [...v.retained()];
        v.apply(e);
        const ms = v.messages();
        // An empty view is fine before the first user content; after it, it must be valid.
        if (ms.length === 0) return;
        const problems = messageProblems(ms);
        if (problems.length > 0) throw new Error(`seed ${seed}, after event ${i} (${e.type}): ${problems.join("; ")}`);
        // Pairs stay whole: no kept result belongs to a call this compaction cut away.
        if (e.type === "compaction") {
          const kept = new Set(v.retained().map((x) => x.id));
          const cutCalls = new Set(
            before.flatMap((x) => (x.type === "assistant_message" && !kept.has(x.id) ? x.message.content.flatMap((b) => (b.type === "tool_use" ? [b.id] : [])) : [])),
          );
          const split = v.retained().find((x) => x.type === "tool_result" && cutCalls.has(x.toolUseId) && !keptCall(v.retained(), x.toolUseId));
          if (split) throw new Error(`seed ${seed}, after event ${i}: the cut split the pair of ${split.id}`);
        }
      });
      // Built incrementally or in one go, the view is the same.
      expect(viewOf(events).messages()).toEqual(v.messages());
    }
  });
});
