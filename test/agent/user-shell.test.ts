// `!command` run by the session: the user's own shell, the output streamed as events and logged as
// a user message; the hardline floor refuses before anything runs; Esc (the abort) stops it.
import { expect, test } from "bun:test";
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { AgentEvent } from "../../src/events/types.ts";
import { runUserShell } from "../../src/agent/user-shell.ts";
import { createPermissionEngine } from "../../src/permissions/index.ts";
import { tempProject } from "../support/cli.ts";

async function setup() {
  const cwd = tempProject();
  const engine = await createPermissionEngine({ projectRoot: cwd, home: cwd, configHome: join(cwd, ".config") });
  const events: AgentEvent[] = [];
  return { cwd, engine, events, emit: (e: AgentEvent) => events.push(e) };
}

test("runs in the project with the user's shell; stdout, stderr and the exit code reach the log's message", async () => {
  const d = await setup();
  const r = await runUserShell({ ...d, shell: "/bin/sh" }, "pwd; echo err >&2; exit 3", new AbortController().signal);
  expect(r).toMatchObject({ ran: true, exitCode: 3, stopped: false });
  expect(d.events[0]).toMatchObject({ type: "shell_start", command: "pwd; echo err >&2; exit 3" });
  expect(d.events.some((e) => e.type === "shell_progress" && e.chunk.includes(d.cwd))).toBe(true);
  const msg = d.events.at(-1)!;
  if (msg.type !== "user_message") throw new Error(`last event ${msg.type}`);
  expect(msg.synthetic).toBe("shell");
  expect(msg.shell).toMatchObject({ command: "pwd; echo err >&2; exit 3", exitCode: 3 });
  const text = JSON.stringify(msg.content);
  expect(text).toContain(`<bash-stdout>${d.cwd}</bash-stdout><bash-stderr>err\\n(exit code 3)</bash-stderr>`);
});

test("the hardline floor refuses before anything runs: nothing is deleted, nothing is logged", async () => {
  const d = await setup();
  writeFileSync(join(d.cwd, "keep.txt"), "x");
  const r = await runUserShell(d, "rm -rf .", new AbortController().signal);
  expect(r.ran).toBe(false);
  if (!r.ran) expect(r.reason).toContain("hardline floor");
  expect(existsSync(join(d.cwd, "keep.txt"))).toBe(true);
  expect(d.events).toEqual([]);
});

test("a command the rules would ask about runs: it is the user typing", async () => {
  const d = await setup();
  expect(d.engine.decide({ tool: "bash", input: { command: "touch made.txt" }, cwd: d.cwd }).behavior).toBe("ask");
  const r = await runUserShell(d, "touch made.txt", new AbortController().signal);
  expect(r).toMatchObject({ ran: true, exitCode: 0 });
  expect(existsSync(join(d.cwd, "made.txt"))).toBe(true);
});

test("abort stops a command that runs forever, its whole process group, and says it was stopped", async () => {
  const d = await setup();
  const abort = new AbortController();
  const emit = (e: AgentEvent) => {
    d.events.push(e);
    if (e.type === "shell_progress" && e.chunk.includes("STARTED")) abort.abort();
  };
  const r = await runUserShell({ ...d, emit }, "echo STARTED; sleep 1000 & wait", abort.signal);
  expect(r).toMatchObject({ ran: true, stopped: true });
  const msg = d.events.at(-1)!;
  expect(msg.type === "user_message" && msg.shell?.stopped).toBe(true);
  expect(JSON.stringify(msg)).toContain("(stopped by the user)");
});

test("a cd lasts: the next ! command starts where the last one ended, as the bash tool's cwd does; a directory gone since falls back to the project", async () => {
  const d = await setup();
  mkdirSync(join(d.cwd, "sub", "deeper"), { recursive: true });
  const dir = { cwd: d.cwd };
  const run = async (command: string) => {
    d.events.length = 0;
    await runUserShell({ ...d, dir, shell: "/bin/sh" }, command, new AbortController().signal);
    return d.events.filter((e) => e.type === "shell_progress").map((e) => (e.type === "shell_progress" ? e.chunk : "")).join("");
  };
  await run("cd sub");
  expect(await run("pwd")).toBe(`${realpathSync(d.cwd)}/sub\n`);
  // A failing command that moved still moves (an explicit exit too), as in a terminal.
  await run("cd deeper; exit 4");
  expect(await run("pwd")).toBe(`${realpathSync(d.cwd)}/sub/deeper\n`);
  rmSync(join(d.cwd, "sub"), { recursive: true });
  expect(await run("pwd")).toBe(`${d.cwd}\n`);
});
