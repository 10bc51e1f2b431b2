// Processes a killed run left behind. On a clean exit KHAELOR stops every process it started; after
// a kill -9 their terminal hangs up, which ends most of them, but whatever ignores the hangup keeps
// running, unmanaged, holding ports and CPU. On resume each one the log says
// was still running is stopped, as the clean exit would have done, but only when it provably
// belongs to this session: the environment of a live member of its group carries the session's mark. A pid
// reused by someone else's process never carries it, and is left alone without a word of advice
// to kill it. Where the environment cannot be read, the user is told how to check and stop it.
import { spawnSync } from "node:child_process";
import { rmdirSync, rmSync } from "node:fs";
import { dirname } from "node:path";
import { environHas } from "../platform/process-environ.ts";
import { describeMarked, findMarked, stopMarked } from "./marked-processes.ts";
import { groupAlive } from "./process-group.ts";
import { stopGroup } from "./process-registry.ts";
import type { StartedProcess } from "./types.ts";

const MARK = "KHAELOR_SESSION_ID";

export function sessionMark(sessionId: string): Record<string, string> {
  return { [MARK]: sessionId };
}

/** The mark as it appears in an environment: NAME=value. */
export const markEntry = (sessionId: string): string => `${MARK}=${sessionId}`;

/** Stops this session's orphans; returns one line per process for the user. */
export async function settleOrphans(lost: readonly StartedProcess[], sessionId: string, graceMs = 2000): Promise<string[]> {
  return Promise.all(
    lost.map(async (p) => {
      const what = `process ${p.name ?? p.toolUseId} (${firstLine(p.command)}${p.pid ? `, pid ${p.pid}` : ""})`;
      if (p.pid === null) return `${what} was started by the previous run and is no longer managed; it may still be running`;
      const owner = groupAlive(p.pid) ? ownerOf(p.pid, sessionId) : "gone";
      // Its pid now belongs to another program: ours is gone, and that one is none of our business.
      if (owner === "gone" || owner === "other") return `${what}, started by the previous run, is no longer running`;
      if (owner === "unknown")
        return `${what} may still be running from the previous run, which KHAELOR no longer manages; check it with ps -p ${p.pid} before stopping it (kill -- -${p.pid})`;
      await stopGroup(p.pid, null, "SIGTERM", graceMs);
      return `stopped ${what}: the previous run was killed and left it running`;
    }),
  );
}

/**
 * What still carries the session's mark when it is resumed: no KHAELOR holds the session, so it was
 * left by the previous run (an interrupted bash command after kill -9, a daemon that left its
 * group). Stopped, and said. Where processes cannot be searched (no /proc), this finds nothing.
 */
export async function settleMarked(sessionId: string, graceMs = 2000): Promise<string[]> {
  const left = findMarked(markEntry(sessionId));
  if (left === null) return [];
  if (left.length === 0) return [];
  // An interrupted bash call's shell writes its cwd file as it stops; nobody is left to read it.
  // It lives in the private directory of the run that was killed (src/tools/bash.ts), which its
  // exit never removed: the file goes, then the directory if nothing else is in it.
  const cwdFiles = left.flatMap((p) => [...p.command.matchAll(/'([^']*\/khaelor-[A-Za-z0-9]{6}\/cwd-\d+)'/g)].map((m) => m[1]!));
  await stopMarked(left, graceMs);
  for (const f of cwdFiles) {
    rmSync(f, { force: true });
    try {
      rmdirSync(dirname(f));
    } catch {}
  }
  const n = left.length === 1 ? "a process" : `${left.length} processes`;
  return [`stopped ${n} the previous run left running (an interrupted command, or what it started): ${left.map(describeMarked).join(", ")}`];
}

/**
 * Whose group this is, by the environment of its live members (src/platform/process-environ.ts).
 * A killed run's terminal hangs up, which ends most of what ran in it; the leader may be left as
 * a zombie (no init reaps it) with no environment to read, and counts as gone unless a member
 * that ignored the hangup still runs.
 */
function ownerOf(pgid: number, sessionId: string): "ours" | "other" | "unknown" | "gone" {
  const members = liveMembers(pgid);
  if (members !== null && members.length === 0) return "gone";
  const answers = (members ?? [pgid]).map((pid) => environHas(pid, `${MARK}=${sessionId}`));
  if (answers.includes(true)) return "ours";
  return answers.every((a) => a === false) ? "other" : "unknown";
}

/** Pids of the group's members that are not zombies; null when ps cannot tell. */
function liveMembers(pgid: number): number[] | null {
  const ps = spawnSync("ps", ["-A", "-o", "pid=,pgid=,stat="], { encoding: "utf8", timeout: 2000 });
  if (ps.status !== 0) return null;
  const out: number[] = [];
  for (const line of ps.stdout.split("\n")) {
    const [pid, group, stat] = line.trim().split(/\s+/);
    if (Number(group) === pgid && stat && !stat.startsWith("Z")) out.push(Number(pid));
  }
  return out;
}

function firstLine(command: string): string {
  const line = command.split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
