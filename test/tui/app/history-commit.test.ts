// The history commit's invariant: each entry and each settled markdown row reaches scrollback
// once, in order, however the answer was chunked and whenever the app laid out; and the live
// zone, a function of the state, changes nothing of it.
import { expect, test } from "bun:test";
import type { AgentEvent } from "../../../src/events/types.ts";
import { HistoryCommit } from "../../../src/tui/app/history-commit.ts";
import { Transcript } from "../../../src/tui/transcript/transcript.ts";
import { rowText } from "../../../src/tui/views/text.ts";

const answer = [
  "Here is the plan.",
  "",
  "1. Read the parser",
  "2. Change the **tokenizer** so that it keeps `spans`",
  "",
  "A paragraph long enough to wrap at forty columns, so that soft rows are part of what is written.",
  "",
  "| a | b |",
  "|---|---|",
  "| 1 | 2 |",
  "",
  "Done.",
].join("\n");

let n = 0;
const user = (text: string): AgentEvent => ({ id: `u${++n}`, ts: 0, type: "user_message", content: text }) as AgentEvent;
const done = (text: string): AgentEvent =>
  ({ id: `a${++n}`, ts: 0, type: "assistant_message", costUsd: 0, message: { id: "m", model: "x", stop_reason: "end_turn", usage: { input_tokens: 1, output_tokens: 1, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 }, content: [{ type: "text", text }] } }) as AgentEvent;

/** Pseudo-random chunk sizes from a seed, so a failure can be replayed. */
function chunks(text: string, seed: number): string[] {
  const out: string[] = [];
  let s = seed;
  for (let i = 0; i < text.length; ) {
    s = (s * 1103515245 + 12345) % 2147483648;
    const len = 1 + (s % 23);
    out.push(text.slice(i, i + len));
    i += len;
  }
  return out;
}

function written(events: AgentEvent[][], width = 40): string[] {
  const t = new Transcript();
  const c = new HistoryCommit(width, false);
  const rows: string[] = [];
  for (const batch of events) {
    for (const e of batch) t.apply(e, 0);
    for (const r of c.advance(t.entries, false)) rows.push(rowText(r));
  }
  for (const r of c.advance(t.entries, true)) rows.push(rowText(r));
  return rows;
}

test("a streamed answer reaches scrollback once, in order, whatever its chunking", () => {
  const atOnce = written([[user("go"), { type: "message_start", id: "m", model: "x" }, { type: "text_delta", index: 0, text: answer }, done(answer)]]);
  expect(atOnce.join("\n")).toContain("Done.");
  for (const seed of [1, 7, 42, 1234]) {
    const streamed = written([
      [user("go"), { type: "message_start", id: "m", model: "x" }],
      ...chunks(answer, seed).map((text): AgentEvent[] => [{ type: "text_delta", index: 0, text }]),
      [done(answer)],
    ]);
    expect(streamed).toEqual(atOnce);
  }
});

test("settled blocks are written while the answer still streams, and not again when it ends", () => {
  const t = new Transcript();
  const c = new HistoryCommit(40, false);
  t.apply(user("go"), 0);
  t.apply({ type: "message_start", id: "m", model: "x" });
  t.apply({ type: "text_delta", index: 0, text: "First paragraph.\n\nSecond\n" }, 0);
  const early = c.advance(t.entries, false).map(rowText);
  expect(early).toContain("First paragraph.");
  expect(early.join("\n")).not.toContain("Second");
  t.apply(done("First paragraph.\n\nSecond paragraph."), 0);
  const late = c.advance(t.entries, false).map(rowText);
  expect(late.join("\n")).not.toContain("First paragraph.");
  expect(late).toContain("Second paragraph.");
  expect(c.committed).toBe(2);
  expect(c.advance(t.entries, false)).toEqual([]);
});

test("a discarded partial whose rows are in scrollback is followed by a note, and the retry's answer by its own rows", () => {
  const t = new Transcript();
  const c = new HistoryCommit(40, false);
  const notes: string[] = [];
  t.onRemoved = (from) => notes.push(...c.rewind(from, t.entries).map(rowText));
  t.apply(user("go"), 0);
  t.apply({ type: "message_start", id: "m", model: "x" });
  t.apply({ type: "text_delta", index: 0, text: "Partial block.\n\nmore\n" }, 0);
  expect(c.advance(t.entries, false).map(rowText)).toContain("Partial block.");
  t.apply({ type: "api_retry", attempt: 1, maxRetries: 3, status: 529, message: "overloaded", delayMs: 10, partialDiscarded: true } as AgentEvent, 0);
  expect(notes).toEqual(["(the partial answer above was discarded: the request is being retried)"]);
  expect(c.streams.size).toBe(0);
  t.apply({ type: "message_start", id: "m2", model: "x" });
  t.apply({ type: "text_delta", index: 0, text: "Fresh answer." }, 0);
  t.apply(done("Fresh answer."), 0);
  const after = c.advance(t.entries, false).map(rowText);
  expect(after).toContain("Fresh answer.");
  expect(after.join("\n")).not.toContain("Partial block.");
});
