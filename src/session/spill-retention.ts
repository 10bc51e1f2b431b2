// Spill files go with their session: a session's <id>.spill directory is removed once its log is
// gone, or once the log has not been touched for SPILL_RETENTION_DAYS (the outputs are a cache for
// the model's next look; the log keeps what the model saw). They held whole outputs, secrets
// included, and nothing ever deleted them. A session's <id>.images directory is part of its log
// (src/session/image-store.ts), not a cache: it goes when the log goes, never before.
import { readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

export const SPILL_RETENTION_DAYS = 30;

/** Removes the spill directories of this project's sessions that are gone or past retention, and the image directories of those gone; returns how many. */
export function pruneSpillDirs(sessionsDir: string, now = Date.now(), maxAgeMs = SPILL_RETENTION_DAYS * 86_400_000): number {
  let names: string[];
  try {
    names = readdirSync(sessionsDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const kind = name.endsWith(".spill") ? ".spill" : name.endsWith(".images") ? ".images" : null;
    if (!kind) continue;
    const log = join(sessionsDir, `${name.slice(0, -kind.length)}.jsonl`);
    let expired = true;
    try {
      const age = now - statSync(log).mtimeMs;
      expired = kind === ".spill" && age > maxAgeMs;
    } catch {
      // The log is gone: its spills and images are nobody's.
    }
    if (!expired) continue;
    rmSync(join(sessionsDir, name), { recursive: true, force: true });
    removed++;
  }
  return removed;
}
