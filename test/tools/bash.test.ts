import { afterAll, afterEach, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { leftovers, makeHarness, sleepToken, type Harness } from "./harness.ts";

let h: Harness;
beforeAll(() => {
  h = makeHarness("khaelor-bash-");
});
afterAll(() => h.cleanup());
afterEach(async () => {
  expect(await leftovers(`.${process.pid}`)).toEqual([]);
});

describe("bash", () => {
  test("a cd carries over to the next call, and the result says where we are", async () => {
    const root = realpathSync(h.dir);
    await h.call("bash", { command: "mkdir -p deep/er" });
    const a = await h.call("bash", { command: "cd deep/er && echo moved" });
    expect(a.text).toContain("moved");
    expect(a.text).toContain("cwd: deep/er (changed)");
    const b = await h.call("bash", { command: "pwd" });
    expect(b.text.split("\n")[0]).toBe(join(root, "deep/er"));
    expect(h.ws.cwd).toBe(join(root, "deep/er"));
    // Even an explicit exit records the directory.
    await h.call("bash", { command: "cd .. ; exit 4" });
    expect(h.ws.cwd).toBe(join(root, "deep"));
    h.ws.cwd = h.ws.root;
  });

  test("exit code and stderr are reported; a non-zero exit is an error result", async () => {
    const r = await h.call("bash", { command: "echo out; echo err >&2; exit 3" });
    expect(r.isError).toBe(true);
    expect(r.kind).toBe("error");
    expect(r.text).toContain("out\nerr");
    expect(r.text).toContain("exit code 3");
    const ok = await h.call("bash", { command: "true" });
    expect(ok.isError).toBe(false);
    expect(ok.text).toContain("(no output)");
  });

  test("a signal that kills the command is reported by name", async () => {
    const r = await h.call("bash", { command: "kill -SEGV $$" });
    expect(r.text).toContain("killed by SIGSEGV");
  });

  test("non-interactive environment: no colour, no pager, dumb terminal, empty stdin", async () => {
    const r = await h.call("bash", { command: 'echo "$TERM|$PAGER|$GIT_PAGER|$NO_COLOR"; if read -r line; then echo got-input; else echo stdin-empty; fi' });
    expect(r.text).toContain("dumb|cat|cat|1");
    expect(r.text).toContain("stdin-empty");
  });

  test("ANSI escapes are stripped from output", async () => {
    const r = await h.call("bash", { command: "printf '\\033[31mred\\033[0m plain\\n'" });
    expect(r.text).toContain("red plain");
    expect(r.text).not.toContain("\x1b");
  });

  test("output over the budget keeps head and tail, and the whole output is in the spill file", async () => {
    const r = await h.call("bash", { command: "seq 1 20000" });
    expect(r.text.length).toBeLessThan(31_000);
    expect(r.text).toContain("\n1\n2\n".slice(1));
    expect(r.text).toContain("20000");
    const m = /the full output \(([\d,]+) characters\) is in (\S+)/.exec(r.text);
    expect(m).not.toBeNull();
    const full = readFileSync(m![2]!, "utf8");
    expect(full.split("\n").filter(Boolean).length).toBe(20000);
    expect(r.text).toContain("characters cut from the middle");
  });

  test("binary output is summarised, not dumped", async () => {
    const r = await h.call("bash", { command: "head -c 4000 /dev/urandom; printf '\\0\\0'" });
    expect(r.text).toMatch(/\[binary output: 4,002 bytes; the full output is in /);
    expect(r.text.length).toBeLessThan(500);
  });

  test("a timeout kills the whole group and returns the partial output with the reason", async () => {
    const t = sleepToken(1);
    const r = await h.call("bash", { command: `echo before; (sleep ${t}) & sleep ${t}`, timeout: 300 });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("before");
    expect(r.text).toContain("timed out after 300 ms");
    expect(await leftovers(t)).toEqual([]);
  });

  test("cancellation kills the process group within 200 ms of the abort", async () => {
    const t = sleepToken(2);
    const ac = new AbortController();
    let abortedAt = 0;
    const r = h.call("bash", { command: `(sleep ${t}) & echo started; sleep ${t}` }, {
      signal: ac.signal,
      onProgress: (chunk) => {
        if (chunk.includes("started") && !abortedAt) {
          abortedAt = performance.now();
          ac.abort();
        }
      },
    });
    const out = await r;
    const tookMs = performance.now() - abortedAt;
    console.log(`bash cancellation: result ${tookMs.toFixed(1)} ms after the abort`);
    expect(out.text).toContain("cancelled");
    expect(tookMs).toBeLessThan(200);
    expect(await leftovers(t, 200)).toEqual([]);
  });

  test("background processes a command leaves behind are stopped when it ends", async () => {
    const t = sleepToken(3);
    const r = await h.call("bash", { command: `sleep ${t} > /dev/null 2>&1 & echo done` });
    expect(r.text).toContain("done");
    expect(r.text).toContain("background processes the command left running were stopped");
    expect(await leftovers(t)).toEqual([]);
  });

  test("invalid timeout is rejected naming the field", async () => {
    const r = await h.call("bash", { command: "true", timeout: 700_000 });
    expect(r.kind).toBe("invalid_input");
    expect(r.text).toContain("timeout");
  });
});
