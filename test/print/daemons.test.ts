// What a session started must not outlive it: after kill -9 of KHAELOR mid-command, the command
// (and a daemon it started) keeps running until --resume stops it and says so; a daemon a
// process-tool process started outside its group is stopped at exit. The real CLI, real processes.
import { describe, expect, test } from "bun:test";
import { mkdtempSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { cliCommand, isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { startFakeApi } from "../support/fake-api.ts";
import { leftovers, processesWith } from "../tools/harness.ts";

const token = () => String(300_000 + Math.floor(Math.random() * 600_000));
const ARGS = ["--output-format", "stream-json", "--permission-mode", "bypassPermissions"];

async function readUntil(stream: ReadableStream<Uint8Array>, needle: string): Promise<string> {
  const reader = stream.getReader();
  let out = "";
  while (!out.includes(needle)) {
    const { value, done } = await reader.read();
    if (done) break;
    out += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  return out;
}

async function waitFor(cond: () => boolean, what: string) {
  const deadline = Date.now() + 15_000;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe.skipIf(process.platform !== "linux")("processes a session leaves behind", () => {
  test.each([
    ["the interrupted command itself", (t: string) => `echo RUNNING; sleep ${t}`],
    // RUNNING is written before the daemon starts: the test kills KHAELOR once the daemon runs, and a
    // shell writing to the dead run's stdout after that dies of SIGPIPE, before its EXIT trap.
    ["a setsid daemon the command started", (t: string) => `echo RUNNING; setsid -f sleep ${t}; sleep ${Number(t) + 1}`],
  ])("kill -9 mid-command, then --resume stops %s and says so", async (_name, command) => {
    const t = token();
    const api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: command(t) } }] }] } });
    // A TMPDIR of its own: the killed run's private directory for the shell's cwd file is seen there.
    const tmp = mkdtempSync(join(tmpdir(), "khaelor-tmp-"));
    const env = isolatedEnv(api.url, { TMPDIR: tmp });
    const cwd = tempProject();
    const proc = Bun.spawn(cliCommand(["-p", "run it", ...ARGS, "--include-partial-messages"]), { cwd, env, stdout: "pipe", stderr: "ignore" });
    await readUntil(proc.stdout, '"tool_use"');
    await waitFor(() => processesWith(`sleep ${t}`).length > 0, "the command to run");
    proc.kill("SIGKILL");
    await proc.exited;
    await api.close();
    // KHAELOR is gone; its command is not.
    expect(processesWith(`sleep ${t}`).length).toBeGreaterThan(0);

    const api2 = await startFakeApi({ scenario: { turns: [{ content: [{ type: "text", text: "RESUMED" }] }] } });
    try {
      const r = await runCli(["-p", "--continue", "go on", ...ARGS], { cwd, env: { ...env, ANTHROPIC_BASE_URL: api2.url } });
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(new RegExp(`stopped (a process|\\d+ processes) the previous run left running .*sleep ${t}`));
      expect(await leftovers(`sleep ${t}`)).toEqual([]);
      // The killed run's shell wrote its cwd file as it was stopped: removed too, with the
      // private directory the killed run could not remove at its exit.
      expect(readdirSync(tmp)).toEqual([]);
    } finally {
      await api2.close();
    }
  }, 60_000);

  test("a daemon a process-tool process started outside its group is stopped when the session ends", async () => {
    const t = token();
    const api = await startFakeApi({
      scenario: {
        turns: [
          { content: [{ type: "tool_use", name: "process", input: { action: "start", name: "svc", command: `setsid -f sleep ${t}; sleep 300` } }] },
          { content: [{ type: "text", text: "STARTED" }] },
        ],
      },
    });
    try {
      const env = isolatedEnv(api.url);
      const r = await runCli(["-p", "start the service", ...ARGS], { cwd: tempProject(), env });
      expect(r.code).toBe(0);
      expect(await leftovers(`sleep ${t}`)).toEqual([]);
    } finally {
      await api.close();
    }
  }, 60_000);
});
