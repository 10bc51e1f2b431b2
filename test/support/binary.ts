// Runs a test file's CLI runs against the compiled binary: unless KHAELOR_BIN already names one,
// dist/khaelor's build (scripts/compile.ts) is made into a temp directory and KHAELOR_BIN points at
// it for the file's tests (cliCommand and the pty harness read it). The 140 MB build is removed
// when the last file using it is done (bun test runs no exit handlers of ours).
import { afterAll, beforeAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { compile } from "../../scripts/compile.ts";
import { parseTarget, runningPlatform } from "../../src/platform/target.ts";

let building: Promise<string> | null = null;
let users = 0;

export function useCompiledBinary(): void {
  const given = process.env.KHAELOR_BIN;
  if (given) return;
  beforeAll(async () => {
    users++;
    building ??= (async () => {
      const dir = mkdtempSync(join(tmpdir(), "khaelor-bin-"));
      return (await compile(parseTarget(runningPlatform()), join(dir, "khaelor"))).outfile;
    })();
    process.env.KHAELOR_BIN = await building;
  }, 120_000);
  afterAll(async () => {
    delete process.env.KHAELOR_BIN;
    if (--users > 0 || !building) return;
    const bin = await building;
    building = null;
    rmSync(dirname(bin), { recursive: true, force: true });
  });
}
