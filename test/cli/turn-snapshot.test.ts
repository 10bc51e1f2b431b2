// The end of a turn does not wait for its /undo snapshot (git can take seconds in a big repository,
// and the answer's end should show at once), so what comes after it must wait for it instead:
// /undo sent the moment the turn ended still puts back that turn, and close() lets it finish.
// The real composition root, a real git repo, the write tool against the fake API.
import { expect, test } from "bun:test";
import { execSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openAgentSession } from "../../src/agent/agent-session.ts";
import { withDataHome } from "../support/cli.ts";
import { fakeApiFixture } from "../support/fake-api.ts";

const serve = fakeApiFixture();

test("/undo the moment a turn ended puts back that turn's edits", async () => {
  await withDataHome(async () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-proj-"));
    execSync("git init -q .", { cwd: dir });
    writeFileSync(join(dir, "notes.txt"), "old\n");
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "write", input: { file_path: join(dir, "made.txt"), content: "new\n" } }] },
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const session = await openAgentSession({ ask: async () => ({ allow: true }), api: { baseURL: api.url, apiKey: "sk-ant-test" }, cwd: dir });
    try {
      const r = await session.runTurn("make a file", new AbortController().signal);
      expect(r.reason).toBe("finished");
      expect(existsSync(join(dir, "made.txt"))).toBe(true);
      const undone = await session.snapshots.undo();
      expect(undone?.removed).toEqual(["made.txt"]);
      expect(existsSync(join(dir, "made.txt"))).toBe(false);
      expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("old\n");
    } finally {
      await session.close();
    }
  });
});
