// The statusLine command's schedule (at most one run per 300 ms, one at a time, one more after a
// run that events came during), its timeout with a real hanging process, and what a failure shows.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runStatusCommand, statusCommand, type StatusCommandDeps } from "../../../src/modes/app/status-line-command.ts";
import type { Span } from "../../../src/tui/render/style.ts";

function clock() {
  let t = 1000;
  const timers: Array<{ at: number; fn: () => void; live: boolean }> = [];
  return {
    now: () => t,
    later(fn: () => void, ms: number) {
      const timer = { at: t + ms, fn, live: true };
      timers.push(timer);
      return () => void (timer.live = false);
    },
    advance(ms: number) {
      t += ms;
      for (const x of timers.filter((x) => x.live && x.at <= t)) {
        x.live = false;
        x.fn();
      }
    },
  };
}

const flush = () => new Promise((r) => setImmediate(r));

/** Polls on the event loop (no sleeps): the process events come when they come. */
async function waitFor<T>(f: () => T | null): Promise<T> {
  for (;;) {
    const v = f();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 5));
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function harness(run: StatusCommandDeps["run"]) {
  const c = clock();
  const shown: Array<Span[] | null> = [];
  const notices: string[] = [];
  let inputs = 0;
  const cmd = statusCommand(() => "./status.sh", () => ({ n: ++inputs }), { run, now: c.now, later: c.later, show: (l) => shown.push(l), notice: (n) => notices.push(n), timeoutMs: 5000 });
  return { c, cmd, shown, notices };
}

describe("the status-line command's schedule", () => {
  test("events within 300 ms of a run make one more run at the 300 ms mark, with the latest input", async () => {
    const stdins: string[] = [];
    const h = harness(async (stdin) => (stdins.push(stdin), "line\n"));
    h.cmd.request();
    await flush();
    expect(stdins).toEqual(['{"n":1}']);
    h.c.advance(100);
    h.cmd.request();
    h.cmd.request();
    h.cmd.request();
    await flush();
    expect(stdins.length).toBe(1);
    h.c.advance(199);
    await flush();
    expect(stdins.length).toBe(1);
    h.c.advance(1);
    await flush();
    expect(stdins).toEqual(['{"n":1}', '{"n":2}']);
    expect(h.shown.map((l) => l?.map((s) => s.text).join(""))).toEqual(["line", "line"]);
  });

  test("one run at a time: events during a run ask for one more after it, not one each", async () => {
    const pending: Array<(out: string) => void> = [];
    const h = harness(() => new Promise<string>((r) => pending.push(r)));
    h.cmd.request();
    h.c.advance(1000);
    h.cmd.request();
    h.cmd.request();
    expect(pending.length).toBe(1);
    pending[0]!("first");
    await flush();
    expect(pending.length).toBe(2);
    pending[1]!("second");
    await flush();
    expect(pending.length).toBe(2);
    expect(h.shown.map((l) => l?.[0]?.text)).toEqual(["first", "second"]);
  });

  test("a command that hangs is killed at its timeout: the built-in line stays, and the notice comes once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "status-hang-"));
    const h = harness((stdin, signal) => runStatusCommand("echo $$ > pid; exec sleep 100", dir, stdin, signal));
    h.cmd.request();
    const pid = Number(await waitFor(() => (existsSync(join(dir, "pid")) ? readFileSync(join(dir, "pid"), "utf8").trim() || null : null)));
    expect(alive(pid)).toBe(true);
    h.c.advance(5000);
    await waitFor(() => (h.notices.length > 0 ? true : null));
    expect(h.notices).toEqual(["status line command ./status.sh did not finish within 5 s; showing the built-in status line (this is said once)"]);
    expect(h.shown).toEqual([null]);
    await waitFor(() => (alive(pid) ? null : true));
    // The next failure is not said again.
    h.c.advance(300);
    h.cmd.request();
    h.c.advance(5000);
    await waitFor(() => (h.shown.length === 2 ? true : null));
    expect(h.shown).toEqual([null, null]);
    expect(h.notices.length).toBe(1);
  });

  test("empty output shows no line; stop() cancels a waiting run", async () => {
    let runs = 0;
    const h = harness(async () => (runs++, "  \n"));
    h.cmd.request();
    await flush();
    expect(h.shown).toEqual([null]);
    h.cmd.request();
    h.cmd.stop();
    h.c.advance(1000);
    await flush();
    expect(runs).toBe(1);
  });
});

describe("runStatusCommand", () => {
  test("the JSON reaches the command's stdin; a failing command says its exit code and stderr", async () => {
    const ac = new AbortController();
    expect(await runStatusCommand("read line; printf 'got %s\\n' \"$line\"", process.cwd(), '{"a":1}\n', ac.signal)).toBe('got {"a":1}\n');
    await expect(runStatusCommand("echo broken >&2; exit 3", process.cwd(), "", ac.signal)).rejects.toThrow("exited with code 3 (broken)");
  });
});
