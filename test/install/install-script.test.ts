// install.sh, run as a newcomer runs it (`curl -fsSL <url>/install.sh | sh`) under dash and bash,
// against a loopback host serving the real `bun run release` output: it installs into a fresh
// HOME's ~/.local/bin and says how to put it on PATH; re-run, it upgrades in place; and a damaged
// download, a wrong checksum, a cut-off download, an unknown platform, no curl or wget, or a
// directory it cannot create each end in one line saying what to do, with nothing installed and
// no partial file left.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { PLACEHOLDER_RELEASE_URL } from "../../src/install/release-url.ts";
import { runningPlatform } from "../../src/platform/target.ts";
import { VERSION } from "../../src/version.ts";
import { currentRelease, OLD_VERSION, olderRelease, releasable, type ReleaseDir } from "../support/release-build.ts";
import { startReleaseServer, type ReleaseServer } from "../support/release-server.ts";
import { scratch } from "../support/scratch.ts";

const SCRIPT = join(import.meta.dir, "..", "..", "install.sh");
const file = `khaelor-${runningPlatform()}`;
const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";
const shells = ["dash", "bash"].filter((s) => Bun.which(s, { PATH: SYSTEM_PATH }) !== null);
const has = (tool: string) => Bun.which(tool, { PATH: SYSTEM_PATH }) !== null;

let release: ReleaseDir;
let server: ReleaseServer;
beforeAll(async () => {
  if (!releasable) return;
  release = await currentRelease();
  server = await startReleaseServer(release.dir);
}, 120_000);
afterAll(() => server?.close());

type Run = { code: number; stdout: string; stderr: string; home: string };
/** `curl -fsSL $URL/install.sh | <shell> -s -- args`, in a fresh HOME. */
async function install(shell: string, args: string[] = [], o: { url?: string; path?: string; home?: string } = {}): Promise<Run> {
  const home = o.home ?? scratch("khaelor-install-home-");
  const url = o.url ?? server.url;
  const p = Bun.spawn([Bun.which(shell, { PATH: SYSTEM_PATH })!, "-c", `curl -fsSL "$KHAELOR_RELEASE_URL/install.sh" | ${shell} -s -- "$@"`, "install", ...args], {
    env: { HOME: home, PATH: o.path ?? SYSTEM_PATH, KHAELOR_RELEASE_URL: url, SHELL: "/bin/bash" },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, stdout, stderr, home };
}

const version = (bin: string) => Bun.spawnSync([bin, "--version"], { env: { PATH: SYSTEM_PATH } }).stdout.toString().trim();
const leftovers = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((f) => f !== "khaelor") : []);

test("install.sh's default release URL is the one khaelor update reads", () => {
  expect(readFileSync(SCRIPT, "utf8")).toContain(`DEFAULT_RELEASE_URL="${PLACEHOLDER_RELEASE_URL}"`);
});

// CI installs dash and curl (.ci/run); wget, the fallback, is tested where it is installed.
describe.skipIf(!releasable || !has("curl") || !has("dash"))("install.sh", () => {
  for (const shell of shells) {
    test(`${shell}: installs into ~/.local/bin of a fresh HOME, says how to put it on PATH, and re-run upgrades in place`, async () => {
      const old = await olderRelease();
      const oldServer = await startReleaseServer(old.dir);
      try {
        const first = await install(shell, [], { url: oldServer.url });
        expect(first.stderr).toBe("");
        expect(first.code).toBe(0);
        const bin = join(first.home, ".local", "bin", "khaelor");
        expect(version(bin)).toBe(`${OLD_VERSION} (khaelor, ${runningPlatform()})`);
        expect(first.stdout).toContain(`installed khaelor ${OLD_VERSION} (khaelor, ${runningPlatform()}) at ${bin}`);
        expect(first.stdout).toContain(`${join(first.home, ".local", "bin")} is not on your PATH; add it with:`);
        expect(first.stdout).toContain(`echo 'export PATH="${join(first.home, ".local", "bin")}:$PATH"' >> ${join(first.home, ".bashrc")}`);

        const again = await install(shell, [], { home: first.home });
        expect(again.code).toBe(0);
        expect(version(bin)).toBe(`${VERSION} (khaelor, ${runningPlatform()})`);
        expect(readFileSync(bin).equals(readFileSync(release.binary))).toBe(true);
        expect(leftovers(join(first.home, ".local", "bin"))).toEqual([]);
      } finally {
        await oldServer.close();
      }
    }, 120_000);
  }

  test("bash: a damaged binary installs nothing and leaves the installed one as it was", async () => {
    const home = scratch("khaelor-install-home-");
    const dir = join(home, "tools");
    mkdirSync(dir);
    writeFileSync(join(dir, "khaelor"), "the installed one\n");
    server.faults.set(`/${file}`, { corrupt: true });
    try {
      const r = await install("bash", ["--dir", dir], { home });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`^khaelor install: the download of ${file} is damaged \\(sha256 [0-9a-f]{64}, expected [0-9a-f]{64}\\): nothing was installed; run this again\\n$`));
      expect(readFileSync(join(dir, "khaelor"), "utf8")).toBe("the installed one\n");
      expect(leftovers(dir)).toEqual([]);
    } finally {
      server.faults.clear();
    }
  }, 60_000);

  test("dash: a checksum that does not match the binary installs nothing", async () => {
    server.faults.set(`/${file}.sha256`, { body: `${"0".repeat(64)}  ${file}\n` });
    try {
      const r = await install("dash");
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`the download of ${file} is damaged`);
      expect(r.stderr).toContain(`expected ${"0".repeat(64)}): nothing was installed`);
      expect(leftovers(join(r.home, ".local", "bin"))).toEqual([]);
      expect(existsSync(join(r.home, ".local", "bin", "khaelor"))).toBe(false);
    } finally {
      server.faults.clear();
    }
  }, 60_000);

  test("dash: a download cut off midway installs nothing and leaves no partial file", async () => {
    server.faults.set(`/${file}`, { truncate: true });
    try {
      const r = await install("dash");
      expect(r.code).toBe(1);
      expect(r.stderr).toEndWith(`khaelor install: could not download ${server.url}/${file} (interrupted or refused): nothing was installed; run this again\n`);
      expect(readdirSync(join(r.home, ".local", "bin"))).toEqual([]);
    } finally {
      server.faults.clear();
    }
  }, 60_000);

  test.skipIf(!has("wget"))("with wget and no curl, it downloads with wget", async () => {
    const bin = toolDir(["bash", "uname", "mkdir", "cut", "sha256sum", "chmod", "mv", "rm", "cat", "basename", "wget"]);
    const home = scratch("khaelor-install-home-");
    // The pipe itself still needs a downloader: the script comes from a file here.
    // Not spawnSync: the server answering it runs on this process's event loop.
    const p = Bun.spawn([join(bin, "bash"), SCRIPT], { env: { HOME: home, PATH: bin, KHAELOR_RELEASE_URL: server.url }, stdout: "pipe", stderr: "pipe" });
    const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
    expect(stderr).toBe("");
    expect(code).toBe(0);
    expect(version(join(home, ".local", "bin", "khaelor"))).toBe(`${VERSION} (khaelor, ${runningPlatform()})`);
  }, 60_000);

  test("an unknown platform, no curl or wget, or a directory it cannot create: one line each, nothing fetched or installed", async () => {
    const before = server.requests.length;
    const fake = toolDir(["dash", "mkdir", "cut", "sha256sum", "chmod", "mv", "rm", "cat", "curl"]);
    writeFileSync(join(fake, "uname"), '#!/bin/sh\ncase "$1" in -s) echo FreeBSD ;; -m) echo amd64 ;; *) echo FreeBSD amd64 ;; esac\n');
    chmodSync(join(fake, "uname"), 0o755);
    const run = async (path: string, args: string[] = []) => {
      const home = scratch("khaelor-install-home-");
      const p = Bun.spawn([join(fake, "dash"), SCRIPT, ...args], { env: { HOME: home, PATH: path, KHAELOR_RELEASE_URL: server.url }, stdout: "pipe", stderr: "pipe" });
      const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
      return { code, stderr, home };
    };
    const freebsd = await run(fake);
    expect(freebsd.code).toBe(1);
    expect(freebsd.stderr).toBe("khaelor install: no khaelor binary for FreeBSD amd64: there are for Linux and macOS on x86-64 and arm64; on other systems, build it from source (see the README)\n");
    expect(existsSync(join(freebsd.home, ".local"))).toBe(false);

    const bare = toolDir(["dash", "uname", "mkdir", "cut", "sha256sum", "chmod", "mv", "rm", "cat"]);
    const noDownloader = await run(bare);
    expect(noDownloader.code).toBe(1);
    expect(noDownloader.stderr).toBe("khaelor install: neither curl nor wget is installed: install one of them (e.g. apt-get install curl), then run this again\n");
    expect(existsSync(join(noDownloader.home, ".local"))).toBe(false);

    const unwritable = await run(SYSTEM_PATH, ["--dir", "/proc/self/khaelor"]);
    expect(unwritable.code).toBe(1);
    expect(unwritable.stderr).toBe("khaelor install: cannot create /proc/self/khaelor: choose a directory you can write with --dir DIR\n");
    expect(server.requests.length).toBe(before);
  });
});

/** A directory holding only these commands (links to the system's), to run the script with that PATH. */
function toolDir(tools: string[]): string {
  const dir = scratch("khaelor-tools-");
  for (const t of tools) {
    const found = Bun.which(t, { PATH: SYSTEM_PATH });
    if (!found) throw new Error(`${t} is not installed`);
    symlinkSync(found, join(dir, t));
  }
  return dir;
}
