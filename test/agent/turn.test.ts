// One prompt to one result through openAgentSession, in-process: the model's call asked about
// through the mode's Asker, run, its result sent back; every durable event in the log, in order,
// before a subscriber sees it. The real session service, a real git project, the fake API.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { AskRequest } from "../../src/agent/types.ts";
import type { AgentEvent } from "../../src/events/types.ts";
import { readSessionLog } from "../../src/session/log.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

test("a turn: the call is asked about, runs, and its result reaches the model; the log has every step in order", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [
        { content: [{ type: "text", text: "Making it." }, { type: "tool_use", id: "toolu_t1", name: "bash", input: { command: "echo made > out.txt" } }] },
        { content: [{ type: "text", text: "DONE" }], expect: { lastHasToolResult: { isError: false } } },
      ],
    });
    const asked: AskRequest[] = [];
    const session = await openOn(api, dir, { ask: async (req) => (asked.push(req), { allow: true }) });
    const seen: string[] = [];
    // The log is the first subscriber: whatever durable event a mode sees is already on disk.
    const onDisk: boolean[] = [];
    session.subscribe((e: AgentEvent) => {
      seen.push(e.type);
      if (e.type === "tool_result") onDisk.push(readFileSync(session.logPath, "utf8").includes('"type":"tool_result"'));
    });
    try {
      expect(session.isEmpty()).toBe(true);
      const r = await session.runTurn("make out.txt", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r).toMatchObject({ reason: "finished", steps: 2, lastText: "DONE" });
      expect(asked.map((a) => a.call.name)).toEqual(["bash"]);
      expect(asked[0]!.summary).toContain("echo made > out.txt");
      expect(readFileSync(join(dir, "out.txt"), "utf8")).toBe("made\n");
      expect(seen).toContain("tool_start");
      expect(onDisk).toEqual([true]);
      expect(session.isEmpty()).toBe(false);
      expect(session.costSoFar()).toBeGreaterThan(0);
      const logged = readSessionLog(session.logPath).events.map((e) => e.type);
      expect(logged.filter((t) => t !== "permission_decision")).toEqual(["session_header", "user_message", "assistant_message", "tool_result", "assistant_message", "turn_end"]);
    } finally {
      await session.close();
    }
    expect(existsSync(session.logPath)).toBe(true);
  });
});

test("a denied call is not run; the model hears the denial and the turn goes on", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "touch denied.txt" } }] },
        { content: [{ type: "text", text: "OK, not doing it." }], expect: { lastHasToolResult: { isError: true, contentMatches: "not today" } } },
      ],
    });
    const session = await openOn(api, dir, { ask: async () => ({ allow: false, message: "not today" }) });
    try {
      const r = await session.runTurn("touch it", signal());
      expect(api.checkFailures).toEqual([]);
      expect(r).toMatchObject({ reason: "finished", lastText: "OK, not doing it." });
      expect(existsSync(join(dir, "denied.txt"))).toBe(false);
    } finally {
      await session.close();
    }
  });
});
