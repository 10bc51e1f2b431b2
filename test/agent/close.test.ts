// close(), in-process: a session nobody spoke in leaves nothing behind; one that was used keeps its
// log, and the processes the agent started are stopped, SessionEnd hearing why; close() runs once.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { metaPathOf } from "../../src/session/paths.ts";
import { listSessions } from "../../src/session/store.ts";
import { groupAlive } from "../../src/workspace/process-group.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

describe("close()", () => {
  test("an empty session: its log, meta file and every file named after it are removed; the project lists no session", async () => {
    await inIsolatedHome(async () => {
      const dir = gitProject();
      const api = await serve({ turns: [] });
      const session = await openOn(api, dir);
      expect(existsSync(session.logPath)).toBe(true);
      expect(session.isEmpty()).toBe(true);
      await session.close();
      expect(existsSync(session.logPath)).toBe(false);
      expect(existsSync(metaPathOf(session.logPath))).toBe(false);
      expect(readdirSync(dirname(session.logPath), { recursive: true }).map(String).filter((n) => n.includes(session.sessionId))).toEqual([]);
      expect(listSessions(dir)).toEqual([]);
    });
  });

  test("a used session: the log stays, the agent's background process is stopped, SessionEnd hears the reason, and a second close() does nothing", async () => {
    await inIsolatedHome(async ({ config }) => {
      const dir = gitProject();
      const ends = join(dir, "ends.txt");
      const hook = join(dir, "end.sh");
      writeFileSync(hook, `#!/bin/sh\ncat >> "${ends}"\necho >> "${ends}"\n`);
      chmodSync(hook, 0o755);
      mkdirSync(join(config, "khaelor"), { recursive: true });
      writeFileSync(join(config, "khaelor", "settings.json"), JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: "command", command: hook }] }] } }));
      const api = await serve({
        turns: [
          { content: [{ type: "tool_use", name: "process", input: { action: "start", name: "sleeper", command: "sleep 600" } }] },
          { content: [{ type: "text", text: "started" }] },
        ],
      });
      const session = await openOn(api, dir, { ask: async () => ({ allow: true }) });
      await session.runTurn("start a sleeper", signal());
      const [sleeper] = session.processes().filter((p) => p.state === "running");
      expect(sleeper?.pid).toEqual(expect.any(Number));
      await session.close("prompt_input_exit");
      await session.close("other");
      expect(groupAlive(sleeper!.pid!)).toBe(false);
      expect(existsSync(session.logPath)).toBe(true);
      expect(listSessions(dir).map((s) => s.id)).toEqual([session.sessionId]);
      const heard = readFileSync(ends, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as { hook_event_name: string; reason: string });
      expect(heard.map((h) => `${h.hook_event_name}:${h.reason}`)).toEqual(["SessionEnd:prompt_input_exit"]);
    });
  });
});
