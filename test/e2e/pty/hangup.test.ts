// Closing the terminal while a command runs (a closed window, tmux kill-session): KHAELOR takes the
// SIGHUP path instead of crashing on EIO, exits 129, and the log keeps the in-flight call's result,
// an interruption with reason "sighup" and the turn's end. The real CLI in a real pty.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseEventLine } from "../../../src/events/schema.ts";
import { projectSessionsDir } from "../../../src/session/paths.ts";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { ptyFixtures, submit } from "./harness.ts";

const fixtures = ptyFixtures();

test.each([
  ["a command that prints as it runs", "for i in $(seq 1 300); do echo tick-$i; sleep 0.1; done"],
  ["a silent command", "sleep 60"],
])("closing the terminal during %s: exit 129, the result, interruption (sighup) and turn end are in the log", async (_name, command) => {
  const fake = await fixtures.api({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command } }] }, { content: [{ type: "text", text: "never" }] }] });
  const env = isolatedEnv(fake.url);
  const cwd = tempProject();
  const s = fixtures.pty(["--allowedTools", "Bash"], { env, cwd });
  await submit(s, "run it");
  await s.waitForText(command.slice(0, 20));
  s.hangup();
  expect(await s.exited).toBe(129);
  const dir = projectSessionsDir(cwd, env);
  const log = readdirSync(dir).find((n) => n.endsWith(".jsonl"))!;
  const events = readFileSync(join(dir, log), "utf8")
    .split("\n")
    .filter(Boolean)
    .map((l) => parseEventLine(l));
  const tail = events.slice(-3);
  expect(tail.map((e) => e.type)).toEqual(["tool_result", "interruption", "turn_end"]);
  expect(tail[1]).toMatchObject({ reason: "sighup" });
  expect(tail[2]).toMatchObject({ reason: "cancelled" });
  const lockOrTmp = readdirSync(dir).filter((n) => n.endsWith(".lock") || n.endsWith(".tmp"));
  expect(lockOrTmp).toEqual([]);
}, 60_000);
