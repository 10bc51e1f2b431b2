import { afterEach, describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
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
