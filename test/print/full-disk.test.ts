// A full disk under the session log: the turn stops with a clear error and print mode still ends
// with its result line, instead of crashing mid-turn. Needs a small tmpfs (root, as in CI).
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startFakeApi } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";

const mountPoint = mkdtempSync(join(tmpdir(), "khaelor-tmpfs-"));
const mounted = Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=160k", "tmpfs", mountPoint]).exitCode === 0;
afterAll(() => {
  if (mounted) Bun.spawnSync(["umount", "-l", mountPoint]);
});

test.skipIf(!mounted)("a session log that cannot be written stops the turn with a clear error and a result line", async () => {
  const big = "x".repeat(40_000);
  const api = await startFakeApi({
    scenario: { turns: Array.from({ length: 12 }, (_, i) => ({ content: [{ type: "tool_use" as const, id: `toolu_fd_${i}`, name: "bash", input: { command: `echo ${i}-${big}` } }] })) },
  });
  try {
    const env = isolatedEnv(api.url);
    env.KHAELOR_HOME = join(mountPoint, "data");
    mkdirSync(env.KHAELOR_HOME, { recursive: true });
    const r = await runCli(["-p", "fill the disk", "--output-format", "stream-json", "--permission-mode", "bypassPermissions", "--no-doom-loop"], { cwd: tempProject(), env });
    const lines = parseNdjson(r.stdout);
    const result = lines.at(-1)!;
    expect(result).toMatchObject({ type: "result", is_error: true });
    expect(String(result.error)).toContain("cannot write the session log");
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain("    at ");
  } finally {
    await api.close();
  }
});
