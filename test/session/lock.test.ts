import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, readFileSync as read, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { processIdentity } from "../../src/session/lock.ts";
import { messageProblems } from "../../src/session/validate.ts";
import { lockPathOf } from "../../src/session/paths.ts";
import { readSessionLog } from "../../src/session/log.ts";
import { createSession, openSession, openSessionForAppend, SessionLockedError } from "../../src/session/store.ts";
import { INTERRUPTED_RESULT } from "../../src/session/view.ts";
import { tempHome, user } from "./make-events.ts";

let home: ReturnType<typeof tempHome>;
afterEach(() => home?.cleanup());

async function firstLine(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let buf = "";
  while (!buf.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    buf += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return buf.split("\n")[0]!;
}

describe("session lock", () => {
  test("a second writer on the same session is refused with a message saying what to do", () => {
    home = tempHome();
    const w = createSession({ cwd: home.cwd, model: "m", permissionMode: "default", env: home.env });
    let err: unknown;
    try {
      openSessionForAppend(w.path);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SessionLockedError);
    expect((err as Error).message).toContain(`process ${process.pid}`);
    expect((err as Error).message).toContain("--fork-session");
    w.close();
    expect(existsSync(lockPathOf(w.path))).toBe(false);
    const again = openSessionForAppend(w.path);
    again.append(user("hello again"));
    again.close();
  });

  test("a lock left by a KHAELOR killed with SIGKILL is recovered, and the resume records the crash", async () => {
    home = tempHome();
    const child = Bun.spawn([process.execPath, "run", `${import.meta.dir}/hold-session.ts`, home.cwd, home.env.KHAELOR_HOME], { stdout: "pipe", stderr: "inherit" });
    const path = await firstLine(child.stdout);
    expect(existsSync(lockPathOf(path))).toBe(true);
    expect(() => openSessionForAppend(path)).toThrow(SessionLockedError);
    child.kill("SIGKILL");
    await child.exited;

    const opened = openSession(path);
    expect(opened.crashed).toBe(true);
    expect(opened.lostProcesses).toEqual([{ toolUseId: "toolu_running", command: "npm run dev", name: "dev", pid: null }]);
    const messages = opened.replayed.view.messages();
    expect(messageProblems(messages)).toEqual([]);
    const last = messages.at(-1)!;
    expect(JSON.stringify(last.content)).toContain(INTERRUPTED_RESULT);
    opened.writer.close();

    // The recovery is in the log itself: a result for the dangling call, an interruption, the turn's end.
    const tail = readSessionLog(path).events.slice(-3).map((e) => e.type);
    expect(tail).toEqual(["tool_result", "interruption", "turn_end"]);
    // A clean reopen is not a crash.
    const again = openSession(path);
    expect(again.crashed).toBe(false);
    expect(again.lostProcesses).toEqual([]);
    again.writer.close();
  });
});

describe("a lock whose pid now belongs to another process (reboot, pid wrap-around)", () => {
  /** A live process that is not KHAELOR, to play the pid that was reused. */
  const bystander = () => Bun.spawn(["sleep", "300"], { stdout: "ignore" });

  test.each([
    ["another start time", (me: NonNullable<ReturnType<typeof processIdentity>>) => ({ boot: me.boot, start: "1", cmd: me.cmd })],
    ["another boot", (me: NonNullable<ReturnType<typeof processIdentity>>) => ({ boot: "00000000-dead-beef-0000-000000000000", start: me.start, cmd: me.cmd })],
    ["another command line", (me: NonNullable<ReturnType<typeof processIdentity>>) => ({ boot: me.boot, start: me.start, cmd: "khaelor\0--resume\0" })],
    ["a lock from before identities were kept", () => ({})],
  ])("%s: the lock is taken over and the resume records the crash", async (_name, identity) => {
    home = tempHome();
    const w = createSession({ cwd: home.cwd, model: "m", permissionMode: "default", env: home.env });
    w.append(user("hello"));
    w.close();
    const sleeper = bystander();
    try {
      const me = processIdentity(sleeper.pid);
      expect(me).not.toBeNull();
      const recorded = identity(me!);
      // What a crashed KHAELOR would have left, but naming the pid the sleeper now has.
      writeFileSync(lockPathOf(w.path), JSON.stringify({ pid: sleeper.pid, host: hostname(), since: Date.now() - 60_000, ...recorded }));
      const opened = openSession(w.path);
      expect(opened.crashed).toBe(true);
      expect(JSON.parse(read(lockPathOf(w.path), "utf8")).pid).toBe(process.pid);
      opened.writer.close();
    } finally {
      sleeper.kill();
      await sleeper.exited;
    }
  });

  test("a live KHAELOR of this session (same pid, start time and command line) keeps its lock, and the refusal names the lock file", async () => {
    home = tempHome();
    const child = Bun.spawn([process.execPath, "run", `${import.meta.dir}/hold-session.ts`, home.cwd, home.env.KHAELOR_HOME], { stdout: "pipe", stderr: "inherit" });
    try {
      const path = await firstLine(child.stdout);
      let err: unknown;
      try {
        openSessionForAppend(path);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(SessionLockedError);
      expect((err as Error).message).toContain(`process ${child.pid}`);
      expect((err as Error).message).toContain(lockPathOf(path));
    } finally {
      child.kill("SIGKILL");
      await child.exited;
    }
  });
});
