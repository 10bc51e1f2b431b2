// `khaelor update` and `khaelor update --check`: read the release manifest, compare versions, and
// replace this binary with the newer one. The new binary is written beside the old one, checked
// (size, sha256, and that it runs and says the manifest's version), fsynced and renamed over it:
// the rename is atomic, so at every moment the path holds either the old binary or the new one,
// whole. Anything that fails before the rename leaves the old binary as it was and no file behind.
import { closeSync, constants, fsyncSync, openSync, renameSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { RELEASE_TARGETS, isReleaseTarget } from "../platform/target.ts";
import { DownloadError, downloadVerified, fetchText } from "./download.ts";
import { installKind, updateCommand, type InstallKind } from "./install-kind.ts";
import { compareVersions, parseManifest, type ReleaseFile, type ReleaseManifest } from "./manifest.ts";
import { releaseUrl } from "./release-url.ts";

export type UpdateIo = {
  env: Record<string, string | undefined>;
  out: (line: string) => void;
  err: (line: string) => void;
  version: string;
  platform: string;
  kind: InstallKind;
  /** How long the binary's download may take (ms). */
  timeoutMs?: number;
};

export const defaultUpdateIo = (version: string, platform: string): UpdateIo => ({
  env: process.env,
  out: (l) => process.stdout.write(`${l}\n`),
  err: (l) => process.stderr.write(`khaelor: ${l}\n`),
  version,
  platform,
  kind: installKind(),
});

/** The release's manifest from the release URL; throws with a line to show. */
export async function latestRelease(env: UpdateIo["env"]): Promise<ReleaseManifest> {
  const url = `${releaseUrl(env)}/manifest.json`;
  return parseManifest(await fetchText(url), url);
}

export async function updateMain(args: string[], io: UpdateIo): Promise<number> {
  const check = args.includes("--check");
  const unknown = args.filter((a) => a !== "--check");
  if (unknown.length > 0) {
    io.err(`update: unknown argument ${unknown[0]} (usage: khaelor update [--check])`);
    return 2;
  }
  let manifest: ReleaseManifest;
  try {
    manifest = await latestRelease(io.env);
  } catch (e) {
    io.err(`update: ${e instanceof Error ? e.message : String(e)}; try again later, or set KHAELOR_RELEASE_URL to a mirror`);
    return 1;
  }
  if (compareVersions(manifest.version, io.version) <= 0) {
    io.out(`khaelor ${io.version} is up to date (the latest release is ${manifest.version})`);
    return 0;
  }
  if (check) {
    io.out(`khaelor ${manifest.version} is available (you have ${io.version}): run ${updateCommand(io.kind)}`);
    return 0;
  }
  if (io.kind.kind !== "binary") {
    io.err(`update: this khaelor was installed ${io.kind.kind === "npm" ? "with npm" : "from source"}; update it with: ${updateCommand(io.kind)}`);
    return 1;
  }
  const entry = isReleaseTarget(io.platform) ? manifest.files[io.platform] : undefined;
  if (!entry) {
    io.err(`update: release ${manifest.version} has no binary for ${io.platform} (it has ${Object.keys(manifest.files).join(", ") || "none"}; KHAELOR is built for ${RELEASE_TARGETS.join(", ")})`);
    return 1;
  }
  try {
    await replaceBinary(io.kind.path, releaseUrl(io.env), entry, manifest.version, io.timeoutMs);
  } catch (e) {
    io.err(`update: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }
  io.out(`khaelor updated from ${io.version} to ${manifest.version} (${io.kind.path})`);
  return 0;
}

/** Downloads into a file beside `target`, checks it, and renames it over `target`. */
async function replaceBinary(target: string, base: string, want: ReleaseFile, version: string, timeoutMs?: number): Promise<void> {
  const dir = dirname(target);
  const tmp = join(dir, `.${basename(target)}.update-${process.pid}`);
  let fd: number;
  try {
    fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o755);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code ?? "";
    if (["EACCES", "EPERM", "EROFS"].includes(code))
      throw new Error(`cannot write to ${dir} (${code === "EROFS" ? "a read-only file system" : "permission denied"}), so ${target} was left as it is: run sudo khaelor update, or install into a directory you own with: curl -fsSL ${base}/install.sh | sh`);
    throw new Error(`cannot write beside ${target} (${(e as Error).message}); it was left as it is`);
  }
  let renamed = false;
  try {
    try {
      await downloadVerified(`${base}/${want.file}`, fd, want, timeoutMs);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    await checkRuns(tmp, version);
    renameSync(tmp, target);
    renamed = true;
    syncDir(dir);
  } catch (e) {
    if (e instanceof DownloadError) throw new Error(`${e.message}; ${target} was left as it is: run khaelor update again`);
    throw e;
  } finally {
    if (!renamed) rmSync(tmp, { force: true });
  }
}

/** The new binary must run here and say it is the version the manifest names. */
async function checkRuns(file: string, version: string): Promise<void> {
  let out = "";
  try {
    const p = Bun.spawn([file, "--version"], { stdout: "pipe", stderr: "ignore", stdin: "ignore", env: { ...process.env, DISABLE_AUTOUPDATER: "1" } });
    const timer = setTimeout(() => p.kill(), 30_000);
    out = await new Response(p.stdout).text();
    clearTimeout(timer);
    if ((await p.exited) !== 0) out = "";
  } catch {
    out = "";
  }
  if (!out.startsWith(`${version} `)) throw new Error(`the downloaded khaelor ${version} does not run on this machine (it said ${JSON.stringify(out.trim().slice(0, 80))}); the installed one was left as it is`);
}

/** The rename is durable once the directory's entry is on disk; a file system that cannot fsync a directory still renamed. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, constants.O_RDONLY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort: the rename itself has happened.
  }
}
