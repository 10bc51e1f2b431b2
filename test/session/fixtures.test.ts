// Every past format version keeps replaying. test/fixtures/sessions/v<N>.jsonl is the same session
// written in format N; when the format changes, add the new fixture and a migration, never edit an old one.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { FORMAT_VERSION, parseEventLine } from "../../src/events/schema.ts";
import type { DurableEvent } from "../../src/events/types.ts";
import { readSessionLog } from "../../src/session/log.ts";
import { replaySession } from "../../src/session/replay.ts";
import { messageProblems } from "../../src/session/validate.ts";

const dir = join(import.meta.dir, "..", "fixtures", "sessions");
const versions = Array.from({ length: FORMAT_VERSION }, (_, i) => i + 1);

describe("format versions", () => {
  test("there is a fixture for every version up to today's", () => {
    for (const v of versions) expect(existsSync(join(dir, `v${v}.jsonl`))).toBe(true);
  });

  for (const v of versions) {
    test(`a v${v} session replays: view, cost, grants, title, settings`, () => {
      const log = readSessionLog(join(dir, `v${v}.jsonl`));
      expect(log.warnings).toEqual([]);
      const r = replaySession(log.events);
      expect(r.header?.sessionId).toBe("f1x70000-0000-4000-8000-000000000001");
      expect(r.title).toBe("Verbose flag");
      expect(r.turns).toBe(2);
      // From v4 a background subagent's end (agent_end) adds what it spent.
      expect(r.costUsd).toBeCloseTo(0.0061 + 0.0042 + 0.0031 + 0.0029 + 0.0027 + (v >= 4 ? 0.0012 : 0), 10);
      expect(r.model).toBe("claude-opus-5-5");
      expect(r.permissionMode).toBe("acceptEdits");
      expect(r.grants).toEqual([{ rule: "Edit(./src/**)", decision: "allow" }]);
      expect(r.danglingToolUses).toEqual([]);
      expect(r.turnOpen).toBe(false);
      expect(r.toolNamesUsed).toEqual(["bash", "edit", "read"]);
      const ms = r.view.messages();
      expect(messageProblems(ms)).toEqual([]);
      // The compaction kept "Now run the tests" onwards, behind the summary.
      expect(JSON.stringify(ms[0])).toContain("Add --verbose.");
      expect(JSON.stringify(ms[0])).toContain("Now run the tests");
      expect(JSON.stringify(ms)).not.toContain("Let me read the parser.");
      expect(JSON.stringify(ms.at(-1))).toContain("README.md (changed since)");
    });
  }

  test("today's fixture holds every durable event type, so none can lose its replay test", () => {
    const types = new Set(readSessionLog(join(dir, `v${FORMAT_VERSION}.jsonl`)).events.map((e) => e.type));
    const all: Array<DurableEvent["type"]> = [
      "session_header", "user_message", "assistant_message", "tool_result", "permission_decision", "compaction",
      "interruption", "setting_change", "error", "undo", "turn_end", "agent_end",
    ];
    expect([...types].sort()).toEqual([...all].sort());
  });

  test("from v3 an image is a file beside the log, read back as the image it was", () => {
    const log = readSessionLog(join(dir, "v3.jsonl"));
    const image = JSON.stringify(log.events[1]).match(/"media_type":"image\/png","data":"([^"]+)"/)?.[1];
    expect(image).toBeDefined();
    expect(Buffer.from(image!, "base64").subarray(1, 4).toString()).toBe("PNG");
  });

  test("a line without its own version stamp is read as the header's version", () => {
    const line = readFileSync(join(dir, "v1.jsonl"), "utf8").split("\n")[1]!.replace('"v":1,', "");
    expect(parseEventLine(line, 1).type).toBe("user_message");
  });
});
