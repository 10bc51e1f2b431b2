// Rewind through the session service, in-process: a real git project changed by the agent's real
// bash commands, and the fake Messages API's request log for what the model is sent afterwards.
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RewindTargetError } from "../../src/agent/rewind.ts";
import { readSessionLog } from "../../src/session/log.ts";
import { listSessions } from "../../src/session/store.ts";
import { fakeApiFixture, type FakeApi } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();
const bash = (id: string, command: string) => ({ content: [{ type: "tool_use" as const, id, name: "bash", input: { command } }] });
const say = (text: string) => ({ content: [{ type: "text" as const, text }] });
const bodies = (api: FakeApi) => api.requests.filter((r) => r.outcome === "served").map((r) => (r.body as { messages: Array<{ role: string; content: unknown }> }).messages);
const read = (dir: string, f: string) => readFileSync(join(dir, f), "utf8");

/** Two turns of bash changes, then the user's own edits: one file of their own, one the agent made. */
async function twoTurns(dir: string, api: FakeApi) {
  writeFileSync(join(dir, "seed.txt"), "seed\n");
  const session = await openOn(api, dir, { permissionMode: "bypassPermissions" });
  await session.runTurn("make notes", signal());
  await session.runTurn("append to them", signal());
  // The turn's end snapshot is taken after the answer shows; /diff waits for it (git runs one at a time).
  await session.snapshots.diff();
  writeFileSync(join(dir, "own.txt"), "the user's\n");
  writeFileSync(join(dir, "extra.txt"), "the user rewrote the agent's file\n");
  return session;
}
const scenario = {
  turns: [
    bash("toolu_r1", "echo one > notes.txt"),
    say("Made."),
    bash("toolu_r2", "echo two >> notes.txt && echo extra > extra.txt && rm seed.txt"),
    say("Appended."),
    say("Appended differently."),
  ],
};

test("code and conversation: files back to before the message (bash changes too, the user's edits kept), and the next request holds exactly the history before it", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve(scenario);
    const session = await twoTurns(dir, api);
    try {
      const points = session.rewind.points();
      expect(points.map((p) => p.text)).toEqual(["append to them", "make notes"]);
      const out = await session.rewind.to(points[0]!.id, { conversation: true, code: true });
      expect(out.text).toBe("append to them");
      expect(out.code?.restored).toEqual(["notes.txt", "seed.txt"]);
      expect(out.code?.skipped).toEqual([{ path: "extra.txt", reason: expect.stringContaining("you changed it after the agent") }]);
      expect(read(dir, "notes.txt")).toBe("one\n");
      expect(read(dir, "seed.txt")).toBe("seed\n");
      expect(read(dir, "extra.txt")).toBe("the user rewrote the agent's file\n");
      expect(read(dir, "own.txt")).toBe("the user's\n");

      await session.runTurn("append, but differently", signal());
      const sent = bodies(api);
      // The request after the rewind is the first request of the rewound turn, with the new message.
      const rewoundTurn = sent[2]!;
      expect(sent[4]!.slice(0, -1)).toEqual(rewoundTurn.slice(0, -1));
      expect(JSON.stringify(sent[4]!.at(-1))).toContain("append, but differently");
      expect(JSON.stringify(sent[4])).not.toContain("append to them");
      expect(JSON.stringify(sent[4])).not.toContain("Appended.");
      expect(session.rewind.points().map((p) => p.text)).toEqual(["append, but differently", "make notes"]);
    } finally {
      await session.close();
    }
    // One session in the list; its log keeps the abandoned turn and the rewind.
    expect(listSessions(dir).map((s) => s.id)).toEqual([session.sessionId]);
    const events = readSessionLog(session.logPath).events;
    expect(events.filter((e) => e.type === "rewind")).toHaveLength(1);
    expect(JSON.stringify(events)).toContain("append to them");
  });
});

test("conversation only leaves the files; code only leaves the conversation and tells the model", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({ turns: [...scenario.turns.slice(0, 4), say("ok"), say("ok again")] });
    const session = await twoTurns(dir, api);
    try {
      const [second, first] = session.rewind.points();
      await session.rewind.to(second!.id, { conversation: true, code: false });
      expect(read(dir, "notes.txt")).toBe("one\ntwo\n");
      await session.runTurn("next", signal());
      expect(JSON.stringify(bodies(api)[4])).not.toContain("append to them");
      // The model is told the files may hold what the dropped messages did, in the request after the rewind only.
      expect(JSON.stringify(bodies(api)[4]!.at(-1))).toContain("left the files as they are now");

      const out = await session.rewind.to(first!.id, { conversation: false, code: true });
      expect(out.code?.restored).toEqual(["notes.txt", "seed.txt"]);
      expect(existsSync(join(dir, "notes.txt"))).toBe(false);
      await session.runTurn("and now?", signal());
      const last = JSON.stringify(bodies(api)[5]);
      expect(last).toContain("make notes");
      expect(last).toContain("put the files back");
    } finally {
      await session.close();
    }
  });
});

test("a target that is not in the conversation: a clear error, and nothing changes", async () => {
  await inIsolatedHome(async () => {
    const dir = gitProject();
    const api = await serve({ turns: [...scenario.turns.slice(0, 4)] });
    const session = await twoTurns(dir, api);
    try {
      const [second] = session.rewind.points();
      await session.rewind.to(second!.id, { conversation: true, code: false });
      const before = readFileSync(session.logPath);
      // Rewound away already: no longer a message of the conversation.
      const err = await session.rewind.to(second!.id, { conversation: true, code: true }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(RewindTargetError);
      expect((err as Error).message).toContain("not in this session's conversation");
      expect(readFileSync(session.logPath).equals(before)).toBe(true);
      expect(read(dir, "notes.txt")).toBe("one\ntwo\n");
    } finally {
      await session.close();
    }
  });
});
