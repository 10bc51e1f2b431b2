// The sandbox's one-key offer in the real app, in a pseudo-terminal against the fake Messages API:
// a command the sandbox blocked (a denied host, a write outside) offers to allow that for the
// session or to run the command once outside; either way it runs again and the model reads the
// second result. Skipped, and said so, where bubblewrap cannot run.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { probeSandbox } from "../../../src/sandbox/availability.ts";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { idle, KEY, ptyFixtures, submit, type PtySession } from "./harness.ts";

const avail = probeSandbox();
if (!avail.ok) console.log(`sandbox offer: SKIPPED, the sandbox cannot run here: ${avail.why}`);
const fixtures = ptyFixtures();
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

function sandboxedEnv(url: string): Record<string, string> {
  const env = isolatedEnv(url);
  mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
  writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify({ sandbox: { enabled: true } }));
  return env;
}

/** The offer takes keys: its "[g]" is no longer dimmed. */
function offerArmed(s: PtySession): boolean {
  const lines = s.term.lines();
  for (let i = lines.length - 1; i >= 0; i--) {
    const col = lines[i]!.indexOf("[g]");
    if (col >= 0) return s.term.cellStyle(i, col)?.dim === false;
  }
  return false;
}

describe.skipIf(!avail.ok || !avail.socat)("the sandbox's offer after a blocked command", () => {
  test("a denied host: g allows it for the session, the command runs again and reaches it", async () => {
    const host = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("HOST-OK\n") });
    try {
      const command = `curl -s --noproxy '' -x "$HTTP_PROXY" http://localhost:${host.port}/`;
      const fake = await fixtures.api({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command } }] }, text("FETCH-DONE")] });
      const s = fixtures.pty([], { cwd: tempProject(), env: sandboxedEnv(fake.url) });
      await s.waitFor(idle, "the composer");
      expect(s.all()).toContain("sandbox on (bubblewrap)");
      await submit(s, "fetch it");
      await s.waitForText("Blocked by the sandbox");
      expect(s.screen()).toContain("blocked by the sandbox: network to localhost");
      expect(s.screen()).toContain("[g] allow the network to localhost for this session, run again");
      expect(s.screen()).toContain("[o] run it once outside the sandbox");
      await s.waitFor(() => offerArmed(s), "the offer to take keys");
      s.type("g");
      await s.waitFor((sc) => sc.includes("FETCH-DONE") && idle(sc), "the turn's end");
      const result = JSON.stringify(fake.requests[1]?.body ?? null);
      expect(result).toContain("the user allowed the network to localhost for this session and it ran again");
      expect(result).toContain("HOST-OK");
      s.send(KEY.ctrlD);
      expect(await s.exited).toBe(0);
    } finally {
      host.stop(true);
    }
  }, 60_000);

  test("a write outside: o runs it once outside the sandbox; n keeps the failure", async () => {
    // Not under a temporary directory: those are writable inside.
    const base = join(homedir(), ".cache");
    mkdirSync(base, { recursive: true });
    const outside = mkdtempSync(join(base, "khaelor-offer-test-"));
    try {
      const fake = await fixtures.api({
        turns: [
          { content: [{ type: "tool_use", name: "bash", input: { command: `echo one > ${outside}/one.txt` } }] },
          { content: [{ type: "tool_use", name: "bash", input: { command: `echo two > ${outside}/two.txt` } }] },
          text("WRITES-DONE"),
        ],
      });
      const s = fixtures.pty([], { cwd: tempProject(), env: sandboxedEnv(fake.url) });
      await submit(s, "write them");
      await s.waitForText(`write to ${outside}/one.txt`);
      await s.waitFor(() => offerArmed(s), "the offer to take keys");
      expect(existsSync(join(outside, "one.txt"))).toBe(false);
      s.type("o");
      await s.waitForText(`write to ${outside}/two.txt`);
      expect(existsSync(join(outside, "one.txt"))).toBe(true);
      await s.waitFor(() => offerArmed(s), "the second offer to take keys");
      s.type("n");
      await s.waitFor((sc) => sc.includes("WRITES-DONE") && idle(sc), "the turn's end");
      expect(existsSync(join(outside, "two.txt"))).toBe(false);
      expect(JSON.stringify(fake.requests[1]?.body ?? null)).toContain("the user had it run once outside the sandbox");
      expect(JSON.stringify(fake.requests[2]?.body ?? null)).toContain("blocked by the sandbox: write to");
      s.send(KEY.ctrlD);
      expect(await s.exited).toBe(0);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  }, 60_000);
});
