// A session nobody spoke in leaves nothing behind: no log in the session list, no spill folder,
// no snapshot index. One with a message stays. The real composition root, a real git repo.
import { expect, test } from "bun:test";
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAgentSession } from "../../src/agent/agent-session.ts";
import { projectSessionsDir } from "../../src/session/paths.ts";
import { listSessions } from "../../src/session/store.ts";
import { withDataHome } from "../support/cli.ts";
import { fakeApiFixture } from "../support/fake-api.ts";

const serve = fakeApiFixture();

test("closing a session nobody spoke in removes it; one with a message is kept", async () => {
  await withDataHome(async () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-proj-"));
    execSync("git init -q .", { cwd: dir });
    const api = await serve({ turns: [{ content: [{ type: "text", text: "hi" }] }] });
    const open = () => openAgentSession({ ask: async () => ({ allow: true }), api: { baseURL: api.url, apiKey: "sk-ant-test" }, cwd: dir });

    const silent = await open();
    expect(existsSync(silent.logPath)).toBe(true);
    expect(silent.isEmpty()).toBe(true);
    await silent.close();
    expect(existsSync(silent.logPath)).toBe(false);
    expect(listSessions(dir)).toEqual([]);
    const leftovers = () => readdirSync(projectSessionsDir(dir), { recursive: true }).map(String).filter((n) => n.includes(silent.sessionId));
    expect(leftovers()).toEqual([]);

    const spoken = await open();
    await spoken.runTurn("hello", new AbortController().signal);
    expect(spoken.isEmpty()).toBe(false);
    await spoken.close();
    expect(listSessions(dir).map((s) => s.id)).toEqual([spoken.sessionId]);
  });
});
