// The API's own web search and fetch as tool rows: the query and the URLs it found, the page it
// fetched and its size; a result of a kind this version does not know gets a plain row of its own.
// Streamed (block_done) and replayed (the finished message) give the same rows.
import { describe, expect, test } from "bun:test";
import type { AgentEvent } from "../../../src/events/types.ts";
import type { AssistantBlock } from "../../../src/model/types.ts";
import { Transcript } from "../../../src/tui/transcript/transcript.ts";
import { renderEntry } from "../../../src/tui/views/entry-view.ts";
import { rowText } from "../../../src/tui/views/text.ts";

const blocks: AssistantBlock[] = [
  { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "bun pty" } },
  {
    type: "web_search_tool_result",
    tool_use_id: "srvtoolu_1",
    content: [
      { type: "web_search_result", title: "Bun.Terminal", url: "https://bun.sh/docs/api/terminal", encrypted_content: "x", page_age: null },
      { type: "web_search_result", title: "Bun.spawn", url: "https://bun.sh/docs/api/spawn", encrypted_content: "y", page_age: null },
    ],
  },
  { type: "server_tool_use", id: "srvtoolu_2", name: "web_fetch", input: { url: "https://bun.sh/docs/api/terminal" } },
  {
    type: "web_fetch_tool_result",
    tool_use_id: "srvtoolu_2",
    content: { type: "web_fetch_result", url: "https://bun.sh/docs/api/terminal", content: { type: "document", title: "Bun.Terminal", source: { type: "text", media_type: "text/plain", data: "z".repeat(12_345) } } },
  },
  { type: "server_tool_use", id: "srvtoolu_3", name: "web_fetch", input: { url: "https://intranet.example" } },
  { type: "web_fetch_tool_result", tool_use_id: "srvtoolu_3", content: { type: "web_fetch_tool_result_error", error_code: "url_not_allowed" } },
  { type: "unknown_block", block: { type: "web_archive_tool_result", content: { snapshots: 3 } } },
  { type: "text", text: "Bun has pseudo-terminals." },
];

const message = (): AgentEvent => ({
  type: "assistant_message",
  id: "a1",
  ts: 2000,
  costUsd: 0.01,
  message: { id: "msg_1", model: "claude-sonnet-5-5", content: blocks, stop_reason: "end_turn", usage: { input_tokens: 10, output_tokens: 5, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 } },
});

function rows(t: Transcript): string[] {
  return t.entries.flatMap((e) => renderEntry(e, { width: 100, links: false, full: false }).map(rowText));
}

describe("web rows", () => {
  test("a search shows its query and the URLs found; a fetch its URL and size; an error why; an unknown result its type", () => {
    const replayed = new Transcript();
    replayed.apply({ type: "user_message", id: "u1", ts: 1000, content: "look it up" });
    replayed.apply(message(), 3000);
    const shown = rows(replayed).join("\n");
    expect(shown).toContain('✓ web_search "bun pty" (2 results)');
    expect(shown).toContain("│ https://bun.sh/docs/api/terminal\n");
    expect(shown).toContain("│ https://bun.sh/docs/api/spawn");
    expect(shown).toContain("✓ web_fetch https://bun.sh/docs/api/terminal");
    expect(shown).toContain('│ https://bun.sh/docs/api/terminal (12,345 characters, "Bun.Terminal")');
    expect(shown).toContain("✗ web_fetch https://intranet.example");
    expect(shown).toContain("url_not_allowed");
    expect(shown).toContain("✓ web_archive_tool_result");
    expect(shown).toContain("not shown by this version");
    expect(shown).toContain("Bun has pseudo-terminals.");

    // Streamed: each block as it finishes, then the message; the same rows, none twice.
    const live = new Transcript();
    live.apply({ type: "user_message", id: "u1", ts: 1000, content: "look it up" });
    live.apply({ type: "message_start", id: "msg_1", model: "claude-sonnet-5-5" });
    live.apply({ type: "block_done", index: 0, block: blocks[0]! }, 1000);
    expect(rows(live).join("\n")).toContain('web_search "bun pty"');
    blocks.forEach((block, index) => {
      if (block.type === "text") live.apply({ type: "text_delta", index, text: block.text });
      live.apply({ type: "block_done", index, block }, 3000);
    });
    live.apply(message(), 3000);
    // Only the live rows know how long the API took.
    expect(rows(live)[1]).toBe('✓ web_search "bun pty" (2 results) 2.0s');
    expect(rows(replayed)[1]).toBe('✓ web_search "bun pty" (2 results)');
    const untimed = (r: string[]) => r.map((l) => l.replace(/ \d+(\.\d+)?(ms|s)$/, ""));
    expect(untimed(rows(live))).toEqual(rows(replayed));
  });
});
