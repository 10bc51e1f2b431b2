// `khaelor update` from an older build (the same platform's binary saying it is 0.0.1) to the real
// `bun run release` output, served on loopback: --check only says; update replaces the binary
// atomically and says so; and a damaged binary, a wrong checksum, a cut-off download, a binary that
// does not run, a manifest that does not parse and a read-only install directory each leave the old
// binary byte for byte and no file beside it, with one line saying what to do.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { copyFileSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import { runningPlatform } from "../../src/platform/target.ts";
import { VERSION } from "../../src/version.ts";
import { isolatedEnv, MAIN } from "../support/cli.ts";
import { currentRelease, OLD_VERSION, olderRelease, releasable, type ReleaseDir } from "../support/release-build.ts";
import { startReleaseServer, type ReleaseServer } from "../support/release-server.ts";
import { scratch } from "../support/scratch.ts";

const file = `khaelor-${runningPlatform()}`;
let current: ReleaseDir;
let old: ReleaseDir;
let server: ReleaseServer;
let manifest: { version: string; files: Record<string, { file: string; size: number; sha256: string }> };
beforeAll(async () => {
  if (!releasable) return;
  [current, old] = await Promise.all([currentRelease(), olderRelease()]);
  server = await startReleaseServer(current.dir);
  manifest = JSON.parse(readFileSync(join(current.dir, "manifest.json"), "utf8"));
}, 120_000);
afterAll(() => server?.close());

/** The older build, installed alone in a directory of its own. */
function installedOld(): { dir: string; bin: string } {
  const dir = join(scratch("khaelor-update-"), "bin");
  mkdirSync(dir);
  copyFileSync(old.binary, join(dir, "khaelor"));
  return { dir, bin: join(dir, "khaelor") };
}

async function run(cmd: string[], env: Record<string, string> = {}) {
  const p = Bun.spawn(cmd, { env: isolatedEnv(null, { KHAELOR_RELEASE_URL: server.url, ...env }), stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}
const sha = (f: string) => createHash("sha256").update(readFileSync(f)).digest("hex");

describe.skipIf(!releasable)("khaelor update", () => {
  test("--check says a newer release exists and changes nothing; update replaces the binary; then it is up to date", async () => {
    const { dir, bin } = installedOld();
    const before = sha(bin);
    const check = await run([bin, "update", "--check"]);
    expect(check).toEqual({ code: 0, stdout: `khaelor ${VERSION} is available (you have ${OLD_VERSION}): run khaelor update\n`, stderr: "" });
    expect(sha(bin)).toBe(before);

    const update = await run([bin, "update"]);
    expect(update.stderr).toBe("");
    expect(update.stdout).toBe(`khaelor updated from ${OLD_VERSION} to ${VERSION} (${bin})\n`);
    expect(update.code).toBe(0);
    expect(sha(bin)).toBe(manifest.files[runningPlatform()]!.sha256);
    expect((await run([bin, "--version"])).stdout).toBe(`${VERSION} (khaelor, ${runningPlatform()})\n`);
    expect(readdirSync(dir)).toEqual(["khaelor"]);

    expect(await run([bin, "update"])).toEqual({ code: 0, stdout: `khaelor ${VERSION} is up to date (the latest release is ${VERSION})\n`, stderr: "" });
  }, 120_000);

  const entry = () => manifest.files[runningPlatform()]!;
  const withEntry = (e: object) => JSON.stringify({ ...manifest, files: { [runningPlatform()]: { ...entry(), ...e } } });
  const notRuns = "#!/bin/sh\necho 9.9.9\n";
  const cases: Array<{ name: string; faults: () => Record<string, import("../support/release-server.ts").Fault>; says: RegExp }> = [
    { name: "a damaged binary", faults: () => ({ [`/${file}`]: { corrupt: true } }), says: new RegExp(`^khaelor: update: the download of http://127\\.0\\.0\\.1:\\d+/${file} is damaged: its sha256 is [0-9a-f]{64}, the manifest says [0-9a-f]{64}; .* was left as it is: run khaelor update again\\n$`) },
    { name: "a wrong checksum in the manifest", faults: () => ({ "/manifest.json": { body: withEntry({ sha256: "0".repeat(64) }) } }), says: /is damaged: its sha256 is [0-9a-f]{64}, the manifest says 0{64}; .* was left as it is/ },
    { name: "a download cut off midway", faults: () => ({ [`/${file}`]: { truncate: true } }), says: /was cut off after \d+ of \d+ bytes .*; .* was left as it is: run khaelor update again\n$/ },
    { name: "a binary that does not run here", faults: () => ({ [`/${file}`]: { body: notRuns }, "/manifest.json": { body: withEntry({ size: notRuns.length, sha256: createHash("sha256").update(notRuns).digest("hex") }) } }), says: /the downloaded khaelor .* does not run on this machine \(it said "9\.9\.9"\); the installed one was left as it is\n$/ },
    { name: "a manifest that does not parse", faults: () => ({ "/manifest.json": { body: "<html>maintenance</html>" } }), says: /^khaelor: update: the release manifest at http:\/\/127\.0\.0\.1:\d+\/manifest\.json is not JSON \(.*\); try again later, or set KHAELOR_RELEASE_URL to a mirror\n$/ },
    { name: "a manifest of another shape", faults: () => ({ "/manifest.json": { body: '{"name":"khaelor","version":"latest","files":{}}' } }), says: /is not one KHAELOR reads \(version: a version such as 1\.2\.3\)/ },
  ];
  for (const c of cases) {
    test(`${c.name}: the old binary stays, byte for byte, with nothing beside it`, async () => {
      const { dir, bin } = installedOld();
      const before = sha(bin);
      for (const [path, fault] of Object.entries(c.faults())) server.faults.set(path, fault);
      try {
        const r = await run([bin, "update"]);
        expect(r.stderr).toMatch(c.says);
        expect(r.code).toBe(1);
        expect(sha(bin)).toBe(before);
        expect(readdirSync(dir)).toEqual(["khaelor"]);
      } finally {
        server.faults.clear();
      }
    }, 60_000);
  }

  const bwrap = Bun.which("bwrap");
  const sandboxWorks = bwrap !== null && Bun.spawnSync([bwrap, "--dev-bind", "/", "/", "true"]).exitCode === 0;
  test.skipIf(!sandboxWorks)("a read-only install directory: the old binary stays, and the message gives the command to run", async () => {
    const { dir, bin } = installedOld();
    const before = sha(bin);
    const r = await run([bwrap!, "--dev-bind", "/", "/", "--ro-bind", dir, dir, bin, "update"]);
    expect(r.stderr).toBe(`khaelor: update: cannot write to ${dir} (a read-only file system), so ${bin} was left as it is: run sudo khaelor update, or install into a directory you own with: curl -fsSL ${server.url}/install.sh | sh\n`);
    expect(r.code).toBe(1);
    expect(sha(bin)).toBe(before);
    expect(readdirSync(dir)).toEqual(["khaelor"]);
  }, 60_000);

  test("run from source, update says to use git and replaces nothing", async () => {
    server.faults.set("/manifest.json", { body: JSON.stringify({ ...manifest, version: "99.0.0" }) });
    try {
      const r = await run([process.execPath, MAIN, "update"]);
      expect(r).toEqual({ code: 1, stdout: "", stderr: "khaelor: update: this khaelor was installed from source; update it with: git pull && npm ci\n" });
    } finally {
      server.faults.clear();
    }
  });
});
