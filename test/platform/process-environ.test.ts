// Telling our process groups from a stranger's by the environment: /proc on Linux, ps where there
// is no /proc (macOS). Both branches run here against real processes; ps runs with the arguments
// for the platform it is on (procps' `e` here, BSD's -E on macOS, checked as arguments).
import { afterEach, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { environHas, environSource, psEnvironArgs } from "../../src/platform/process-environ.ts";
import { commandEnv, signalGroup, spawnShellGroup } from "../../src/workspace/process-group.ts";

const started: number[] = [];
afterEach(() => {
  for (const pid of started.splice(0)) signalGroup(pid, "SIGKILL");
});
function marked(mark: string): number {
  const g = spawnShellGroup("sleep 300", { cwd: "/", env: commandEnv({ KHAELOR_SESSION_ID: mark }), stdin: "ignore" });
  started.push(g.pid);
  // Until the child has exec'd, /proc shows the environment it was forked with (ours): wait for
  // sleep itself (on a loaded machine the read came first, without the mark; waiting only for a
  // command line other than ours still read an environment mid-exec once in CI).
  if (process.platform === "linux") {
    const deadline = Date.now() + 10_000;
    while (!readFileSync(`/proc/${g.pid}/cmdline`, "utf8").startsWith("sleep\0")) {
      if (Date.now() > deadline) throw new Error("the marked process never started");
      Bun.sleepSync(1);
    }
  }
  return g.pid;
}
const gonePid = 2 ** 22 + 11;

test("Linux reads /proc; macOS, without it, asks ps", () => {
  expect(environSource("linux")).toBe("proc");
  expect(environSource("darwin")).toBe("ps");
  expect(psEnvironArgs(42, "darwin")).toEqual(["-E", "-ww", "-o", "command=", "-p", "42"]);
  expect(psEnvironArgs(42, "linux")).toEqual(["eww", "-o", "command=", "-p", "42"]);
});

test.skipIf(process.platform !== "linux")("/proc: ours, a stranger's and a gone pid are told apart", () => {
  const pid = marked("session-a");
  expect(environHas(pid, "KHAELOR_SESSION_ID=session-a", "proc")).toBe(true);
  expect(environHas(pid, "KHAELOR_SESSION_ID=session-b", "proc")).toBe(false);
  expect(environHas(gonePid, "KHAELOR_SESSION_ID=session-a", "proc")).toBeNull();
});

test("ps: ours is found; anything else is unknown, since ps leaves out what it may not read", () => {
  const pid = marked("session-a");
  expect(environHas(pid, "KHAELOR_SESSION_ID=session-a", "ps")).toBe(true);
  expect(environHas(pid, "KHAELOR_SESSION_ID=session-b", "ps")).toBeNull();
  expect(environHas(gonePid, "KHAELOR_SESSION_ID=session-a", "ps")).toBeNull();
});
