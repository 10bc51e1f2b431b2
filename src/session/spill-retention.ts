// Spill files go with their session: a session's <id>.spill directory is removed once its log is
// gone, or once the log has not been touched for SPILL_RETENTION_DAYS (the outputs are a cache for
// the model's next look; the log keeps what the model saw). They held whole outputs, secrets
// included, and nothing ever deleted them.
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

export const SPILL_RETENTION_DAYS = 30;

/** Removes the spill directories of this project's sessions that are gone or past retention; returns how many. */
export function pruneSpillDirs(sessionsDir: string, now = Date.now(), maxAgeMs = SPILL_RETENTION_DAYS * 86_400_000): number {
  let names: string[];
  try {
    names = readdirSync(sessionsDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    if (!name.endsWith(".spill")) continue;
    const log = join(sessionsDir, `${name.slice(0, -".spill".length)}.jsonl`);
    let expired = true;
    try {
      expired = now - statSync(log).mtimeMs > maxAgeMs;
    } catch {
      // The log is gone: its spills are nobody's.
    }
    if (!expired) continue;
    rmSync(join(sessionsDir, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
