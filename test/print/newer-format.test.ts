// A log a newer KHAELOR wrote (all of it, or lines appended to an older log) is listed, marked, and
// refused with that reason by --continue, --resume and --fork-session; never hidden, and never
// replaced silently by another session. The real CLI against a fake API that must get no request.
import { describe, expect, test } from "bun:test";
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { FORMAT_VERSION } from "../../src/events/schema.ts";
import { createSession } from "../../src/session/store.ts";
import { startFakeApi } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const variants = {
  "a whole log of a newer format": (path: string) => {
    const text = readFileSync(path, "utf8").replace(/"v":\d+/g, '"v":7').replace(/"formatVersion":\d+/, '"formatVersion":7');
    writeFileSync(path, text);
  },
  "an older log a newer KHAELOR continued": (path: string) => {
    appendFileSync(path, `${JSON.stringify({ v: 7, type: "hologram", id: "evt_new", ts: Date.now() + 1000 })}\n`);
  },
};

describe.each(Object.entries(variants))("%s", (_name, makeNewer) => {
  test("is listed as written by a newer KHAELOR, and --continue, --resume and --fork-session refuse it with that reason", async () => {
    const api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "should never be asked" }] }] } });
    try {
      const env = isolatedEnv(api.url);
      const cwd = tempProject();
      const older = createSession({ cwd, model: "claude-sonnet-5-5", permissionMode: "default", env });
      older.append({ type: "user_message", id: "u-old", ts: Date.now() - 60_000, content: "the older session" });
      older.close();
      const newer = createSession({ cwd, model: "claude-sonnet-5-5", permissionMode: "default", env });
      newer.append({ type: "user_message", id: "u-new", ts: Date.now(), content: "the newer session" });
      newer.close();
      makeNewer(newer.path);
      const before = { older: readFileSync(older.path, "utf8"), newer: readFileSync(newer.path, "utf8") };

      const list = await runCli(["sessions"], { cwd, env });
      expect(list.code).toBe(0);
      const line = list.stdout.split("\n").find((l) => l.startsWith(newer.sessionId.slice(0, 8)));
      expect(line).toContain("written by a newer KHAELOR");
      expect(list.stdout).toContain(older.sessionId.slice(0, 8));
      const json = JSON.parse((await runCli(["sessions", "--json"], { cwd, env })).stdout) as Array<{ id: string; newerFormat?: string }>;
      expect(json.find((s) => s.id === newer.sessionId)?.newerFormat).toContain(`format version 7, this one reads up to ${FORMAT_VERSION}`);
      expect(json.find((s) => s.id === older.sessionId)?.newerFormat).toBeUndefined();

      for (const args of [["--continue"], ["--resume", newer.sessionId.slice(0, 8)], ["--resume", newer.sessionId, "--fork-session"]]) {
        const r = await runCli(["-p", ...args, "go on"], { cwd, env });
        expect(r.code).toBe(1);
        expect(r.stderr).toContain(`Session ${newer.sessionId} was written by a newer KHAELOR (format version 7`);
        expect(r.stderr).toContain("no other session was continued in its place");
        expect(r.stderr).not.toContain("does not exist");
        expect(r.stderr).not.toContain("    at ");
      }
      expect(api.requests.filter((q) => q.path.startsWith("/v1/messages"))).toEqual([]);
      expect(readFileSync(older.path, "utf8")).toBe(before.older);
      expect(readFileSync(newer.path, "utf8")).toBe(before.newer);
    } finally {
      await api.close();
    }
  });
});
