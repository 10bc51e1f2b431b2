// `npm test`: the suite under a temporary directory of the run's own, removed when it ends. Every
// test file also gets a root of its own inside it (test/support/preload.ts); this one catches what
// children started without an explicit environment leave (Bun.spawn gives them the environment the
// runner started with, not process.env as a test file changed it).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Three files at a time on two cores: a test file spends much of its time waiting for the processes
// it started, and the third fills that (267 s against 291 s for the suite on the 2-core machine).
// Short: tests show paths under it on screens 80 or 100 columns wide.
const root = mkdtempSync(join(tmpdir(), "kr-"));
const run = Bun.spawn([process.execPath, "test", "--timeout", "60000", "--parallel=3", ...process.argv.slice(2)], {
  stdio: ["inherit", "inherit", "inherit"],
  env: { ...process.env, TMPDIR: root, KHAELOR_TEST_TMP_BASE: root },
});
// Ctrl-C reaches bun test too (the same process group); a TERM is passed on. Either way: wait for
// it to stop, then clean up.
process.on("SIGINT", () => {});
process.on("SIGTERM", () => run.kill("SIGTERM"));
const code = await run.exited;
rmSync(root, { recursive: true, force: true });
process.exit(code);
