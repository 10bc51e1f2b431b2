import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { leftovers, makeHarness, sleepToken, type Harness } from "./harness.ts";

let h: Harness;
beforeAll(() => {
  h = makeHarness("khaelor-proc-");
});
afterAll(() => h.cleanup());
afterEach(async () => {
  expect(await leftovers(`.${process.pid}`)).toEqual([]);
  expect(await leftovers(h.dir)).toEqual([]);
});

describe("process", () => {
  test("a dev server: started, waited for, queried with curl through bash, stopped", async () => {
    // A real HTTP server on 127.0.0.1 with a port the OS picks; it prints where it listens.
    writeFileSync(
      join(h.dir, "server.ts"),
      `const s = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: (req) => new Response("hello from " + new URL(req.url).pathname) });\nconsole.log("booting");\nconsole.log("Listening on http://127.0.0.1:" + s.port);\n`,
    );
    const start = await h.call("process", { action: "start", command: `${process.execPath} ${join(h.dir, "server.ts")}`, name: "web" });
    expect(start.isError).toBe(false);
    expect(start.text).toMatch(/Started "web" as p\d+ \(pid \d+\)/);

    const ready = await h.call("process", { action: "read", id: "web", wait_for: "Listening on http://\\S+", timeout: 20_000 });
    expect(ready.isError).toBe(false);
    expect(ready.text).toContain("booting");
    const url = /Listening on (http:\/\/\S+)/.exec(ready.text)![1]!;

    const curl = await h.call("bash", { command: `curl -s ${url}/health` });
    expect(curl.text).toContain("hello from /health");

    const list = await h.call("process", { action: "list" });
    expect(list.text).toMatch(/p\d+\tweb\tpid \d+\trunning/);

    const again = await h.call("process", { action: "read", id: "web" });
    expect(again.text).toContain("(no new output)");

    const stop = await h.call("process", { action: "stop", id: "web" });
    expect(stop.text).toContain("Stopped web");
    const after = await h.call("bash", { command: `curl -s -o /dev/null -w '%{http_code}' ${url}/ || echo refused` });
    expect(after.text).toContain("refused");
    // A stop the model asked for is not news at its next turn.
    expect(h.ws.processes.takeExitNotices()).toEqual([]);
  });

  test("a catastrophic wait_for pattern runs off the event loop and the read still answers; literal and simple patterns match", async () => {
    // 20000 a's then "!" with no newline: /(a+)+$/ backtracks exponentially on it in any engine.
    await h.call("process", { action: "start", command: `printf '>>> ready on port 8080\\n'; printf 'a%.0s' $(seq 20000); printf '!'; sleep 30`, name: "evil" });
    const prompt = await h.call("process", { action: "read", id: "evil", wait_for: ">>> ", timeout: 20_000 });
    expect(prompt.isError).toBe(false);
    const port = await h.call("process", { action: "read", id: "evil", since: 0, wait_for: "port \\d+", timeout: 20_000 });
    expect(port.isError).toBe(false);
    await h.call("process", { action: "read", id: "evil", since: 0, wait_for: "!", timeout: 20_000 });
    // Checked off the event loop (in a worker with a budget per check): the read answers at its timeout.
    const r = await h.call("process", { action: "read", id: "evil", since: 0, wait_for: "(a+)+$", timeout: 3_000 });
    expect(r.isError).toBe(true);
    // JavaScriptCore gives up on it after ~0.4 s of CPU ("no match", so the read waits to its
    // timeout); on a machine busy enough to stretch that past 2 s the budget stops it first.
    expect(r.text).toMatch(/\/\(a\+\)\+\$\/ (did not appear within 3000 ms|took over 2 s on one check)/);
    await h.call("process", { action: "stop", id: "evil", signal: "KILL" });
  });

  test("a process that exits on its own is announced once at the next turn", async () => {
    await h.call("process", { action: "start", command: "echo compiling; exit 2", name: "build" });
    const r = await h.call("process", { action: "read", id: "build", wait_for: "never-printed", timeout: 10_000 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("did not appear before the process ended");
    expect(r.text).toContain("exited with code 2");
    const notices = h.ws.processes.takeExitNotices();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^process build \(p\d+\) exited with code 2/);
    expect(h.ws.processes.takeExitNotices()).toEqual([]);
  });

  test("write types lines into the terminal of a REPL-like process; tail and since select output", async () => {
    await h.call("process", { action: "start", command: `while read -r line; do echo "got:$line"; done`, name: "repl" });
    await h.call("process", { action: "write", id: "repl", input: "one\ntwo\nthree\n" });
    const r = await h.call("process", { action: "read", id: "repl", wait_for: "got:three" });
    // The terminal echoes what was typed, as it would for a user.
    expect(r.text).toContain("one\ntwo\nthree\n");
    expect(r.text).toContain("got:one\ngot:two\ngot:three");
    const offset = Number(/offset (\d+)/.exec(r.text)![1]);
    await h.call("process", { action: "write", id: "repl", input: "four\n" });
    await h.call("process", { action: "read", id: "repl", wait_for: "got:four" });
    const since = await h.call("process", { action: "read", id: "repl", since: offset });
    expect(since.text.startsWith("four\ngot:four")).toBe(true);
    const tail = await h.call("process", { action: "read", id: "repl", since: 0, tail: 1 });
    expect(tail.text.startsWith("got:four\n")).toBe(true);
    await h.call("process", { action: "stop", id: "repl" });
  });

  test("wait_for times out with the output so far", async () => {
    const t = sleepToken(10);
    await h.call("process", { action: "start", command: `echo warming; sleep ${t}`, name: "slow" });
    const r = await h.call("process", { action: "read", id: "slow", wait_for: "ready", timeout: 200 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("warming");
    expect(r.text).toContain("did not appear within 200 ms");
    await h.call("process", { action: "stop", id: "slow" });
    expect(await leftovers(t)).toEqual([]);
  });

  test("stop reaches the whole group, grandchildren included", async () => {
    const t = sleepToken(11);
    await h.call("process", { action: "start", command: `(sleep ${t}) & (sleep ${t}) & echo up; wait`, name: "tree" });
    await h.call("process", { action: "read", id: "tree", wait_for: "up" });
    await h.call("process", { action: "stop", id: "tree" });
    expect(await leftovers(t)).toEqual([]);
  });

  test("a process that ignores TERM is killed after the grace period", async () => {
    const t = sleepToken(12);
    await h.call("process", { action: "start", command: `trap '' TERM; echo armed; sleep ${t}`, name: "stubborn" });
    await h.call("process", { action: "read", id: "stubborn", wait_for: "armed" });
    const r = await h.call("process", { action: "stop", id: "stubborn" });
    expect(r.text).toContain("killed by SIGKILL");
    expect(await leftovers(t)).toEqual([]);
  });

  test("errors name what to do: unknown id, missing field, name clash, bad regex", async () => {
    const unknown = await h.call("process", { action: "read", id: "nope" });
    expect(unknown.text).toContain('no process "nope"');
    const missing = await h.call("process", { action: "start" });
    expect(missing.text).toContain('needs the field "command"');
    const t = sleepToken(13);
    await h.call("process", { action: "start", command: `sleep ${t}`, name: "dup" });
    const clash = await h.call("process", { action: "start", command: "true", name: "dup" });
    expect(clash.text).toContain('a process named "dup" is already running');
    const bad = await h.call("process", { action: "read", id: "dup", wait_for: "(" });
    expect(bad.text).toContain("not a valid regex");
    await h.call("process", { action: "stop", id: "dup" });
  });

  test("stopAll stops every process; killAllSync is the synchronous last resort", async () => {
    const t = sleepToken(14);
    await h.call("process", { action: "start", command: `sleep ${t}` });
    await h.call("process", { action: "start", command: `sleep ${t}` });
    expect(h.ws.processes.list().filter((p) => p.state === "running").length).toBeGreaterThanOrEqual(2);
    await h.ws.processes.stopAll();
    expect(await leftovers(t)).toEqual([]);
    await h.call("process", { action: "start", command: `sleep ${t}` });
    h.ws.processes.killAllSync();
    expect(await leftovers(t)).toEqual([]);
  });
});
