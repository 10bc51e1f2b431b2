// Temporary directories removed once the test run ends (afterAll in test/support/preload.ts, which
// bunfig.toml preloads): the release tests copy 120 MB binaries around, and a run that left its
// copies in /tmp left gigabytes. Shared across test files, as the release builds are.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const made: string[] = [];

export function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

export function removeScratch(): void {
  for (const d of made.splice(0)) rmSync(d, { recursive: true, force: true });
}
