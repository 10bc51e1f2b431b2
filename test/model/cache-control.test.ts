import { describe, expect, test } from "bun:test";
import { MAX_CACHE_BREAKPOINTS, applyCacheControl } from "../../src/model/cache-control.ts";
import type { Message, SystemBlock } from "../../src/model/types.ts";

const eph = { type: "ephemeral" as const };
const count = (r: ReturnType<typeof applyCacheControl>) =>
  r.system.filter((b) => b.cache_control).length +
  r.messages.reduce((n, m) => n + (typeof m.content === "string" ? 0 : m.content.filter((b) => b.cache_control).length), 0);

const conversation: Message[] = [
  { role: "user", content: "q1" },
  { role: "assistant", content: [{ type: "text", text: "a1" }] },
  { role: "user", content: "q2" },
  { role: "assistant", content: [{ type: "thinking", thinking: "t", signature: "s" }, { type: "text", text: "a2" }] },
  { role: "user", content: "q3" },
];

describe("applyCacheControl", () => {
  test("never more than 4 breakpoints, system marks first, the newest message always when the budget allows", () => {
    for (let marks = 0; marks <= 6; marks++) {
      const system: SystemBlock[] = Array.from({ length: marks }, (_, i) => ({ type: "text", text: `s${i}`, cache_control: eph }));
      const r = applyCacheControl(system, conversation);
      expect(count(r)).toBe(Math.min(MAX_CACHE_BREAKPOINTS, marks + 2));
      const last = r.messages[4]!.content;
      expect(typeof last !== "string" && last[0]!.cache_control !== undefined).toBe(marks < 4);
    }
  });

  test("the second mark is the newest message of the previous request", () => {
    const r = applyCacheControl([], conversation);
    const marked = r.messages.map((m) => typeof m.content !== "string" && m.content.some((b) => b.cache_control));
    expect(marked).toEqual([false, false, true, false, true]);
  });

  test("a message ending in thinking is marked on its last markable block", () => {
    const msgs: Message[] = [
      { role: "user", content: "q" },
      { role: "assistant", content: [{ type: "text", text: "a" }, { type: "thinking", thinking: "t", signature: "s" }] },
    ];
    const r = applyCacheControl([], msgs);
    const content = r.messages[1]!.content;
    if (typeof content === "string") throw new Error("expected blocks");
    expect(content.map((b) => b.cache_control !== undefined)).toEqual([true, false]);
  });

  test("the caller's system and messages are not mutated", () => {
    const system: SystemBlock[] = [{ type: "text", text: "s", cache_control: eph }];
    const snapshot = structuredClone({ system, conversation });
    const r = applyCacheControl(system, conversation);
    expect({ system, conversation }).toEqual(snapshot);
    expect(r.messages[4]).not.toBe(conversation[4]);
    expect(r.messages[0]).toBe(conversation[0]!);
  });
});
