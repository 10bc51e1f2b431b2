// Processes a killed run left behind. On a clean exit KHAELOR stops every process it started; after
// a kill -9 they keep running, unmanaged, holding ports and CPU. On resume each one the log says
// was still running is stopped, as the clean exit would have done, but only when it provably
// belongs to this session: its group leader's environment carries the session's mark. A pid
// reused by someone else's process never carries it, and is left alone without a word of advice
// to kill it. Where the environment cannot be read, the user is told how to check and stop it.
import { environHas } from "../platform/process-environ.ts";
import { groupAlive } from "./process-group.ts";
import { stopGroup } from "./process-registry.ts";
import type { StartedProcess } from "./types.ts";

const MARK = "KHAELOR_SESSION_ID";

export function sessionMark(sessionId: string): Record<string, string> {
  return { [MARK]: sessionId };
}

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

/** Whose group leader this is, by its environment (src/platform/process-environ.ts). */
function ownerOf(pid: number, sessionId: string): "ours" | "other" | "unknown" {
  const has = environHas(pid, `${MARK}=${sessionId}`);
  return has === null ? "unknown" : has ? "ours" : "other";
}

function firstLine(command: string): string {
  const line = command.split("\n")[0] ?? "";
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}
