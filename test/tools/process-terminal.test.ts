// The process tool runs each program in a pseudo-terminal of its own: programs that block-buffer
// into a pipe (Python) print their lines at once, REPLs show their prompts and answer what is
// typed, and what the model reads is plain text. Real programs, real terminals, real signals.
import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { RESULT_BUDGET_CHARS } from "../../src/tools/output-budget.ts";
import { leftovers, makeHarness, sleepToken, type Harness } from "./harness.ts";

let h: Harness;
beforeAll(() => {
  h = makeHarness("khaelor-pty-");
});
afterAll(() => h.cleanup());
afterEach(async () => {
  h.ws.processes.takeExitNotices();
  expect(await leftovers(`.${process.pid}`)).toEqual([]);
  expect(await leftovers(h.dir)).toEqual([]);
});

const offsetOf = (text: string) => Number(/offset (\d+)/.exec(text)![1]);

describe("process in a terminal", () => {
  test("python3 -m http.server: its ready line arrives through wait_for, and it serves", async () => {
    // Into a pipe, Python holds this line in its buffer until the buffer fills.
    const start = await h.call("process", { action: "start", name: "py", command: `python3 -m http.server 0 --bind 127.0.0.1 --directory ${h.dir}` });
    expect(start.isError).toBe(false);
    const ready = await h.call("process", { action: "read", id: "py", wait_for: "Serving HTTP on \\S+ port \\d+", timeout: 20_000 });
    expect(ready.isError).toBe(false);
    const port = /port (\d+)/.exec(ready.text)![1];
    const curl = await h.call("bash", { command: `curl -s -o /dev/null -w '%{http_code}' http://127.0.0.1:${port}/` });
    expect(curl.text).toStartWith("200");
    // The request log line arrives too, without a flush.
    const log = await h.call("process", { action: "read", id: "py", wait_for: '"GET / HTTP/1.1" 200', timeout: 20_000 });
    expect(log.isError).toBe(false);
    await h.call("process", { action: "stop", id: "py" });
  });

  test("python3 -i answers what is typed; Ctrl-C interrupts, Ctrl-D ends it", async () => {
    const t = sleepToken(40);
    await h.call("process", { action: "start", name: "repl", command: `python3 -q -i -c "tag = '${t}'"` });
    const prompt = await h.call("process", { action: "read", id: "repl", wait_for: ">>> $", timeout: 20_000 });
    expect(prompt.isError).toBe(false);

    await h.call("process", { action: "write", id: "repl", input: "6 * 7\n" });
    const answer = await h.call("process", { action: "read", id: "repl", wait_for: ">>> $", timeout: 20_000 });
    // The echo of what was typed, the answer, the next prompt: as plain text.
    expect(answer.text).toStartWith("6 * 7\n42\n>>> ");
    expect(answer.text).not.toContain("\x1b");
    expect(answer.text).not.toContain("\r");

    await h.call("process", { action: "write", id: "repl", input: "import time; print('napping', flush=True); time.sleep(60)\n" });
    await h.call("process", { action: "read", id: "repl", wait_for: "^napping", timeout: 20_000 });
    const interrupt = await h.call("process", { action: "write", id: "repl", keys: ["Ctrl-C"] });
    expect(interrupt.isError).toBe(false);
    const back = await h.call("process", { action: "read", id: "repl", wait_for: ">>> $", timeout: 20_000 });
    expect(back.text).toContain("KeyboardInterrupt");
    // The REPL survived its interrupt: it is still answering.
    await h.call("process", { action: "write", id: "repl", input: "tag", keys: ["Enter"] });
    const tag = await h.call("process", { action: "read", id: "repl", wait_for: ">>> $", timeout: 20_000 });
    expect(tag.text).toContain(`'${t}'`);

    await h.call("process", { action: "write", id: "repl", keys: ["Ctrl-D"] });
    const end = await h.call("process", { action: "read", id: "repl", wait_for: "never printed", timeout: 20_000 });
    expect(end.text).toContain("repl (p");
    expect(end.text).toContain("exited with code 0");
    const late = await h.call("process", { action: "write", id: "repl", input: "1\n" });
    expect(late.isError).toBe(true);
    expect(late.text).toContain("is not running");
    expect(await leftovers(t)).toEqual([]);
  });

  test("programs see a wide terminal; colours and redraws are cleaned away", async () => {
    const script = [
      `python3 -c "import sys; print('tty', sys.stdin.isatty(), sys.stdout.isatty())"`,
      "echo term=$TERM",
      "stty size",
      "printf '\\033[31mred\\033[0m plain\\n'",
      "printf 'copy  10%%\\rcopy  55%%\\rcopy 100%%\\n'",
      "printf '\\033]0;a title\\007titled\\n'",
      "echo done",
    ].join("; ");
    await h.call("process", { action: "start", name: "tty", command: script });
    const r = await h.call("process", { action: "read", id: "tty", wait_for: "^done$", timeout: 20_000 });
    expect(r.text).toStartWith("tty True True\nterm=xterm-256color\n50 200\nred plain\ncopy 100%\ntitled\ndone\n");
    expect(r.text).not.toContain("\x1b");
  });

  test("a process that exits while being read: its last output and its exit code arrive together", async () => {
    for (let i = 0; i < 5; i++) {
      const name = `brief${i}`;
      await h.call("process", { action: "start", name, command: `printf 'last words ${i}'; exit 3` });
      const r = await h.call("process", { action: "read", id: name, wait_for: "never printed", timeout: 20_000 });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(`last words ${i}`);
      expect(r.text).toContain("exited with code 3");
      expect(r.text).toContain("did not appear before the process ended");
    }
  });

  test("Ctrl-C reaches the foreground program as SIGINT", async () => {
    const t = sleepToken(41);
    await h.call("process", { action: "start", name: "nap", command: `echo napping; exec sleep ${t}` });
    await h.call("process", { action: "read", id: "nap", wait_for: "napping" });
    await h.call("process", { action: "write", id: "nap", keys: ["Ctrl-C"] });
    const r = await h.call("process", { action: "read", id: "nap", wait_for: "never printed", timeout: 20_000 });
    expect(r.text).toContain("killed by SIGINT");
    expect(await leftovers(t)).toEqual([]);
  });

  test("a process flooding its terminal stays within the output budget and does not starve the rest", async () => {
    await h.call("process", { action: "start", name: "flood", command: "yes 'flooding the terminal with lines'" });
    // While it floods, other work goes on: another process starts and is read, HTTP is answered.
    const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("pong") });
    try {
      await h.call("process", { action: "start", name: "calm", command: "echo calm and collected" });
      const calm = await h.call("process", { action: "read", id: "calm", wait_for: "calm and collected", timeout: 20_000 });
      expect(calm.isError).toBe(false);
      expect(await (await fetch(`http://127.0.0.1:${server.port}/`)).text()).toBe("pong");
    } finally {
      server.stop(true);
    }
    const first = await h.call("process", { action: "read", id: "flood", wait_for: "never printed", timeout: 300 });
    expect(h.ws.processes.get("flood")!.state).toBe("running");
    expect(first.text.length).toBeLessThan(RESULT_BUDGET_CHARS + 1000);
    expect(first.text).toContain("characters cut from the middle");
    const later = await h.call("process", { action: "read", id: "flood", wait_for: "never printed", timeout: 300 });
    expect(offsetOf(later.text)).toBeGreaterThan(offsetOf(first.text));
    expect(later.text.length).toBeLessThan(RESULT_BUDGET_CHARS + 1000);
    const stop = await h.call("process", { action: "stop", id: "flood" });
    expect(stop.text).toContain("Stopped flood");
  });

  test("write needs text or keys, and names the keys it knows", async () => {
    const t = sleepToken(42);
    await h.call("process", { action: "start", name: "idle", command: `sleep ${t}` });
    const none = await h.call("process", { action: "write", id: "idle" });
    expect(none.isError).toBe(true);
    expect(none.text).toContain('"keys"');
    const bad = await h.call("process", { action: "write", id: "idle", keys: ["Ctrl-Q"] });
    expect(bad.kind).toBe("invalid_input");
    expect(bad.text).toContain("Ctrl-C");
    await h.call("process", { action: "stop", id: "idle" });
  });
});
