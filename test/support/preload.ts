// Preloaded by bun test (bunfig.toml) before each test file. Everything a file puts in the
// temporary directory goes under a root of its own, removed when the file ends: the suite makes
// thousands of projects and data homes (and 100 MB trees, and copies of 120 MB binaries), and a run
// that left them in /tmp filled a CI machine's disk. The CLI children the tests start get the same
// TMPDIR through isolatedEnv. Bun's workers run one file at a time, so setting TMPDIR is safe.
import { afterAll } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { removeScratch } from "./scratch.ts";

// A worker keeps its environment from file to file: the base is the TMPDIR the run started with.
process.env.KHAELOR_TEST_TMP_BASE ??= tmpdir();
// A short name: screen tests see these paths, and a long one moves where prose wraps.
const root = mkdtempSync(join(process.env.KHAELOR_TEST_TMP_BASE, "kt-"));
process.env.TMPDIR = root;

afterAll(() => {
  removeScratch();
  rmSync(root, { recursive: true, force: true });
});
