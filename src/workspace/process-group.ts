// Child processes in their own process group, so one signal reaches the command and everything it
// started (a test runner's workers, `npm run dev`'s node). detached:true makes the child a session
// and group leader (setsid); process.kill(-pid) then signals the whole group.
import { spawn, type ChildProcess } from "node:child_process";

/**
 * The environment for commands the model runs: nothing pages, prompts or opens an editor, since
 * nobody is there to answer (bash reads from /dev/null and has no terminal to ask on).
 */
export function commandEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined) env[k] = v;
  Object.assign(env, {
    TERM: "dumb",
    PAGER: "cat",
    GIT_PAGER: "cat",
    MANPAGER: "cat",
    SYSTEMD_PAGER: "cat",
    NO_COLOR: "1",
    FORCE_COLOR: "0",
    CLICOLOR: "0",
    // git asking for a password on /dev/null would just hang until the timeout.
    GIT_TERMINAL_PROMPT: "0",
    GCM_INTERACTIVE: "never",
    // `git commit` without -m, `git merge`, `git rebase -i`: the user's editor would wait for keys
    // nobody types; `true` keeps git's default message (or aborts an empty commit, saying so).
    GIT_EDITOR: "true",
    DEBIAN_FRONTEND: "noninteractive",
    PIP_NO_INPUT: "1",
    // Python buffers a pipe: live output and the true order of stdout and stderr need it unbuffered.
    PYTHONUNBUFFERED: "1",
  });
  delete env.CLICOLOR_FORCE;
  return Object.assign(env, extra);
}

export type GroupChild = {
  child: ChildProcess;
  pid: number;
  /** Resolves when the leader exited: [exit code or null, signal name or null]. */
  exited: Promise<{ code: number | null; signal: string | null }>;
};

/** Start `bash -c script` as a new group leader. stderr goes into stdout in the shell itself, so the order is the real order. */
export function spawnShellGroup(script: string, opts: { cwd: string; env: Record<string, string>; stdin: "ignore" | "pipe"; wrap?: (argv: string[]) => string[]; fds?: number[]; /** A wrapper's own errors (the script's go to stdout). */ stderr?: "ignore" | "pipe" }): GroupChild {
  const plain = ["bash", "-c", `exec 2>&1\n${script}`];
  const [file, ...args] = opts.wrap ? opts.wrap(plain) : plain;
  const child = spawn(file!, args, {
    cwd: opts.cwd,
    env: opts.env,
    detached: true,
    stdio: [opts.stdin, "pipe", opts.stderr ?? "ignore", ...(opts.fds ?? [])],
  });
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once("exit", (code, signal) => resolve({ code, signal }));
    child.once("error", () => resolve({ code: 127, signal: null }));
  });
  if (child.pid === undefined) throw new Error(`could not start ${file}: is it installed and on PATH?`);
  return { child, pid: child.pid, exited };
}

/** Signal a whole group; false when it no longer exists. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

export const groupAlive = (pgid: number): boolean => signalGroup(pgid, 0);
