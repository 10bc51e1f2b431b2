// The start-up update check: at most one request a day, its answer kept for the next start, one
// line when a newer release exists; and "autoUpdates": false or DISABLE_AUTOUPDATER=1 means no
// request at all. In-process against a loopback release host (the check is handed its install
// kind, since a test runs from source, which never checks), then the real older build in a pty.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadSettings } from "../../src/agent/config.ts";
import { CHECK_EVERY_MS, readUpdateState, startUpdateCheck, updateStateFile } from "../../src/install/update-check.ts";
import { VERSION } from "../../src/version.ts";
import { isolatedEnv, tempProject } from "../support/cli.ts";
import { currentRelease, OLD_VERSION, olderRelease, releasable } from "../support/release-build.ts";
import { startReleaseServer, type ReleaseServer } from "../support/release-server.ts";
import { ptyFixtures, submit, idle, KEY } from "../e2e/pty/harness.ts";
import { scratch } from "../support/scratch.ts";

const NEWER = "9.0.0";
const manifest = JSON.stringify({ name: "khaelor", version: NEWER, files: {} });
let server: ReleaseServer;
beforeAll(async () => {
  server = await startReleaseServer(scratch("khaelor-empty-release-"), { "/manifest.json": { body: manifest } });
});
afterAll(() => server.close());

const binary = { kind: "binary", path: "/opt/khaelor/khaelor" } as const;
function check(env: Record<string, string>, now: number, autoUpdates?: boolean) {
  return startUpdateCheck({ version: VERSION, autoUpdates: () => autoUpdates, env: { KHAELOR_RELEASE_URL: server.url, ...env }, kind: binary, now: () => now });
}
const cacheEnv = () => ({ XDG_CACHE_HOME: scratch("khaelor-cache-"), HOME: "/nonexistent" });
const asked = () => server.requests.filter((r) => r === "/manifest.json").length;

describe("the daily check", () => {
  test("asks once, says the newer version in one line, and within a day answers from what it kept", async () => {
    const env = cacheEnv();
    const t0 = 1_800_000_000_000;
    const before = asked();
    const first = check(env, t0);
    expect(await first.done).toBe(`khaelor ${NEWER} is available (you have ${VERSION}): run khaelor update`);
    expect(asked()).toBe(before + 1);
    expect(readUpdateState(updateStateFile(env))).toEqual({ checkedAt: t0, latest: NEWER });

    const soon = check(env, t0 + CHECK_EVERY_MS - 1);
    expect(await soon.done).toBe(`khaelor ${NEWER} is available (you have ${VERSION}): run khaelor update`);
    expect(asked()).toBe(before + 1);

    const nextDay = check(env, t0 + CHECK_EVERY_MS);
    // What it kept is said at once; the day's request goes out beside it.
    expect(await nextDay.done).toBe(`khaelor ${NEWER} is available (you have ${VERSION}): run khaelor update`);
    await nextDay.finished;
    expect(asked()).toBe(before + 2);
  });

  test("a host that does not answer costs nothing but the line, and is asked again only the next day", async () => {
    const env = cacheEnv();
    server.faults.set("/manifest.json", { status: 503 });
    try {
      const before = asked();
      expect(await check(env, 1_000).done).toBeNull();
      expect(await check(env, 2_000).done).toBeNull();
      expect(asked()).toBe(before + 1);
    } finally {
      server.faults.set("/manifest.json", { body: manifest });
    }
  });

  for (const [name, env, autoUpdates] of [
    ["DISABLE_AUTOUPDATER=1", { DISABLE_AUTOUPDATER: "1" }, undefined],
    ['"autoUpdates": false', {}, false],
  ] as const) {
    test(`${name}: no request, and no file read or written`, async () => {
      const cache = cacheEnv();
      // The control: the same call with checks on asks.
      const before = asked();
      await check(cacheEnv(), 0).done;
      expect(asked()).toBe(before + 1);
      // The check decides before it would ask, and `done` settles only after a request it made has been answered.
      const off = check({ ...cache, ...env }, 0, autoUpdates);
      expect(await off.done).toBeNull();
      await off.finished;
      expect(asked()).toBe(before + 1);
      expect(existsSync(updateStateFile(cache))).toBe(false);
    });
  }

  test("a project's settings cannot turn the check back on; the user's false holds", () => {
    const home = scratch("khaelor-settings-");
    const before = process.env.XDG_CONFIG_HOME;
    process.env.XDG_CONFIG_HOME = join(home, "config");
    try {
      mkdirSync(join(home, "config", "khaelor"), { recursive: true });
      writeFileSync(join(home, "config", "khaelor", "settings.json"), '{"autoUpdates": false}');
      const project = tempProject();
      mkdirSync(join(project, ".khaelor"));
      writeFileSync(join(project, ".khaelor", "settings.json"), '{"autoUpdates": true}');
      expect(loadSettings(project).settings.autoUpdates).toBe(false);
      writeFileSync(join(home, "config", "khaelor", "settings.json"), "{}");
      writeFileSync(join(project, ".khaelor", "settings.json"), '{"autoUpdates": false}');
      expect(loadSettings(project).settings.autoUpdates).toBe(false);
    } finally {
      if (before === undefined) delete process.env.XDG_CONFIG_HOME;
      else process.env.XDG_CONFIG_HOME = before;
    }
  });
});

describe.skipIf(!releasable)("the check in the running program (the older build in a pty)", () => {
  const fixtures = ptyFixtures();
  let release: ReleaseServer;
  beforeAll(async () => {
    release = await startReleaseServer((await currentRelease()).dir);
  }, 120_000);
  afterAll(() => release?.close());

  async function session(extra: Record<string, string>, settings?: object) {
    const api = await fixtures.api({ turns: [{ content: [{ type: "text", text: "TURN-DONE" }] }] });
    const env = isolatedEnv(api.url, { KHAELOR_RELEASE_URL: release.url, ...extra });
    if (settings) {
      mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
      writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify(settings));
    }
    return fixtures.pty([], { env, cwd: tempProject(), program: (await olderRelease()).binary });
  }

  test("a newer release is one line in the transcript", async () => {
    const s = await session({});
    await s.waitForText(`khaelor ${VERSION} is available (you have ${OLD_VERSION}): run khaelor update`);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 120_000);

  test("print mode says it on stderr after the answer, from what the last check kept (no request within the day)", async () => {
    const api = await fixtures.api({ turns: [{ content: [{ type: "text", text: "THE-ANSWER" }] }] });
    const env = isolatedEnv(api.url, { KHAELOR_RELEASE_URL: release.url });
    mkdirSync(join(env.XDG_CACHE_HOME!, "khaelor"), { recursive: true });
    writeFileSync(join(env.XDG_CACHE_HOME!, "khaelor", "update-check.json"), JSON.stringify({ checkedAt: Date.now(), latest: VERSION }));
    const before = release.requests.length;
    const s = fixtures.pty(["-p", "hello"], { env, cwd: tempProject(), program: (await olderRelease()).binary });
    expect(await s.exited).toBe(0);
    expect(s.all()).toMatch(new RegExp(`THE-ANSWER\\s+khaelor ${VERSION.replaceAll(".", "\\.")} is available \\(you have ${OLD_VERSION}\\): run khaelor update`));
    expect(release.requests.slice(before)).toEqual([]);
  }, 120_000);

  for (const [name, extra, settings] of [
    ["DISABLE_AUTOUPDATER=1", { DISABLE_AUTOUPDATER: "1" }, undefined],
    ['"autoUpdates": false', {}, { autoUpdates: false }],
  ] as const) {
    test(`${name}: a whole session, and not one request to the release host`, async () => {
      const before = release.requests.length;
      const s = await session(extra, settings);
      // The check would have started when the session opened, before this turn's request went out.
      await submit(s, "hello");
      await s.waitFor((sc) => sc.includes("TURN-DONE") && idle(sc), "the answer");
      s.send(KEY.ctrlD);
      expect(await s.exited).toBe(0);
      expect(release.requests.slice(before)).toEqual([]);
      expect(s.all()).not.toContain("is available");
    }, 120_000);
  }
});
