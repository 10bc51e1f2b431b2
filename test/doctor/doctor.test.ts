// `khaelor doctor`: exit 0 with one line per thing it looked at when all is well (no terminal
// needed), 1 with the fix for each problem; the key's value is never printed. From source, then
// the real release binary, whose embedded ripgrep and grammar it unpacks and runs (and names the
// download to fetch again when that ripgrep is damaged), then in a pty for the terminal's line.
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ripgrepPackage } from "../../scripts/ripgrep-package.ts";
import { runningPlatform } from "../../src/platform/target.ts";
import { VERSION } from "../../src/version.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { currentRelease, releasable } from "../support/release-build.ts";
import { ptyFixtures } from "../e2e/pty/harness.ts";
import { scratch } from "../support/scratch.ts";

const KEY = "sk-ant-test-key-0123456789";

test("healthy: exit 0, where everything lives, the provider and that a key is set (not the key), ripgrep and the grammar run", async () => {
  const env = isolatedEnv("http://127.0.0.1:9");
  const r = await runCli(["doctor"], { cwd: tempProject(), env });
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const line = (name: string) => r.stdout.split("\n").find((l) => l.startsWith(`  ${name} `)) ?? `(no ${name} line)`;
  expect(line("version")).toContain(`${VERSION} (${runningPlatform()}), from source`);
  expect(line("settings")).toContain(`${join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json")} (none yet)`);
  expect(line("sessions")).toContain(join(env.KHAELOR_HOME!, "sessions"));
  expect(line("cache")).toContain(join(env.XDG_CACHE_HOME!, "khaelor", VERSION));
  expect(line("provider")).toContain("Anthropic API at http://127.0.0.1:9 (ANTHROPIC_BASE_URL); credentials: ANTHROPIC_API_KEY");
  expect(line("ripgrep")).toMatch(/ripgrep \d+\.\d+/);
  expect(line("grammars")).toContain("Bash grammar loads and parses");
  expect(line("terminal")).toContain("no terminal");
  expect(line("sandbox")).toContain('off ("sandbox": {"enabled": true} in settings turns it on)');
  expect(line("updates")).toContain("run from source");
  expect(r.stdout).toEndWith("\nNo problems found.\n");
  expect(r.stdout).not.toContain(KEY);
});

test("problems: exit 1, each with its fix; a key from the settings is named by where it comes from, never shown", async () => {
  const env = isolatedEnv(null, { ANTHROPIC_API_KEY: "" });
  const project = tempProject();
  mkdirSync(join(project, ".khaelor"));
  writeFileSync(join(project, ".khaelor", "settings.json"), '{"permissions": {');
  const r = await runCli(["doctor"], { cwd: project, env });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("\n2 problems:\n");
  expect(r.stdout).toMatch(/✗ provider: no API key[^\n]*\n  fix: export ANTHROPIC_API_KEY=<your key>/);
  expect(r.stdout).toContain(`✗ settings: ${join(project, ".khaelor", "settings.json")} is not valid JSON`);
  expect(r.stdout).toContain(`  fix: fix ${join(project, ".khaelor", "settings.json")} by hand (or remove it)\n`);

  mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
  const secret = "sk-ant-from-settings-abcdef987654";
  writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify({ apiKey: secret }));
  const withKey = await runCli(["doctor"], { cwd: tempProject(), env });
  expect(withKey.stdout).toContain("credentials: apiKey in your settings");
  expect(withKey.stdout + withKey.stderr).not.toContain(secret);
  expect(withKey.stdout).not.toContain(secret.slice(7, 20));
  expect(withKey.code).toBe(0);
});

describe.skipIf(!releasable)("the release binary", () => {
  test("unpacks and runs its embedded ripgrep and grammar; a damaged ripgrep is a problem naming the file to download again", async () => {
    const { binary } = await currentRelease();
    const env = isolatedEnv(null);
    const ok = Bun.spawn([binary, "doctor"], { cwd: tempProject(), env, stdout: "pipe", stderr: "pipe" });
    const out = await new Response(ok.stdout).text();
    expect(await ok.exited).toBe(0);
    expect(out).toContain(`ripgrep   ripgrep`);
    expect(out).toContain(`(${join(env.XDG_CACHE_HOME!, "khaelor", VERSION, "bin")}/rg-`);
    expect(out).toContain("Bash grammar loads and parses");
    expect(out).toContain(`binary at ${binary}`);

    const bytes = readFileSync(binary);
    const at = bytes.indexOf(readFileSync(ripgrepPackage(runningPlatform() as "linux-x64").rg));
    bytes[at + 100_000] = bytes[at + 100_000]! ^ 0xff;
    const damaged = join(scratch("khaelor-doctor-"), "khaelor");
    writeFileSync(damaged, bytes, { mode: 0o755 });
    const bad = Bun.spawn([damaged, "doctor"], { cwd: tempProject(), env: isolatedEnv(null), stdout: "pipe", stderr: "pipe" });
    const said = await new Response(bad.stdout).text();
    expect(await bad.exited).toBe(1);
    expect(said).toContain(`✗ ripgrep: the ripgrep embedded in this khaelor`);
    expect(said).toContain(`  fix: download khaelor-${runningPlatform()} again and check it against khaelor-${runningPlatform()}.sha256\n`);
  }, 120_000);
});

describe("in a terminal", () => {
  const fixtures = ptyFixtures();
  test("the terminal's line says its type, size and colours", async () => {
    const s = fixtures.pty(["doctor"], { env: isolatedEnv(null), cwd: tempProject(), cols: 120, rows: 30 });
    expect(await s.exited).toBe(0);
    expect(s.all()).toContain("terminal  TERM=xterm-256color, 120x30, colour: 256");
  }, 60_000);
});

test("the sandbox on in the settings but unable to run here (no bwrap on PATH) is a problem, with what to install", async () => {
  const bin = mkdtempSync(join(tmpdir(), "khaelor-nobwrap-"));
  for (const tool of ["git", "sh", "bash"]) {
    const at = Bun.which(tool);
    if (at) symlinkSync(at, join(bin, tool));
  }
  const env = isolatedEnv(null, { PATH: bin });
  mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
  writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify({ sandbox: { enabled: true } }));
  const r = await runCli(["doctor"], { cwd: tempProject(), env });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("the sandbox is on but cannot run: commands fall back to permission prompts");
  expect(r.stdout).toContain("sudo apt-get install bubblewrap socat");
});

test("a sandbox key KHAELOR does not carry out is a problem doctor names, as the session's start does", async () => {
  const env = isolatedEnv(null);
  mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
  writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify({ sandbox: { enabled: false, network: { allowUnixSockets: ["/var/run/docker.sock"] } } }));
  const r = await runCli(["doctor"], { cwd: tempProject(), env });
  expect(r.code).toBe(1);
  expect(r.stdout).toContain("sandbox: network.allowUnixSockets: not carried out by KHAELOR, ignored (its sandbox has no such setting)");
});

test("Claude Code's settings KHAELOR does not carry out are named on that file's line, as information", async () => {
  const env = isolatedEnv("http://127.0.0.1:9");
  const file = join(env.HOME!, ".claude", "settings.json");
  mkdirSync(join(env.HOME!, ".claude"), { recursive: true });
  writeFileSync(file, JSON.stringify({ outputStyle: "Explanatory", includeCoAuthoredBy: false, extraKnownMarketplaces: {}, permissions: { allow: ["Bash(ls)"] } }));
  const r = await runCli(["doctor"], { cwd: tempProject(), env });
  expect(r.code).toBe(0);
  const line = r.stdout.split("\n").find((l) => l.includes(file)) ?? "(no line for the file)";
  expect(line).toContain("rules: allow Bash(ls)");
  expect(line).toContain("not carried out by KHAELOR: outputStyle, includeCoAuthoredBy, extraKnownMarketplaces");
});
