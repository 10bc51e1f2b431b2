// `!command` from the composer: the user's own command, run in their shell in the project. It is
// the user typing, so nothing asks and no rule written for the agent stops it (as in Claude Code,
// whose `!` skips the permission check); the hardline floor alone still holds (a fork bomb,
// `rm -rf ~`, a write to a block device), since the floor cannot be switched off and a typo is what
// it exists for. The output streams as shell_progress events and ends as a user message (synthetic
// "shell", ../events/user-shell.ts) in the log: resume shows it, and the model reads it before the
// next message the user sends. Each command runs in a new shell, but where the last one ended up
// (a `cd`) is where the next one starts, as the bash tool keeps its cwd (../tools/shell-cwd.ts).
import { spawn } from "node:child_process";
import { statSync } from "node:fs";
import { basename } from "node:path";
import { StringDecoder } from "node:string_decoder";
import { newEventId } from "../events/id.ts";
import type { EventSink } from "../events/types.ts";
import { shellMessage } from "../events/user-shell.ts";
import type { PermissionEngine } from "../permissions/index.ts";
import { commandEnv, signalGroup } from "../workspace/process-group.ts";
import { trackCwd } from "../tools/shell-cwd.ts";

const POSIX_SHELLS = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"]);

/** After TERM, how long the command's group may take to die before KILL. */
const KILL_GRACE_MS = 200;

export type UserShellResult =
  | { ran: true; exitCode: number | null; stopped: boolean; output: string }
  | { ran: false; reason: string };

export type UserShellDeps = {
  /** The project's directory: where the first command runs (and the next, if the last one's is gone). */
  cwd: string;
  /** Where the session's `!` commands are: kept from one to the next (a `cd` lasts). */
  dir?: { cwd: string };
  engine: Pick<PermissionEngine, "decide">;
  emit: EventSink;
  /** The user's shell ($SHELL; /bin/sh when unset). */
  shell?: string;
};

export async function runUserShell(d: UserShellDeps, command: string, signal: AbortSignal): Promise<UserShellResult> {
  const cwd = d.dir && isDir(d.dir.cwd) ? d.dir.cwd : d.cwd;
  const decision = d.engine.decide({ tool: "bash", input: { command }, cwd });
  if (decision.behavior === "deny" && decision.source === "hardline") return { ran: false, reason: decision.reason };
  const runId = newEventId();
  const started = Date.now();
  d.emit({ type: "shell_start", runId, command });
  const shell = d.shell ?? (process.env.SHELL || "/bin/sh");
  let stdout = "";
  let stderr = "";
  let exit: { code: number | null; error?: string };
  let stopped = false;
  // The trap that records the cwd is POSIX shell: another shell (fish) runs the command as typed, and its `cd` does not last.
  const tracked = POSIX_SHELLS.has(basename(shell)) ? trackCwd(command) : { script: command, finalCwd: () => null };
  try {
    const child = spawn(shell, ["-c", tracked.script], { cwd, env: commandEnv(), detached: true, stdio: ["ignore", "pipe", "pipe"] });
    const pipe = (stream: NodeJS.ReadableStream | null, add: (s: string) => void) => {
      const dec = new StringDecoder("utf8");
      stream?.on("data", (b: Buffer) => {
        const s = dec.write(b);
        if (s === "") return;
        add(s);
        d.emit({ type: "shell_progress", runId, chunk: s });
      });
    };
    pipe(child.stdout, (s) => (stdout += s));
    pipe(child.stderr, (s) => (stderr += s));
    let killTimer: ReturnType<typeof setTimeout> | null = null;
    const stop = () => {
      stopped = true;
      if (child.pid === undefined) return;
      signalGroup(child.pid, "SIGTERM");
      const pid = child.pid;
      killTimer = setTimeout(() => signalGroup(pid, "SIGKILL"), KILL_GRACE_MS);
    };
    if (signal.aborted) stop();
    else signal.addEventListener("abort", stop, { once: true });
    exit = await new Promise((resolve) => {
      child.once("error", (e) => resolve({ code: 127, error: `${shell}: ${e.message}` }));
      // "close", not "exit": the pipes are drained by then, so no output is lost after the end.
      child.once("close", (code) => resolve({ code }));
    });
    signal.removeEventListener("abort", stop);
    if (killTimer) clearTimeout(killTimer);
  } catch (e) {
    exit = { code: 127, error: e instanceof Error ? e.message : String(e) };
  }
  const ended = tracked.finalCwd();
  if (d.dir) d.dir.cwd = ended ?? cwd;
  if (exit.error) stderr += `${stderr && !stderr.endsWith("\n") ? "\n" : ""}could not run the command: ${exit.error}\n`;
  const outcome = { command, stdout, stderr, exitCode: exit.code, ...(stopped ? { stopped: true } : {}) };
  d.emit({
    type: "user_message",
    id: newEventId(),
    ts: Date.now(),
    content: shellMessage(outcome),
    synthetic: "shell",
    shell: { runId, command, exitCode: exit.code, ...(stopped ? { stopped: true } : {}), durationMs: Date.now() - started },
  });
  return { ran: true, exitCode: exit.code, stopped, output: stdout + stderr };
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
