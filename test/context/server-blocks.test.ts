// Web search and fetch blocks through the model's view and compaction: a server tool call and its
// result stay together (even when a pause_turn put them in two messages), the view sends them as
// kept, and the checkpoint transcript says what was searched and fetched.
import { describe, expect, test } from "bun:test";
import { transcriptOf } from "../../src/context/checkpoint.ts";
import { chooseCut } from "../../src/context/cut.ts";
import { validateMessagesRequest } from "../../src/fakeapi/validate-request.ts";
import type { AssistantBlock } from "../../src/model/types.ts";
import { createConversationView, isSafeCut } from "../../src/session/view.ts";
import { assistant, text, user } from "../session/make-events.ts";

const call: AssistantBlock = { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "bun pty" }, caller: { type: "direct" } };
const hits: AssistantBlock = {
  type: "web_search_tool_result",
  tool_use_id: "srvtoolu_1",
  caller: { type: "direct" },
  content: [{ type: "web_search_result", title: "Bun.Terminal", url: "https://bun.sh/docs/api/terminal", encrypted_content: "ZW5j", page_age: null }],
};
const unknown: AssistantBlock = { type: "unknown_block", block: { type: "web_archive_tool_result", tool_use_id: "srvtoolu_2", content: { snapshots: 3 } } };
const archiveCall: AssistantBlock = { type: "server_tool_use", id: "srvtoolu_2", name: "web_archive", input: {} };

const request = (messages: unknown) => validateMessagesRequest({ model: "claude-sonnet-5-5", max_tokens: 100, messages });

describe("server tool blocks in the view and compaction", () => {
  test("a call and its result split by a pause_turn are never cut apart", () => {
    const paused = assistant([call]);
    paused.message.stop_reason = "pause_turn";
    const items = [user("first"), assistant([text("earlier answer")]), user("research this"), paused, assistant([hits, text("found")]), user("thanks")];
    expect(isSafeCut(items, 4)).toBe(false);
    expect(isSafeCut(items, 3)).toBe(true);
    for (let keep = 0; keep < 100_000; keep += 50) expect(chooseCut(items, keep)).not.toBe(4);

    // A compaction that names the result's message as the first kept keeps the call too.
    const view = createConversationView();
    for (const e of items) view.apply(e);
    view.apply({ type: "compaction", id: "c1", ts: 1, summary: "## Objective\\nresearch", firstKeptEventId: items[4]!.id, tokensBefore: 1, tokensAfter: 1, trigger: "auto" });
    const ms = view.messages();
    expect(request(ms)).toBeNull();
    const sent = ms.flatMap((m): unknown[] => (typeof m.content === "string" ? [] : m.content));
    expect(sent).toContainEqual(call);
    expect(sent).toContainEqual(hits);
  });

  test("blocks of a type this version does not know are kept in the view beside their call", () => {
    const view = createConversationView();
    view.apply(user("archive it"));
    view.apply(assistant([archiveCall, unknown, text("archived")]));
    view.apply(user("ok"));
    const ms = view.messages();
    expect(ms[1]!.content).toEqual([archiveCall, unknown, text("archived")]);
  });

  test("the checkpoint transcript says what was searched and found", () => {
    const t = transcriptOf([{ role: "user", content: "look it up" }, { role: "assistant", content: [call, hits, archiveCall, unknown, text("found")] }], 10_000);
    expect(t).toContain('[web_search {"query":"bun pty"}]');
    expect(t).toContain("Bun.Terminal — https://bun.sh/docs/api/terminal");
    expect(t).toContain("web_archive_tool_result (");
  });
});
