// What the app says about things that happen to a turn rather than in it: API retries (one live
// line with a countdown, nothing left in history when a retry works), an answer cut by the
// output-token limit, and the messages policies write to the model (never shown as if for the
// user). The real CLI in a pty against the fake Messages API; every wait is on the screen.
import { describe, expect, test } from "bun:test";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { KEY, answerPrompt, idle, ptyFixtures, submit as ask, type PtySession } from "./harness.ts";

const fixtures = ptyFixtures();


/** The lines of history and screen from the prompt on (what one turn left behind). */
function turnLines(s: PtySession, prompt: string): string[] {
  const lines = s.all().split("\n");
  return lines.slice(lines.findIndex((l) => l.startsWith(`› ${prompt}`)));
}

describe("API retries", () => {
  test("one live line counts down to the retry, and is gone once the retry works", async () => {
    const fake = await fixtures.api({
      turns: [{ content: [{ type: "text", text: "ANSWER-AFTER-RETRY" }], faults: [{ type: "rate_limit", retryAfterSeconds: 4 }] }],
    });
    const s = fixtures.pty([], { env: isolatedEnv(fake.url), cwd: tempProject() });
    await ask(s, "hello");
    // Whenever the first frame comes (a loaded machine may be late), the countdown then moves on:
    // the same single line, with fewer seconds left.
    const left = () => Number(/API rate limit reached; retry 1 of 8 in (\d+)s/.exec(s.screen())?.[1] ?? NaN);
    await s.waitFor(() => left() >= 1, "the retry line");
    const first = left();
    await s.waitFor(() => left() < first, "the countdown to move");
    expect(s.screen().split("retry 1 of 8").length).toBe(2);
    await s.waitFor((sc) => sc.includes("ANSWER-AFTER-RETRY") && idle(sc), "the answer");
    const said = turnLines(s, "hello").join("\n");
    expect(said).not.toContain("rate limit");
    expect(said).not.toContain("retry");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("a dropped stream leaves at most one blank line, and no retry line, before the answer", async () => {
    const fake = await fixtures.api({
      turns: [
        {
          pacing: { textChunk: 5, delayMs: 30 },
          content: [{ type: "text", text: "First para.\n\nSecond para here.\n\nTHE-END of the answer." }],
          faults: [
            { type: "cut", afterEvents: 9 },
            { type: "stream_error", afterEvents: 9 },
          ],
        },
      ],
    });
    const s = fixtures.pty([], { env: isolatedEnv(fake.url), cwd: tempProject() });
    await ask(s, "tell me");
    await s.waitFor((sc) => sc.includes("THE-END") && idle(sc), "the answer");
    const lines = turnLines(s, "tell me");
    const end = lines.findIndex((l) => l.includes("THE-END"));
    for (let i = 1; i < end; i++) expect(lines[i] === "" && lines[i - 1] === "").toBe(false);
    expect(lines.slice(0, end).join("\n")).not.toMatch(/retry|broke mid-response|failed mid-stream/);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("a turn that fails after every retry leaves one line in history, not one per attempt", async () => {
    const fake = await fixtures.api({
      turns: [{ content: [{ type: "text", text: "never shown" }], faults: Array.from({ length: 9 }, () => ({ type: "rate_limit" as const, retryAfterMs: 1 })) }],
    });
    const s = fixtures.pty([], { env: isolatedEnv(fake.url), cwd: tempProject() });
    await ask(s, "doomed");
    await s.waitFor((sc) => sc.includes("Gave up after 8 retries") && idle(sc), "the failure");
    // One notice (its first row carries the bullet; a long one wraps between words onto more rows).
    const said = turnLines(s, "doomed").filter((l) => /^\S/.test(l) && /rate limit|Rate limited|retry|retries/i.test(l));
    expect(said.length).toBe(1);
    expect(turnLines(s, "doomed").join(" ").replace(/\s+/g, " ")).toContain("Gave up after 8 retries");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("answers that do not end on their own", () => {
  test("an answer cut by the output-token limit says so under it", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "Here is the first part of a long expla" }], stop_reason: "max_tokens" }] });
    const s = fixtures.pty([], { env: isolatedEnv(fake.url), cwd: tempProject() });
    await ask(s, "explain");
    await s.waitFor((sc) => sc.includes("long expla") && idle(sc), "the answer");
    const lines = turnLines(s, "explain");
    const at = lines.findIndex((l) => l.includes("long expla"));
    expect(lines[at + 1]).toBe("⎿ the answer hit the output-token limit and was cut off; ask to continue");
    const row = s.term.lines().findIndex((l) => l.startsWith("⎿ the answer hit"));
    expect(s.term.cellStyle(row, 2)?.dim).toBe(true);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("an answer that simply ends has no such notice", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "A complete answer." }] }] });
    const s = fixtures.pty([], { env: isolatedEnv(fake.url), cwd: tempProject() });
    await ask(s, "explain");
    await s.waitFor((sc) => sc.includes("A complete answer.") && idle(sc), "the answer");
    expect(s.all()).not.toContain("output-token limit");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("messages written for the model", () => {
  test("the verification nudge shows as a short line of what happened, not as the model's instructions", async () => {
    const fake = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", name: "write", input: { file_path: "note.txt", content: "hi\n" } }] },
        { content: [{ type: "text", text: "Wrote it." }] },
        { content: [{ type: "text", text: "NO-TESTS-HERE" }], expect: { lastTextMatches: "have not run any test" } },
      ],
    });
    const s = fixtures.pty([], { env: isolatedEnv(fake.url), cwd: tempProject() });
    await ask(s, "write a note");
    await answerPrompt(s, "y");
    await s.waitFor((sc) => sc.includes("NO-TESTS-HERE") && idle(sc), "the answer after the nudge");
    const said = s.all();
    expect(said).toContain("• reminded the agent to run the tests or checks before finishing");
    expect(said).not.toContain("verification nudge");
    expect(said).not.toContain("You edited files");
    expect(fake.checkFailures).toEqual([]);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});
