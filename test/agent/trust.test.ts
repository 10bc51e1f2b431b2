// The one trust facet, in-process: what a project's own files would run (a hook) or widen (an
// allow rule) is listed by a session opened with trustQuestion, answered once for all of it, and
// remembered for the project. Until trusted the hook does not run and the rule does not hold.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AskRequest } from "../../src/agent/types.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { gitProject, inIsolatedHome, openOn, signal } from "./support.ts";

const serve = fakeApiFixture();

/** A project whose .khaelor/settings.json allows `touch` and has a UserPromptSubmit hook that leaves a mark. */
function projectWithSettings(): string {
  const dir = gitProject();
  const hook = join(dir, "mark.sh");
  writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\ntouch "${join(dir, "hook-ran")}"\n`);
  chmodSync(hook, 0o755);
  mkdirSync(join(dir, ".khaelor"));
  writeFileSync(
    join(dir, ".khaelor", "settings.json"),
    JSON.stringify({ permissions: { allow: ["Bash(touch *)"] }, hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook }] }] } }),
  );
  return dir;
}

const touchTurn = {
  turns: [
    { content: [{ type: "tool_use" as const, name: "bash", input: { command: "touch made.txt" } }] },
    { content: [{ type: "text" as const, text: "done" }] },
  ],
};

describe("the trust facet", () => {
  test("trust: the hook and the rule are listed together, hold at once after the one answer, and are not asked about again", async () => {
    await inIsolatedHome(async () => {
      const dir = projectWithSettings();
      const api = await serve(touchTurn);
      const asked: AskRequest[] = [];
      const ask = async (req: AskRequest) => (asked.push(req), { allow: false } as const);
      const session = await openOn(api, dir, { ask, trustQuestion: true });
      try {
        expect(session.trust.pending().map((i) => i.kind).sort()).toEqual(["hook", "setting"].sort());
        expect(session.trust.heldSettings()).toHaveLength(1);
        await session.trust.answer("trust");
        expect(session.trust.pending()).toEqual([]);
        expect(session.trust.heldSettings()).toEqual([]);
        const r = await session.runTurn("touch it", signal());
        expect(r.reason).toBe("finished");
        expect(asked).toEqual([]);
        expect(existsSync(join(dir, "made.txt"))).toBe(true);
        expect(existsSync(join(dir, "hook-ran"))).toBe(true);
      } finally {
        await session.close();
      }
      const again = await openOn(api, dir, { ask, trustQuestion: true });
      try {
        expect(again.trust.pending()).toEqual([]);
        expect(again.trust.heldSettings()).toEqual([]);
      } finally {
        await again.close();
      }
    });
  });

  test("decline: neither the hook nor the rule holds, and the project is not asked about again", async () => {
    await inIsolatedHome(async () => {
      const dir = projectWithSettings();
      const api = await serve(touchTurn);
      const asked: AskRequest[] = [];
      const ask = async (req: AskRequest) => (asked.push(req), { allow: false } as const);
      const session = await openOn(api, dir, { ask, trustQuestion: true });
      try {
        expect(session.trust.pending()).toHaveLength(2);
        await session.trust.answer("decline");
        expect(session.trust.pending()).toEqual([]);
        expect(session.trust.heldSettings()).toHaveLength(1);
        await session.runTurn("touch it", signal());
        expect(asked.map((a) => a.call.name)).toEqual(["bash"]);
        expect(existsSync(join(dir, "made.txt"))).toBe(false);
        expect(existsSync(join(dir, "hook-ran"))).toBe(false);
      } finally {
        await session.close();
      }
      const again = await openOn(api, dir, { ask, trustQuestion: true });
      try {
        expect(again.trust.pending()).toEqual([]);
        expect(again.trust.heldSettings()).toHaveLength(1);
      } finally {
        await again.close();
      }
    });
  });
});
