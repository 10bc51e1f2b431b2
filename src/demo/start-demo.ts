// `khaelor --demo`: the real agent over real HTTP, against the fake Messages API running in this
// process with a built-in script, in a temporary copy of a small sample project.
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { demoScenario, writeSampleProject } from "./index.ts";
import { startFakeApi, type FakeApi } from "../fakeapi/index.ts";

export const DEMO_PROMPT = "The slugify test fails. Find out why and fix it.";
export const DEMO_BANNER = "KHAELOR demo: a scripted model (no API key needed); the tool calls and the sample project are real.";

export type Demo = { api: FakeApi; dir: string; apiKey: string; close(): Promise<void> };

export async function startDemo(): Promise<Demo> {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-demo-"));
  writeSampleProject(dir);
  exposeBunForSampleProject(dir);
  const api = await startFakeApi({ scenario: demoScenario });
  return {
    api,
    dir,
    apiKey: "sk-ant-demo-not-a-real-key",
    // Every run makes a fresh copy; nothing of it should outlive the run.
    close: async () => {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The sample project runs its JavaScript with node or bun. A machine with only the compiled
 * binary has neither, but the binary is Bun: with BUN_BE_BUN=1 it acts as the bun CLI. A shim
 * on PATH makes `bun` available to the demo's commands.
 */
function exposeBunForSampleProject(dir: string) {
  const exe = process.execPath;
  const bin = join(dir, ".khaelor-demo-bin");
  mkdirSync(bin, { recursive: true });
  const shim = join(bin, "bun");
  writeFileSync(shim, `#!/bin/sh\nBUN_BE_BUN=1 exec "${exe.replace(/"/g, '\\"')}" "$@"\n`);
  chmodSync(shim, 0o755);
  process.env.PATH = `${process.env.PATH ?? "/usr/bin:/bin"}:${bin}`;
}
