// The Agent SDK runs a path that does not end in .js as an executable: a shell script that starts
// our source (or the binary under test, KHAELOR_BIN).
import { chmodSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { MAIN } from "../support/cli.ts";

export function sdkExecutable(): string {
  const bin = process.env.KHAELOR_BIN;
  const path = join(mkdtempSync(join(tmpdir(), "khaelor-sdk-")), "khaelor");
  writeFileSync(path, `#!/bin/sh\nexec ${bin ? `"${bin}"` : `"${process.execPath}" "${MAIN}"`} "$@"\n`);
  chmodSync(path, 0o755);
  return path;
}
