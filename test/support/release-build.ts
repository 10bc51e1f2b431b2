// The release output tests serve: `bun run release` for this machine's platform, built once per
// test process and shared by every file that asks (two builds take ~20 s on two cores). With
// KHAELOR_RELEASE_DIR set (CI, after `bun run release`), the current release is that directory.
// The older release (for `khaelor update`) is the same platform's binary saying it is 0.0.1.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isReleaseTarget, runningPlatform } from "../../src/platform/target.ts";
import { scratch } from "./scratch.ts";

const RELEASE = join(import.meta.dir, "..", "..", "scripts", "release.ts");
export const OLD_VERSION = "0.0.1";
/** Whether this machine is one a release is built for (elsewhere the release tests skip). */
export const releasable = isReleaseTarget(runningPlatform());

export type ReleaseDir = { dir: string; npm: string; binary: string };

async function build(args: string[]): Promise<ReleaseDir> {
  const dir = scratch("khaelor-release-");
  const p = Bun.spawn([process.execPath, RELEASE, "--target", runningPlatform(), "--out", dir, ...args], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) throw new Error(`bun run release ${args.join(" ")} failed (${code}):\n${out}${err}`);
  return { dir, npm: join(dir, "npm"), binary: join(dir, `khaelor-${runningPlatform()}`) };
}

let current: Promise<ReleaseDir> | null = null;
let older: Promise<ReleaseDir> | null = null;

export function currentRelease(): Promise<ReleaseDir> {
  const ci = process.env.KHAELOR_RELEASE_DIR;
  if (ci && existsSync(join(ci, "manifest.json"))) current ??= Promise.resolve({ dir: ci, npm: join(ci, "..", "npm"), binary: join(ci, `khaelor-${runningPlatform()}`) });
  current ??= build([]);
  return current;
}

export function olderRelease(): Promise<ReleaseDir> {
  older ??= build(["--version", OLD_VERSION, "--no-npm"]);
  return older;
}
