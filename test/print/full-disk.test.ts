// A full disk under KHAELOR's data: print mode still ends with its result line and one sentence
// (never a stack trace), the log stays whole (no torn line), nothing empty is left behind (lock,
// meta.json.tmp, log), and once space is freed the session continues. A real full tmpfs.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseEventLine } from "../../src/events/schema.ts";
import { startFakeApi } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { smallFs } from "../support/small-fs.ts";

const fs = smallFs("512k");

function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(join(e.parentPath, e.name));
  return out;
}

/** Nothing a full disk may leave: an empty lock, log or temp file, a lock after exit, a torn line. */
function expectNothingLeftBroken(data: string) {
  const sessions = join(data, "sessions");
  const files = filesUnder(sessions).filter((f) => !f.includes("/shadow/"));
  expect(files.filter((f) => f.endsWith(".lock"))).toEqual([]);
  expect(files.filter((f) => f.endsWith(".tmp"))).toEqual([]);
  for (const f of files.filter((f) => f.endsWith(".jsonl"))) {
    const text = readFileSync(f, "utf8");
    expect(statSync(f).size).toBeGreaterThan(0);
    expect(text.endsWith("\n")).toBe(true);
    for (const line of text.split("\n").filter(Boolean)) expect(() => parseEventLine(line)).not.toThrow();
  }
}

const bigOutputs = (n: number, size: number) =>
  Array.from({ length: n }, (_, i) => ({ content: [{ type: "tool_use" as const, id: `toolu_fd_${i}`, name: "bash", input: { command: `printf '%${size}s' ${i}` } }] }));

describe.skipIf(!fs)("a full disk in print mode", () => {
  test.each(["stream-json", "json"])("full before the session starts (%s): an error result, no lock or empty log left", async (format) => {
    const api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "never" }] }] } });
    try {
      const env = isolatedEnv(api.url);
      env.KHAELOR_HOME = join(fs!.dir, `data-before-${format}`);
      mkdirSync(env.KHAELOR_HOME, { recursive: true });
      fs!.fill();
      const r = await runCli(["-p", "hello", "--output-format", format], { cwd: tempProject(), env });
      fs!.free();
      const result = parseNdjson(r.stdout).at(-1)!;
      expect(result).toMatchObject({ type: "result", is_error: true });
      expect(String(result.error)).toContain("the disk is full");
      expect(r.code).toBe(1);
      expect(r.stderr).not.toContain("    at ");
      expect(r.stderr).toContain("the disk is full");
      expectNothingLeftBroken(env.KHAELOR_HOME);
      expect(api.requests.length).toBe(0);
    } finally {
      await api.close();
    }
  });

  test("full in the middle of a turn: the log is whole up to the failure, the error says what was not saved, and --continue goes on once space is free", async () => {
    const api = await startFakeApi({ scenario: { turns: bigOutputs(40, 30_000) } });
    const after = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "AFTER-FREEING" }] }] } });
    const reserve = join(fs!.dir, "reserve");
    writeFileSync(reserve, Buffer.alloc(160_000));
    try {
      const env = isolatedEnv(api.url);
      env.KHAELOR_HOME = join(fs!.dir, "data-mid");
      mkdirSync(env.KHAELOR_HOME, { recursive: true });
      const cwd = tempProject();
      const r = await runCli(["-p", "fill the disk", "--output-format", "stream-json", "--permission-mode", "bypassPermissions", "--no-doom-loop"], { cwd, env });
      const result = parseNdjson(r.stdout).at(-1)!;
      expect(result).toMatchObject({ type: "result", is_error: true });
      expect(String(result.error)).toMatch(/the disk is full; nothing after the (result of bash|model's reply) .* was saved to the session log .*\.jsonl/);
      expect(r.code).toBe(1);
      expect(r.stderr).not.toContain("    at ");
      expectNothingLeftBroken(env.KHAELOR_HOME);

      // Free some space, then continue: the log takes new events after the last saved one.
      rmSync(reserve);
      const again = await runCli(["-p", "--continue", "go on", "--output-format", "stream-json"], { cwd, env: { ...env, ANTHROPIC_BASE_URL: after.url } });
      expect(again.stderr).not.toContain("    at ");
      expect(parseNdjson(again.stdout).at(-1)).toMatchObject({ type: "result", is_error: false, result: "AFTER-FREEING" });
      expectNothingLeftBroken(env.KHAELOR_HOME);
      const log = filesUnder(join(env.KHAELOR_HOME, "sessions")).find((f) => f.endsWith(".jsonl"))!;
      const users = readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => parseEventLine(l)).filter((e) => e.type === "user_message");
      expect(users.map((e) => e.content)).toEqual(["fill the disk", "go on"]);
    } finally {
      rmSync(reserve, { force: true });
      await api.close();
      await after.close();
    }
  });
});
