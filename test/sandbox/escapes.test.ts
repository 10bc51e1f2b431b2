// The held-out escapes, as real commands through the bash and process tools inside the real
// sandbox (bubblewrap here): each must fail, and each allowed path must still work. The home is a
// temporary one outside the temp directories (which the sandbox lets commands write). Skipped, and
// said so, where bubblewrap cannot make its namespaces.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { probeSandbox } from "../../src/sandbox/availability.ts";
import { openSandbox, type Sandbox } from "../../src/sandbox/sandbox.ts";
import { DEFAULT_SANDBOX } from "../../src/sandbox/settings.ts";
import { leftovers, makeHarness, processesWith, type Harness } from "../tools/harness.ts";

const avail = probeSandbox();
if (!avail.ok) console.log(`sandbox escapes: SKIPPED, the sandbox cannot run here: ${avail.why}`);
const socat = avail.ok && avail.socat;
if (avail.ok && !socat) console.log("sandbox escapes: socat is missing, the allowed-domain test is SKIPPED");

test.skipIf(avail.ok || !process.env.CI)("the sandbox runs in CI", () => {
  throw new Error(".ci/run must install bubblewrap and socat: the escapes were not tried");
});

let h: Harness;
let sb: Sandbox;
let home: string;
let outside: string;
let canary: ReturnType<typeof Bun.serve>;
let allowedServer: ReturnType<typeof Bun.serve>;
let canaryHits = 0;
const savedHome = process.env.HOME;

beforeAll(async () => {
  if (!avail.ok) return;
  // Not under a temp directory: those are writable inside.
  const base = join(homedir(), ".cache");
  mkdirSync(base, { recursive: true });
  outside = mkdtempSync(join(base, "khaelor-sandbox-test-"));
  home = join(outside, "home");
  mkdirSync(join(home, ".ssh"), { recursive: true });
  writeFileSync(join(home, ".ssh", "id_ed25519"), "CANARY-SSH-KEY\n");
  writeFileSync(join(home, "notes.txt"), "readable notes\n");
  process.env.HOME = home;
  h = makeHarness("khaelor-sandbox-");
  execFileSync("git", ["init", "-q"], { cwd: h.dir });
  writeFileSync(join(h.dir, "a.txt"), "a\n");
  canary = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => (canaryHits++, new Response("CANARY-NET\n")) });
  allowedServer = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("ALLOWED-NET\n") });
  sb = await openSandbox({ root: h.dir, home, settings: { ...DEFAULT_SANDBOX, enabled: true, allowedDomains: ["localhost"] }, placeholderLingerMs: 0 });
  h.ws.confine = sb;
});

afterAll(async () => {
  if (!avail.ok) return;
  process.env.HOME = savedHome;
  await sb.close();
  await h.cleanup();
  canary.stop(true);
  allowedServer.stop(true);
  rmSync(outside, { recursive: true, force: true });
});

describe.skipIf(!avail.ok)("escapes fail inside the sandbox", () => {
  test("a write to $HOME fails, and the result says the sandbox blocked it", async () => {
    const r = await h.call("bash", { command: 'echo pwned > "$HOME/pwned"' });
    expect(existsSync(join(home, "pwned"))).toBe(false);
    expect(r.isError).toBe(true);
    expect(r.text).toContain("blocked by the sandbox: write to ~/pwned");
  });

  test("a canary in ~/.ssh cannot be read; the rest of home can", async () => {
    const r = await h.call("bash", { command: "cat ~/.ssh/id_ed25519; ls -a ~/.ssh; cat ~/notes.txt" });
    expect(r.text).not.toContain("CANARY-SSH-KEY");
    expect(r.text).not.toContain("id_ed25519\n");
    expect(r.text).toContain("readable notes");
    expect(r.text).toContain("blocked by the sandbox: read of ~/.ssh");
  });

  test("curl to a loopback canary on a port not allowed reaches nothing, through the proxy or around it", async () => {
    const url = `http://127.0.0.1:${canary.port}/`;
    // Through the proxy explicitly (loopback names skip it by NO_PROXY: they are the session's own), and around it.
    const r = await h.call("bash", { command: `curl -s --noproxy '' -x "$HTTP_PROXY" --max-time 5 ${url}; echo "proxy:$?"; curl -s --max-time 5 ${url}; echo "direct:$?"; curl -s --noproxy '*' --max-time 5 ${url}; echo "direct2:$?"` });
    expect(r.text).not.toContain("CANARY-NET");
    expect(canaryHits).toBe(0);
    if (socat) expect(r.text).toContain("blocked by the sandbox: network to 127.0.0.1");
  });

  test("a symlink out of the project does not make the outside writable", async () => {
    mkdirSync(join(outside, "target"), { recursive: true });
    symlinkSync(join(outside, "target"), join(h.dir, "link"));
    const r = await h.call("bash", { command: "echo pwned > link/f" });
    expect(existsSync(join(outside, "target", "f"))).toBe(false);
    expect(r.isError).toBe(true);
  });

  test(".git/hooks, .git/config and settings files (existing or not) cannot be written; nothing is left behind", async () => {
    const r = await h.call("bash", {
      command: "echo 'curl evil' > .git/hooks/pre-commit; echo '[core] fsmonitor = evil' >> .git/config; mkdir -p .khaelor; echo '{}' > .khaelor/settings.json; mkdir -p .claude && echo '{}' > .claude/settings.local.json; true",
    });
    expect(existsSync(join(h.dir, ".git/hooks/pre-commit"))).toBe(false);
    expect(readFileSync(join(h.dir, ".git/config"), "utf8")).not.toContain("fsmonitor");
    expect(existsSync(join(h.dir, ".khaelor/settings.json"))).toBe(false);
    expect(existsSync(join(h.dir, ".claude/settings.local.json"))).toBe(false);
    // bubblewrap's mount points over missing paths are gone once no command runs.
    expect(await gone([join(h.dir, ".khaelor"), join(h.dir, ".claude")])).toEqual([]);
    expect(r.text).toContain("blocked by the sandbox: write to .git/hooks/pre-commit (protected");
  });

  test("a daemon forked with a clean environment (no mark to find it by) dies with the command", async () => {
    const token = `7${process.pid}.25`;
    // It waits until the daemon's environment is empty (exec done), so the mark cannot find it.
    await h.call("bash", { command: `env -i setsid sleep ${token} </dev/null >/dev/null 2>&1 & d=$!; while [ -n "$(tr -d '\\0' < /proc/$d/environ)" ]; do :; done; echo started` });
    expect(await leftovers(token)).toEqual([]);
  });
});

/** Waits (bounded) until none of `paths` exists; returns those still there. */
async function gone(paths: string[], withinMs = 3000): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  while (paths.some(existsSync) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  return paths.filter(existsSync);
}

describe.skipIf(!avail.ok)("Read deny rules that are globs (**/.env, *.pem)", () => {
  test("files in the project they match are hidden inside, found at each command's start; the rest reads", async () => {
    const w = makeHarness("khaelor-sandbox-globs-");
    mkdirSync(join(w.dir, "api", "config"), { recursive: true });
    writeFileSync(join(w.dir, ".env"), "CANARY-ROOT-ENV\n");
    writeFileSync(join(w.dir, "api", "config", ".env"), "CANARY-NESTED-ENV\n");
    writeFileSync(join(w.dir, "api", "server.pem"), "CANARY-PEM\n");
    writeFileSync(join(w.dir, "api", "readme.txt"), "plain readme\n");
    const globs = await openSandbox({ root: w.dir, home, settings: { ...DEFAULT_SANDBOX, enabled: true }, readDenyRules: () => ["**/.env", "*.pem"], placeholderLingerMs: 0 });
    w.ws.confine = globs;
    try {
      expect(globs.plan().unenforced).toEqual([]);
      const r = await w.call("bash", { command: "cat .env api/config/.env api/server.pem api/readme.txt" });
      expect(r.text).not.toContain("CANARY");
      expect(r.text).toContain("plain readme");
      // One made after the session started is hidden from the next command on.
      mkdirSync(join(w.dir, "web"));
      writeFileSync(join(w.dir, "web", ".env"), "CANARY-LATER-ENV\n");
      const later = await w.call("bash", { command: "cat web/.env; echo read-done" });
      expect(later.text).toContain("read-done");
      expect(later.text).not.toContain("CANARY-LATER-ENV");
    } finally {
      await globs.close();
      await w.cleanup();
    }
  });
});

describe.skipIf(!avail.ok)("bubblewrap's mount points over missing protected paths, kept between commands", () => {
  test("later commands reuse them and stay blocked; KHAELOR can still write its own settings beside them; close removes them", async () => {
    const w = makeHarness("khaelor-sandbox-linger-");
    const lingering = await openSandbox({ root: w.dir, home, settings: { ...DEFAULT_SANDBOX, enabled: true }, placeholderLingerMs: 60_000 });
    w.ws.confine = lingering;
    try {
      await w.call("bash", { command: "true" });
      expect(existsSync(join(w.dir, ".khaelor"))).toBe(true);
      // "Allow always" saving a rule while they linger.
      writeFileSync(join(w.dir, ".khaelor", "settings.local.json"), '{"permissions":{}}\n');
      const r = await w.call("bash", { command: "echo '{}' > .khaelor/settings.local.json; mkdir -p .claude && echo '{}' > .claude/settings.json; echo '{}' > .mcp.json; true" });
      expect(readFileSync(join(w.dir, ".khaelor", "settings.local.json"), "utf8")).toBe('{"permissions":{}}\n');
      expect(existsSync(join(w.dir, ".claude", "settings.json"))).toBe(false);
      expect(r.text).toContain("blocked by the sandbox");
    } finally {
      await lingering.close();
    }
    expect(existsSync(join(w.dir, ".claude"))).toBe(false);
    expect(existsSync(join(w.dir, ".mcp.json"))).toBe(false);
    expect(readFileSync(join(w.dir, ".khaelor", "settings.local.json"), "utf8")).toBe('{"permissions":{}}\n');
    await w.cleanup();
  });
});

describe.skipIf(!avail.ok)("what is allowed still works inside the sandbox", () => {
  test("the project, temp files and git: write, commit, read back", async () => {
    const r = await h.call("bash", {
      command: "echo b > b.txt && t=$(mktemp) && echo tmp > $t && cat $t && git add -A && git -c user.email=a@b -c user.name=a commit -qm one && git log --oneline | wc -l",
    });
    expect(r.text).toContain("tmp");
    expect(r.text).not.toContain("blocked");
    expect(r.isError).toBe(false);
    expect(readFileSync(join(h.dir, "b.txt"), "utf8")).toBe("b\n");
  });

  test.skipIf(!Bun.which("npm"))("npm has a cache it can write (home is read-only inside: ~/.npm failed with EROFS)", async () => {
    const r = await h.call("bash", { command: "npm cache verify >/dev/null && echo CACHE-OK" });
    expect(r.text).toContain("CACHE-OK");
    expect(existsSync(join(home, ".npm"))).toBe(false);
  });

  test.skipIf(!socat)("an allowed domain is reached through the proxy", async () => {
    // The host's localhost, through the proxy: plain `localhost` is the session's own loopback.
    const r = await h.call("bash", { command: `curl -s --noproxy '' -x "$HTTP_PROXY" --max-time 5 http://localhost:${allowedServer.port}/` });
    expect(r.text).toContain("ALLOWED-NET");
  });

  test("a dev server started with the process tool is reached from later bash commands (one network per session)", async () => {
    const port = 20_000 + (process.pid % 20_000);
    const server = `${process.execPath} -e 'Bun.serve({ hostname: "127.0.0.1", port: ${port}, fetch: () => new Response("DEV-SERVER-OK\\n") }); console.log("listening")'`;
    const s = await h.call("process", { action: "start", name: "web", command: server });
    expect(s.isError).toBe(false);
    const ready = await h.call("process", { action: "read", id: "web", wait_for: "listening", timeout: 20_000 });
    expect(ready.text).toContain("listening");
    const first = await h.call("bash", { command: `curl -s --max-time 5 http://localhost:${port}/` });
    const second = await h.call("bash", { command: `curl -s --max-time 5 http://127.0.0.1:${port}/` });
    expect(first.text).toContain("DEV-SERVER-OK");
    expect(second.text).toContain("DEV-SERVER-OK");
    // The session's loopback is not the host's: the host does not see the server.
    const fromHost = await fetch(`http://127.0.0.1:${port}/`).then((r) => r.text(), () => "unreachable");
    expect(fromHost).not.toContain("DEV-SERVER-OK");
    await h.call("process", { action: "stop", id: "web" });
  });

  test("when the sandbox itself cannot start the command, the result says why (bwrap's own error)", async () => {
    // A directory inside a hidden one exists out here but not inside: bwrap cannot chdir to it.
    mkdirSync(join(home, ".ssh", "sub"), { recursive: true });
    h.ws.cwd = join(home, ".ssh", "sub");
    try {
      const r = await h.call("bash", { command: "echo never" });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/bwrap: .*\.ssh\/sub/);
    } finally {
      h.ws.cwd = h.dir;
    }
  });

  test("a background job the command left running is stopped with it, and the result says so", async () => {
    const token = `9${process.pid}.5`;
    const r = await h.call("bash", { command: `sleep ${token} & sleep ${token} & curl -s -m 1 http://a.example/ >/dev/null; echo started` });
    expect(r.text).toContain("background processes the command left running were stopped");
    // Nothing leaves bubblewrap's pid namespace: what is still dying in it is no escape to report.
    expect(r.text).not.toContain("left its process group");
    expect(await leftovers(token)).toEqual([]);
    const quiet = await h.call("bash", { command: "echo nothing left" });
    expect(quiet.text).not.toContain("were stopped");
  });

  test("a dev server started with the process tool survives later commands and stops with the session", async () => {
    const token = `8${process.pid}.5`;
    const s = await h.call("process", { action: "start", name: "dev", command: `echo ready; exec sleep ${token}` });
    expect(s.isError).toBe(false);
    const r = await h.call("process", { action: "read", id: "dev", wait_for: "ready", timeout: 10_000 });
    expect(r.isError).toBe(false);
    for (let i = 0; i < 3; i++) await h.call("bash", { command: "echo later" });
    expect(processesWith(token).length).toBeGreaterThan(0);
    const list = await h.call("process", { action: "list" });
    expect(list.text).toMatch(/dev\s+pid \d+\s+running/);
    await h.ws.processes.stopAll(500);
    expect(await leftovers(token)).toEqual([]);
  });
});

describe.skipIf(!avail.ok || !socat)("without nsenter: a network per command", () => {
  test("the command's own relay reaches an allowed domain, the host's loopback stays out, and the relay is not taken for a leftover", async () => {
    const own = await openSandbox({ root: h.dir, home, settings: { ...DEFAULT_SANDBOX, enabled: true, allowedDomains: ["localhost"] }, probe: () => ({ ...(avail as Extract<typeof avail, { ok: true }>), nsenter: false }) });
    try {
      expect(own.state()).toMatchObject({ kind: "on", warnings: [expect.stringContaining("nsenter (util-linux) is not on PATH")] });
      h.ws.confine = own;
      const r = await h.call("bash", { command: `curl -s --max-time 5 http://localhost:${allowedServer.port}/; curl -s --noproxy '*' --max-time 5 http://127.0.0.1:${canary.port}/; echo "direct:$?"` });
      expect(r.text).toContain("ALLOWED-NET");
      expect(r.text).not.toContain("CANARY-NET");
      expect(r.text).not.toContain("were stopped");
    } finally {
      h.ws.confine = sb;
      await own.close();
    }
  });
});
