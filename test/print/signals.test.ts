// A signal in print mode stops the running call and is recorded as what it was: the interruption
// event says sigint, sigterm or sighup (not "user"), the exit status says which, and the log ends
// with the call's result and the turn's end. The real CLI against the fake API.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEventLine } from "../../src/events/schema.ts";
import { projectSessionsDir } from "../../src/session/paths.ts";
import { cliCommand, isolatedEnv, tempProject } from "../support/cli.ts";
import { startFakeApi } from "../support/fake-api.ts";

test.each([
  ["SIGINT", 130, "sigint"],
  ["SIGTERM", 143, "sigterm"],
  ["SIGHUP", 129, "sighup"],
] as const)("%s while a command runs: exit %d, interruption reason %s", async (sig, code, reason) => {
  const api = await startFakeApi({ scenario: { turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "echo STARTED; sleep 60" } }] }] } });
  try {
    const env = isolatedEnv(api.url);
    const cwd = tempProject();
    const proc = Bun.spawn(cliCommand(["-p", "run it", "--output-format", "stream-json", "--include-partial-messages", "--permission-mode", "bypassPermissions"]), { cwd, env, stdout: "pipe", stderr: "pipe" });
    const reader = proc.stdout.getReader();
    let out = "";
    while (!out.includes('"tool_use"')) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    // The model has asked for the call: the signal lands while it starts or runs.
    proc.kill(sig);
    const rest = reader.read().then(async function drain(r): Promise<void> {
      if (r.done) return;
      out += new TextDecoder().decode(r.value);
      return reader.read().then(drain);
    });
    expect(await proc.exited).toBe(code);
    await rest;
    expect(await new Response(proc.stderr).text()).not.toContain("    at ");
    const dir = projectSessionsDir(cwd, env);
    const log = readdirSync(dir).find((n) => n.endsWith(".jsonl"))!;
    const events = readFileSync(join(dir, log), "utf8").split("\n").filter(Boolean).map((l) => parseEventLine(l));
    expect(events.slice(-3).map((e) => e.type)).toEqual(["tool_result", "interruption", "turn_end"]);
    expect(events.at(-2)).toMatchObject({ reason });
    expect(out.trim().split("\n").at(-1)).toContain('"type":"result"');
  } finally {
    await api.close();
  }
});
