// A run killed with SIGKILL cannot stop the processes it started. Resuming the session stops the
// ones that carry its mark, as a clean exit would have, and says so; a pid that now belongs to a
// stranger is left alone. The real CLI, a real process group, a real kill.
import { expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { settleOrphans } from "../../src/workspace/orphans.ts";
import { groupAlive, signalGroup, spawnShellGroup, commandEnv } from "../../src/workspace/process-group.ts";
import { fakeApiFixture } from "../support/fake-api.ts";
import { cliCommand, isolatedEnv, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();

async function until(what: string, cond: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(10); // polling a condition, not timing
  }
}

/** A print run that starts `command` as background process srv, SIGKILLed while it waits for the model. */
async function startAndKill(command: (pidFile: string) => string): Promise<{ dir: string; env: Record<string, string>; pgid: number; shown: string }> {
  const dir = tempProject();
  const pidFile = join(dir, "srv.pid");
  // Relative (the process starts in the project): the stop notice shows the command whole only
  // while it is short, and the temporary directory's path is as long as the machine makes it.
  const api = await serve({
    turns: [
      { content: [{ type: "tool_use", name: "process", input: { action: "start", name: "srv", command: command("srv.pid") } }] },
      // The answer after the start never finishes: the run is killed while it waits for it.
      { content: [{ type: "text", text: "The server is up and will keep running." }], pacing: { delayMs: 60_000 } },
    ],
  });
  const env = isolatedEnv(api.url);
  const run = Bun.spawn(cliCommand(["-p", "start the server", "--permission-mode", "bypassPermissions"]), { cwd: dir, env, stdout: "ignore", stderr: "ignore" });
  await until("the second request", () => api.requests.length >= 2 && existsSync(pidFile) && readFileSync(pidFile, "utf8").endsWith("\n"));
  const pgid = Number(readFileSync(pidFile, "utf8").trim());
  run.kill("SIGKILL");
  await run.exited;
  return { dir, env, pgid, shown: `process srv (${command("srv.pid")}, pid ${pgid})` };
}

async function resume(dir: string, env: Record<string, string>) {
  const next = await serve({ turns: [{ content: [{ type: "text", text: "Resumed." }] }] });
  const resumed = await runCli(["--continue", "-p", "is it still up?"], { cwd: dir, env: { ...env, ANTHROPIC_BASE_URL: next.url } });
  expect(resumed.stderr + resumed.stdout).toContain("Resumed.");
  expect(resumed.code).toBe(0);
  return resumed;
}

// A background process runs in a terminal of its own, which hangs up when the run is killed, and
// most die of that. One that ignores the hangup (as daemons and nohup'd servers do) is the orphan.
test("resuming after a kill -9 stops the server the killed run left behind", async () => {
  const { dir, env, pgid, shown } = await startAndKill((pidFile) => `trap "" HUP; echo $$ > ${pidFile}; sleep 300`);
  expect(groupAlive(pgid)).toBe(true); // orphaned, still running
  const resumed = await resume(dir, env);
  expect(resumed.stderr).toContain(`stopped ${shown}: the previous run was killed and left it running`);
  expect(groupAlive(pgid)).toBe(false);
}, 60_000);

test("a server that died with the killed run's terminal is reported gone on resume", async () => {
  const { dir, env, shown } = await startAndKill((pidFile) => `echo $$ > ${pidFile}; sleep 300`);
  const resumed = await resume(dir, env);
  expect(resumed.stderr).toContain(`${shown}, started by the previous run, is no longer running`);
}, 60_000);

test("a process without the session's mark is never stopped, only described", async () => {
  // A stranger's group under the pid the log remembers (as after pid reuse).
  const g = spawnShellGroup("sleep 300", { cwd: tempProject(), env: commandEnv({ KHAELOR_SESSION_ID: "another-session" }), stdin: "ignore" });
  try {
    const [line] = await settleOrphans([{ toolUseId: "t1", command: "npm run dev", name: "dev", pid: g.pid }], "this-session", 100);
    // Its pid now belongs to someone else: ours is gone, and nothing suggests killing theirs.
    expect(line).toBe(`process dev (npm run dev, pid ${g.pid}), started by the previous run, is no longer running`);
    expect(groupAlive(g.pid)).toBe(true);
    const [gone] = await settleOrphans([{ toolUseId: "t2", command: "make", name: null, pid: 2 ** 22 + 7 }], "this-session", 100);
    expect(gone).toBe(`process t2 (make, pid ${2 ** 22 + 7}), started by the previous run, is no longer running`);
  } finally {
    signalGroup(g.pid, "SIGKILL");
  }
});
