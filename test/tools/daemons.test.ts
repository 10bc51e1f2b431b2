// Daemons a bash command starts leave its process group (setsid, setsid -f, a double fork), so
// stopping the group misses them; they keep the call's mark in their environment, and are found,
// stopped and named to the model. Real processes; `ps` proves nothing is left.
import { afterEach, describe, expect, test } from "bun:test";
import { leftovers, makeHarness, processesWith, type Harness } from "./harness.ts";

let h: Harness;
afterEach(async () => h?.cleanup());

const token = () => String(300_000 + Math.floor(Math.random() * 600_000));

describe.skipIf(process.platform !== "linux")("daemons started by bash", () => {
  // Each daemon says when it is detached (a file), and the command waits for that: the group stop
  // at the end of the command must not catch it before it left.
  const detached = "ps -o sid= -p $$ > detached";
  const waitDetached = "until [ -s detached ]; do :; done; echo started";
  test.each([
    ["setsid in the background", (t: string) => `setsid sh -c '${detached}; exec sleep ${t}' & ${waitDetached}`],
    ["setsid -f", (t: string) => `setsid -f sh -c '${detached}; exec sleep ${t}' >/dev/null 2>&1; ${waitDetached}`],
    ["a double fork with setsid", (t: string) => `(setsid sh -c '(${detached}; exec sleep ${t}) & exit' >/dev/null 2>&1 &); ${waitDetached}`],
    [
      "a perl daemon (fork, setsid, fork)",
      // The marker is written by the shell it execs, whose command line already names the sleep: the
      // scan may come between the marker and the sleep's exec (it once saw "perl" there).
      (t: string) => `perl -MPOSIX -e 'fork and exit; POSIX::setsid(); fork and exit; exec "sh", "-c", "${detached}; exec sleep ${t}"' >/dev/null 2>&1; ${waitDetached}`,
    ],
  ])("%s: stopped after the command, and the model is told", async (_name, command) => {
    h = makeHarness();
    const t = token();
    const r = await h.call("bash", { command: command(t) });
    expect(r.text).toContain("started");
    expect(r.text).toMatch(new RegExp(`left its process group \\(setsid or a double fork\\): .*sleep ${t}.*; stopped`));
    expect(await leftovers(`sleep ${t}`)).toEqual([]);
  });

  test("a command that leaves nothing behind says nothing about daemons", async () => {
    h = makeHarness();
    const r = await h.call("bash", { command: "echo plain" });
    expect(r.text).not.toContain("process group");
  });

  test("another session's daemon is not touched (only this call's mark counts)", async () => {
    h = makeHarness();
    const t = token();
    const stranger = Bun.spawn(["setsid", "sleep", t], { env: { ...process.env, KHAELOR_CALL: "someone-else" }, stdout: "ignore" });
    try {
      const r = await h.call("bash", { command: "echo mine" });
      expect(r.text).not.toContain("process group");
      expect(processesWith(`sleep ${t}`).length).toBe(1);
    } finally {
      stranger.kill("SIGKILL");
      await stranger.exited;
    }
  });
});
