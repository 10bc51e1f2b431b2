// A model's wait_for regex against a program's output, in the compiled binary (built for the file
// unless KHAELOR_BIN names one): the worker that runs the match must start inside it.
// Over 20000 a's and a "!", /a*a*a*x/ backtracks in cubic time (hours) and /(a+)+$/ exponentially
// (JavaScriptCore gives up after ~0.4 s of it and answers "no match"): matched on the event loop
// either freezes KHAELOR (no paint, no Ctrl-C, no SIGINT). Here the screen keeps painting, Ctrl-C
// and SIGINT answer while the match runs, and a match that runs past its budget fails the read.
import { describe, expect, test } from "bun:test";
import { cliCommand, isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { fakeApiFixture, type ScenarioInput } from "../support/fake-api.ts";
import { KEY, SPINNER, idle, ptyFixtures, submit } from "../e2e/pty/harness.ts";
import { WAIT_CHECK_BUDGET_MS } from "../../src/workspace/wait-pattern.ts";
import { useCompiledBinary } from "../support/binary.ts";

useCompiledBinary();
const serve = fakeApiFixture();
const ARGS = ["--output-format", "stream-json", "--permission-mode", "bypassPermissions"];
const call = (input: Record<string, unknown>) => ({ content: [{ type: "tool_use" as const, name: "process", input }] });

const SLOW = "a*a*a*x";
/** Starts the flood, waits until all of it is in (so the first check sees it), then the slow waits. */
const flood = (...waits: Array<{ pattern: string; timeout: number }>): ScenarioInput => ({
  turns: [
    call({ action: "start", name: "flood", command: `printf 'a%.0s' $(seq 20000); printf '!'; sleep 300` }),
    call({ action: "read", id: "flood", wait_for: "!", timeout: 30_000 }),
    ...waits.map((w) => call({ action: "read", id: "flood", since: 0, wait_for: w.pattern, timeout: w.timeout })),
    { content: [{ type: "text", text: "AFTER-THE-READS" }] },
  ],
});

type Block = { type: string; content?: unknown; is_error?: boolean };
function toolResults(stdout: string): Block[] {
  return parseNdjson(stdout)
    .filter((m) => m.type === "user")
    .flatMap((m) => ((m.message as { content: Block[] }).content ?? []).filter((b) => b.type === "tool_result"));
}

describe("a catastrophic wait_for", () => {
  test("runs to its budget off the event loop: the read fails saying so, the session goes on and ends", async () => {
    const api = await serve(flood({ pattern: SLOW, timeout: 600_000 }, { pattern: "(a+)+$", timeout: 3_000 }));
    const r = await runCli(["-p", "watch it", ...ARGS], { cwd: tempProject(), env: isolatedEnv(api.url) });
    expect(r.code).toBe(0);
    const results = toolResults(r.stdout).map((b) => ({ error: b.is_error === true, text: JSON.stringify(b.content) }));
    expect(results).toHaveLength(4);
    expect(results[1]!.error).toBe(false);
    expect(results[2]!.error).toBe(true);
    expect(results[2]!.text).toContain(`wait_for /${SLOW}/ took over ${WAIT_CHECK_BUDGET_MS / 1000} s on one check`);
    // The exponential one ends in the engine's own limit (~0.4 s of CPU): no match, so the read
    // answers at its timeout; on a machine busy enough to stretch that past 2 s, the budget ends it.
    expect(results[3]!.error).toBe(true);
    expect(results[3]!.text).toMatch(/\/\(a\+\)\+\$\/ (did not appear within 3000 ms|took over 2 s on one check)/);
    expect(r.stdout).toContain("AFTER-THE-READS");
  }, 60_000);

  test("SIGINT while it runs: print mode stops at once with 130", async () => {
    const api = await serve(flood({ pattern: SLOW, timeout: 600_000 }));
    const proc = Bun.spawn(cliCommand(["-p", "watch it", ...ARGS, "--include-partial-messages"]), { cwd: tempProject(), env: isolatedEnv(api.url), stdout: "pipe", stderr: "pipe" });
    const reader = proc.stdout.getReader();
    let out = "";
    // The third call's input streams last: once it is out, the check starts on the whole flood.
    while (!out.includes(SLOW)) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    proc.kill("SIGINT");
    expect(await proc.exited).toBe(130);
    expect(api.requests.filter((q) => q.outcome === "served")).toHaveLength(3);
  }, 60_000);

  const fx = ptyFixtures();
  test("in the app: the screen paints the running read's clock, and Ctrl-C interrupts it", async () => {
    const api = await fx.api(flood({ pattern: SLOW, timeout: 600_000 }));
    const s = fx.pty(["--allowedTools", "Process"], { cwd: tempProject(), env: isolatedEnv(api.url) });
    await submit(s, "watch it");
    // The check starts when the read does and runs to its 2 s budget; the row's clock shows from
    // a second on, so a clock painted on the running read is a paint during the match.
    await s.waitFor((sc) => SPINNER.test(sc) && /a\*a\*a\*x\/\) 1\.\ds/.test(sc), "the read's clock while the match runs");
    s.send(KEY.ctrlC);
    await s.waitFor((sc) => /interrupted/i.test(sc) && idle(sc), "the interruption");
    expect(s.screen()).toContain("the wait was cancelled");
    expect(s.screen()).not.toContain("took over");
    expect(s.screen()).not.toContain("AFTER-THE-READS");
  }, 60_000);
});
