// Processes found by the mark in their environment, wherever they went. A command's process group
// does not hold a daemon: `setsid`, `setsid -f` and a double fork leave the group (and their
// parent), but every process keeps the environment it was started with. So bash commands and the
// process tool's processes carry the session's mark (and a bash command its call's), and what
// still carries one after the command, at exit, or when a crashed session is resumed, is ours to
// stop. Linux reads /proc; elsewhere nothing is found and callers say they could not look.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import { signalGroup } from "./process-group.ts";

export type MarkedProcess = { pid: number; command: string };

const readProc = (pid: string, file: string): string | null => {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "latin1");
  } catch {
    return null;
  }
};

/** Kernel threads have no environment to read: kthreadd (pid 2) and its children. */
const isKernelThread = (stat: string): boolean => {
  const ppid = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1];
  return ppid === "2" || stat.startsWith("2 ");
};

const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * A process in the middle of exec shows an empty environment and command line for an instant (a
 * daemon's last `exec sleep` right after it detached): read again a few times before taking it as
 * unmarked, or its command as unknown.
 */
function readSettled(pid: string, file: "environ" | "cmdline"): string | null {
  for (let i = 0; i < 5; i++) {
    const text = readProc(pid, file);
    if (text !== "") return text;
    Atomics.wait(pause, 0, 0, 2);
  }
  return "";
}

/** Live processes whose environment holds `entry` (NAME=value); null where that cannot be known. */
export function findMarked(entry: string): MarkedProcess[] | null {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((n) => /^\d+$/.test(n));
  } catch {
    return null;
  }
  const self = String(process.pid);
  const out: MarkedProcess[] = [];
  for (const pid of pids) {
    if (pid === self) continue;
    const stat = readProc(pid, "stat");
    const env = stat && !isKernelThread(stat) ? readSettled(pid, "environ") : null;
    if (env === null || !env.split("\0").includes(entry)) continue;
    // A zombie is already dead: its parent just has not reaped it.
    if (!stat || stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) === "Z") continue;
    const command = (readSettled(pid, "cmdline") ?? "").split("\0").filter(Boolean).join(" ");
    out.push({ pid: Number(pid), command });
  }
  return out;
}

const alive = (pid: number): boolean => {
  const stat = readProc(String(pid), "stat");
  return stat !== null && stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
};

const signal = (pid: number, sig: NodeJS.Signals) => {
  // Each one's group too: a daemon that called setsid leads a group its children share.
  signalGroup(pid, sig);
  try {
    process.kill(pid, sig);
  } catch {}
};

/** TERM, a grace period, then KILL for what is left. Sent before the first await. */
export async function stopMarked(procs: readonly MarkedProcess[], graceMs = 1000): Promise<void> {
  for (const p of procs) signal(p.pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (procs.some((p) => alive(p.pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  for (const p of procs) if (alive(p.pid)) signal(p.pid, "SIGKILL");
}

/** For process.on("exit"): KILL at once, nothing asynchronous runs any more. */
export function killMarkedSync(entry: string): void {
  for (const p of findMarked(entry) ?? []) signal(p.pid, "SIGKILL");
}

/** `pid 123 (sleep 300)`, for the model and the user; a bash call's shell shows the model's command, not our wrapper. */
export function describeMarked(p: MarkedProcess): string {
  const command = p.command.replace(/^bash -c exec 2>&1\s+trap .*? EXIT\s+/s, "").replace(/\s+/g, " ").trim();
  return `pid ${p.pid} (${command.length > 60 ? `${command.slice(0, 59)}…` : command || "?"})`;
}

/**
 * The ones in this process's pid namespace. A confined command's processes live in a namespace of
 * their own (bubblewrap --unshare-pid) that the kernel ends with the command: none of them got away,
 * even while they are still being killed when we look.
 */
export function inOwnPidNamespace(procs: readonly MarkedProcess[]): MarkedProcess[] {
  let own: string;
  try {
    own = readlinkSync("/proc/self/ns/pid");
  } catch {
    return [...procs];
  }
  return procs.filter((p) => {
    try {
      return readlinkSync(`/proc/${p.pid}/ns/pid`) === own;
    } catch {
      return false;
    }
  });
}
