// Compaction against the real model client and the fake Messages API over HTTP: what the
// summariser is sent, what is kept verbatim, and that the result survives a replay.
import { afterEach, describe, expect, test } from "bun:test";
import { createConversationContext } from "../../src/context/conversation.ts";
import { CHECKPOINT_SECTIONS } from "../../src/context/checkpoint.ts";
import type { AgentEvent, CompactionEvent, DurableEvent } from "../../src/events/types.ts";
import { createAnthropicClient } from "../../src/model/anthropic-client.ts";
import type { ModelClient } from "../../src/model/types.ts";
import { replaySession } from "../../src/session/replay.ts";
import { messageProblems } from "../../src/session/validate.ts";
import { startFakeApi, type FakeApi } from "../support/fake-api.ts";
import { assistant, text, toolResult, toolUse, turnEnd, usage, user } from "../session/make-events.ts";

let api: FakeApi | null = null;
afterEach(async () => {
  await api?.close();
  api = null;
});

const CHECKPOINT = CHECKPOINT_SECTIONS.map((s) => `## ${s}\n${s === "Objective" ? "Make the importer stream rows." : "none"}`).join("\n");

async function fakeModel(turns = 1) {
  api = await startFakeApi({ scenario: { turns: Array.from({ length: turns }, () => ({ content: [{ type: "text", text: CHECKPOINT }] })) } });
  return createAnthropicClient({ apiKey: "test-key", baseURL: api.url, retry: { maxRetries: 0 } });
}

/** A model that must not be called: pruning alone has to do. */
const noModel: ModelClient = {
  stream() {
    throw new Error("the model was called");
  },
};

const big = (tag: string, chars: number) => `${tag}\n${"x".repeat(chars)}\n[... the full output (${chars} characters) is in /spill/${tag}.txt — read or grep it for the rest ...]`;

/** An earlier finished turn with bulky tool output, then a long current turn. */
function longSession() {
  const first = user("Make the importer stream rows. Never touch legacy/.");
  const newest = user("NEWEST: now also handle gzip input, keep the API unchanged.");
  const events: DurableEvent[] = [first];
  for (let i = 0; i < 6; i++) {
    events.push(assistant([text(`step ${i}`), toolUse(`old${i}`, "bash", { command: `cat part${i}` })], { usage: usage(2000 + i * 9000, 50) }));
    events.push(toolResult(`old${i}`, big(`old${i}`, 30_000)));
  }
  events.push(assistant([text("Streaming works.")]), turnEnd(), newest);
  for (let i = 0; i < 4; i++) {
    events.push(assistant([toolUse(`new${i}`, "read", { path: `src/gz${i}.ts` })], { usage: usage(60_000 + i * 3000, 40) }));
    events.push(toolResult(`new${i}`, `contents of gz${i}: ${"y".repeat(8000)}`));
  }
  return { events, first, newest };
}

function contextFor(client: ModelClient, events: DurableEvent[], over: Partial<Parameters<typeof createConversationContext>[0]> = {}) {
  const emitted: AgentEvent[] = [];
  const ctx = createConversationContext({ client, model: () => "claude-sonnet-5-5", emit: (e) => emitted.push(e), events, contextWindow: 80_000, ...over });
  return { ctx, emitted };
}

describe("compaction", () => {
  test("round trip: one summariser call, the checkpoint recorded, the newest user message and the recent tail kept verbatim", async () => {
    const client = await fakeModel();
    const { events, newest } = longSession();
    const { ctx, emitted } = contextFor(client, events, { keepTailTokens: 3_000 });
    expect(ctx.needsCompaction()).toBe(true);
    const tailBefore = JSON.stringify(ctx.messages().slice(-2));

    expect(await ctx.compact("manual", undefined, "focus on the gzip work")).toBe(true);

    // The summariser saw the cut part as a transcript: first instruction verbatim, bulky output cut down.
    expect(api!.requests).toHaveLength(1);
    const body = api!.requests[0]!.body as { system: Array<{ text: string }>; messages: Array<{ role: string; content: string }>; tools?: unknown[] };
    expect(body.messages).toHaveLength(1);
    expect(body.system[0]!.text).toContain("## Failed attempts (and why)");
    const prompt = JSON.stringify(body.messages[0]!.content);
    expect(prompt).toContain("Never touch legacy/.");
    expect(prompt).toContain("focus on the gzip work");
    expect(prompt).not.toContain("x".repeat(2000));

    const c = emitted.find((e): e is CompactionEvent => e.type === "compaction")!;
    expect(c.trigger).toBe("manual");
    expect(c.summary).toContain("Make the importer stream rows.");
    expect(c.summary).toContain(`## The user's latest message (verbatim)\n\n${newest.content}`);
    expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
    expect(emitted[0]).toEqual({ type: "compacting", trigger: "manual" });

    const ms = ctx.messages();
    expect(messageProblems(ms)).toEqual([]);
    expect(JSON.stringify(ms)).not.toContain("step 0");
    // The verbatim tail: the last call and its full result, byte for byte.
    expect(JSON.stringify(ms.slice(-2))).toBe(tailBefore);
    expect(ctx.needsCompaction()).toBe(false);

    // Durable: replaying the log (events + the compaction event) gives the same view.
    expect(replaySession([...events, c]).view.messages()).toEqual(ms);
  });

  test("when the newest user message is in the kept tail it stays in place and is not repeated in the summary", async () => {
    const client = await fakeModel();
    const { events, newest } = longSession();
    const { ctx, emitted } = contextFor(client, events, { keepTailTokens: 20_000 });
    expect(await ctx.compact("auto")).toBe(true);
    const c = emitted.find((e): e is CompactionEvent => e.type === "compaction")!;
    expect(c.firstKeptEventId).toBe(newest.id);
    expect(c.summary).not.toContain("NEWEST");
    expect(JSON.stringify(ctx.messages()[0])).toContain(`NEWEST: now also handle gzip input`);
  });

  test("pruning comes first: old outputs become stubs naming their spill files, with no model call", async () => {
    const { events } = longSession();
    const { ctx, emitted } = contextFor(noModel, events, { contextWindow: 90_000, pruneKeepTokens: 10_000 });
    expect(ctx.needsCompaction()).toBe(true);
    expect(await ctx.compact("auto")).toBe(true);
    const c = emitted.find((e): e is CompactionEvent => e.type === "compaction")!;
    // old5 straddles the newest 10k tokens of output, so it is kept whole.
    expect(c.prunedToolUseIds).toEqual(["old0", "old1", "old2", "old3", "old4"]);
    const all = JSON.stringify(ctx.messages());
    expect(all).toContain("/spill/old0.txt");
    expect(all.match(/removed to save context/g)).toHaveLength(5);
    expect(all.includes("y".repeat(8000))).toBe(true);
    expect(messageProblems(ctx.messages())).toEqual([]);
  });

  test("the breaker stops after 3 compactions in a row that do not free enough, with a clear error", async () => {
    // One huge current message that no compaction may touch.
    const events: DurableEvent[] = [user("hello"), assistant([text("hi")]), turnEnd(), user(`NEWEST ${"z".repeat(300_000)}`)];
    const client = await fakeModel(3);
    const { ctx, emitted } = contextFor(client, events, { keepTailTokens: 1_000 });
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await ctx.compact("auto"));
    const errors = emitted.filter((e) => e.type === "error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ kind: "compaction_breaker" });
    expect((errors[0] as { message: string }).message).toContain("3 times in a row");
    expect(results[3]).toBe(false);
    expect(ctx.needsCompaction()).toBe(false);
    expect(api!.requests.length).toBeLessThanOrEqual(3);
  });

  test("the budget is the last response's real usage plus an estimate of what came after", () => {
    const events: DurableEvent[] = [user("go"), assistant([toolUse("t1")], { usage: { input_tokens: 10, output_tokens: 100, cache_read_input_tokens: 40_000, cache_creation_input_tokens: 2_000 } })];
    const { ctx } = contextFor(noModel, events);
    expect(ctx.tokens()).toBe(42_110);
    ctx.apply(toolResult("t1", "r".repeat(3_500)));
    expect(ctx.tokens()).toBeGreaterThanOrEqual(42_110 + 1_000);
    expect(ctx.tokens()).toBeLessThan(42_110 + 1_100);
  });
});
