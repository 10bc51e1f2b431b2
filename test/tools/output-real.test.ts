// What the user and the model are told about a big or binary output is about the real output:
// the "… N earlier lines" under a 15 MB log counts the log's lines (not the budgeted text's), and
// a binary output's spill file holds its exact bytes (not U+FFFD text). The real bash tool.
import { afterEach, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../../src/events/types.ts";
import { Transcript } from "../../src/tui/transcript/transcript.ts";
import { renderEntry } from "../../src/tui/views/entry-view.ts";
import { rowText } from "../../src/tui/views/text.ts";
import { makeHarness, type Harness } from "./harness.ts";

let h: Harness;
afterEach(async () => h?.cleanup());

describe("a big output", () => {
  test.each([
    [2_000_000, "seq 1 2000000"],
    [300_001, "seq 1 300000; printf 'no newline at the end'"],
  ])("%d lines: the row under the call counts the output's lines", async (lines, command) => {
    h = makeHarness();
    const r = await h.call("bash", { command });
    expect(r.display?.lines).toBe(lines);
    const t = new Transcript();
    t.apply({ type: "tool_start", toolUseId: "t1", name: "bash", summary: "bash" });
    t.apply({ id: "r1", ts: 1, type: "tool_result", toolUseId: "t1", name: "bash", content: r.content, isError: false, kind: "ok", summary: "bash", durationMs: 5, display: r.display } as AgentEvent);
    const rows = renderEntry(t.entries.find((x) => x.kind === "tool")!, { width: 80, links: false, full: false }).map(rowText).join("\n");
    expect(rows).toContain(`… ${(lines - 4).toLocaleString("en-US")} earlier lines`);
  });
});

describe("a binary output", () => {
  test.each([
    ["small (under the budget)", 2_000],
    ["large (over the budget, streamed to the file)", 200_000],
  ])("%s: the spill file holds the exact bytes", async (_name, size) => {
    h = makeHarness();
    const r = await h.call("bash", { command: `head -c ${size} /dev/urandom | tee out.bin` });
    expect(r.text).toMatch(new RegExp(`\\[binary output: ${size.toLocaleString("en-US")} bytes; the full output is in (\\S+) `));
    const spilled = /the full output is in (\S+) /.exec(r.text)![1]!;
    expect(Buffer.compare(readFileSync(spilled), readFileSync(join(h.dir, "out.bin")))).toBe(0);
  });
});
