import { afterAll, afterEach, describe, expect, test } from "bun:test";
import { PROCESS_BUFFER_CHARS, ProcessRegistry } from "../../src/workspace/process-registry.ts";
import { leftovers, sleepToken } from "../tools/harness.ts";

const reg = new ProcessRegistry();
afterAll(() => reg.stopAll(200));
afterEach(async () => {
  expect(await leftovers(`.${process.pid}`)).toEqual([]);
});

describe("process registry", () => {
  test("the rolling buffer keeps the newest ~1 MB and says how much was dropped", async () => {
    // 3 MB of numbered lines, then a marker line.
    const p = reg.start({ command: "seq 1 400000; echo END", cwd: "/tmp", name: "flood" });
    const r = await reg.read(p.id, { waitFor: /^END$/m, timeoutMs: 20_000 });
    expect(r.matched).toBe(true);
    expect(r.dropped).toBeGreaterThan(1_000_000);
    expect(r.text.length).toBeLessThanOrEqual(PROCESS_BUFFER_CHARS);
    expect(r.text.endsWith("400000\nEND\n")).toBe(true);
    // The cut falls on a line boundary.
    expect(/^\d+\n/.test(r.text)).toBe(true);
    // bytes counts what the terminal sent: a CR before each of the 400,001 LFs, which the text drops.
    const info = reg.get("flood")!;
    expect(info.bytes - r.offset).toBe(400_001);
  });

  test("list reports state, exit code and output size for the status line", async () => {
    const t = sleepToken(30);
    const a = reg.start({ command: `echo hi; sleep ${t}`, cwd: "/tmp", name: "alive" });
    const b = reg.start({ command: "exit 7", cwd: "/tmp" });
    await reg.read(b.id, { waitFor: /never/, timeoutMs: 5000 });
    await reg.read(a.id, { waitFor: /hi/ });
    const rows = reg.list();
    expect(rows.find((r) => r.id === a.id)).toMatchObject({ name: "alive", state: "running", exitCode: null, bytes: 4 });
    expect(rows.find((r) => r.id === b.id)).toMatchObject({ name: null, state: "exited", exitCode: 7 });
    expect(reg.takeExitNotices().some((n) => n.startsWith(`process ${b.id} exited with code 7`))).toBe(true);
    await reg.stop("alive");
    expect(await leftovers(t)).toEqual([]);
  });

  test("bash groups tracked in flight are stopped by stopAll", async () => {
    const t = sleepToken(31);
    const { spawnShellGroup, commandEnv } = await import("../../src/workspace/process-group.ts");
    const g = spawnShellGroup(`sleep ${t} & sleep ${t}`, { cwd: "/tmp", env: commandEnv(), stdin: "ignore" });
    const untrack = reg.track(g.pid);
    await reg.stopAll(200);
    await g.exited;
    untrack();
    expect(await leftovers(t)).toEqual([]);
  });
});
