// The npm packages `bun run release` writes, installed as a user would (`npm install -g`, with a
// --prefix in a temp dir) from a loopback registry serving those tarballs: npm picks the platform
// package by os and cpu, the launcher execs its binary, and `khaelor --version` answers from the
// prefix's bin; `npx khaelor` runs it too. Ctrl-C and exit codes are the binary's own (exec).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { renameSync } from "node:fs";
import { join } from "node:path";
import { RELEASE_TARGETS, runningPlatform } from "../../src/platform/target.ts";
import { VERSION } from "../../src/version.ts";
import { currentRelease, releasable } from "../support/release-build.ts";
import { startNpmRegistry } from "../support/npm-registry.ts";
import { scratch } from "../support/scratch.ts";

const npm = Bun.which("npm");
let registry: Awaited<ReturnType<typeof startNpmRegistry>>;
beforeAll(async () => {
  if (!releasable || !npm) return;
  registry = await startNpmRegistry((await currentRelease()).npm);
}, 120_000);
afterAll(() => registry?.close());

async function run(cmd: string[], env: Record<string, string>) {
  // Not in this repository: its package.json is named khaelor too, and npx would run its bin.
  const p = Bun.spawn(cmd, { env, cwd: env.HOME, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr };
}

describe.skipIf(!releasable || !npm)("the npm packages", () => {
  test("npm install -g --prefix installs the launcher and this platform's binary; khaelor --version runs from the prefix; npx khaelor too", async () => {
    const work = scratch("khaelor-npm-");
    // npm's own cache and config in the temp dir: nothing from the user's, and nothing left in it.
    const env = { PATH: process.env.PATH ?? "/usr/bin:/bin", HOME: work, npm_config_cache: join(work, "cache"), npm_config_userconfig: join(work, "npmrc"), npm_config_registry: registry.url, npm_config_update_notifier: "false", npm_config_audit: "false", npm_config_fund: "false" };
    const prefix = join(work, "prefix");
    const install = await run([npm!, "install", "-g", "--prefix", prefix, "khaelor"], env);
    expect(install.stderr).not.toContain("ERR");
    expect(install.code).toBe(0);
    const version = await run([join(prefix, "bin", "khaelor"), "--version"], env);
    expect(version).toEqual({ code: 0, stdout: `${VERSION} (khaelor, ${runningPlatform()})\n`, stderr: "" });
    // The other platforms' packages were skipped by their metadata: no tarball of theirs was asked for.
    const others = RELEASE_TARGETS.filter((t) => t !== runningPlatform());
    expect(registry.requests.filter((r) => others.some((t) => r.startsWith(`/khaelor-${t}/-/`)))).toEqual([]);
    // An exit code passes through unchanged (exec): a usage error is 2.
    expect((await run([join(prefix, "bin", "khaelor"), "--no-such-flag"], env)).code).toBe(2);

    // Without its platform's package (optional dependencies left out), the launcher says how to get it, and exits 1.
    const platformPkg = join(prefix, "lib", "node_modules", "khaelor", "node_modules", `khaelor-${runningPlatform()}`);
    renameSync(platformPkg, `${platformPkg}.away`);
    expect(await run([join(prefix, "bin", "khaelor"), "--version"], env)).toEqual({
      code: 1,
      stdout: "",
      stderr: `khaelor: npm did not install khaelor-${runningPlatform()} (optional dependencies left out?): run npm install -g khaelor --include=optional\n`,
    });
    renameSync(`${platformPkg}.away`, platformPkg);

    const npx = await run([Bun.which("npx")!, "--yes", "khaelor", "--version"], env);
    expect(npx.stderr).toBe("");
    expect(npx.stdout).toBe(`${VERSION} (khaelor, ${runningPlatform()})\n`);
    expect(npx.code).toBe(0);
  }, 120_000);
});
