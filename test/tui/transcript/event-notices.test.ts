// The notices for events that are not messages: each says what happened in the user's terms.
import { describe, expect, test } from "bun:test";
import { compactionNotice, syntheticNotice, undoNotice } from "../../../src/tui/transcript/event-notices.ts";

describe("messages policies write to the model", () => {
  test("each kind is said in a short line of its own, never in the model's words", () => {
    const verify = syntheticNotice("verify", "You edited files but have not run any test, build or lint command since your last edit. Run the relevant one…");
    expect(verify).toBe("reminded the agent to run the tests or checks before finishing");
    const loop = syntheticNotice("doom_loop", "You have made the same bash call 5 times in a row with the same input and it will give the same result. Step back: …");
    expect(loop).toBe("the agent repeated the same bash call; told it to try another approach");
    expect(syntheticNotice("process_exit", "process web (p1) exited with code 1 (process read id=p1 shows its last output)")).toBe("process web (p1) exited with code 1");
    for (const said of [verify, loop]) expect(said).not.toMatch(/You |Step back|action=/);
  });
});

describe("undo", () => {
  test("names the files it removed (the agent created them) and those it restored", () => {
    expect(undoNotice({ restored: ["a.txt", "b.txt"], removed: ["b.txt"], skipped: [] })).toBe("Undid the last turn: removed b.txt; restored a.txt");
    expect(undoNotice({ restored: ["a.txt", "b.txt"], skipped: [] })).toBe("Undid the last turn: put back a.txt, b.txt"); // an older log
    expect(undoNotice({ restored: ["b.txt"], removed: ["b.txt"], skipped: [{ path: "c.txt", reason: "changed again after the agent's turn; left as you have it" }] })).toBe(
      "Undid the last turn: removed b.txt; left c.txt (changed again after the agent's turn; left as you have it)",
    );
  });

  test("replayed, when the files' state then is unknown, it says 'put back'; long lists are counted", () => {
    const many = Array.from({ length: 9 }, (_, i) => `f${i}.ts`);
    expect(undoNotice({ restored: many, skipped: [] })).toBe("Undid the last turn: put back f0.ts, f1.ts, f2.ts, f3.ts, f4.ts, f5.ts and 3 more");
  });
});

describe("compaction", () => {
  test("a reduction is visible at any size, and no reduction is said plainly", () => {
    expect(compactionNotice({ trigger: "manual", tokensBefore: 4213, tokensAfter: 3980 })).toBe("Conversation compacted (manual): 4,213 → 3,980 tokens");
    expect(compactionNotice({ trigger: "auto", tokensBefore: 3900, tokensAfter: 4100 })).toBe("Conversation compacted (auto), but it did not get smaller: 3,900 → 4,100 tokens");
  });
});
