// The sandbox's decisions as data: a project's settings only tighten, the gate's answers with the
// sandbox on, off and unavailable, and the macOS Seatbelt profile (sandbox-exec cannot run on
// Linux, so the profile is checked as text here; it has not been run on a Mac in this suite).
import { describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxGate } from "../../src/agent/sandbox-gate.ts";
import { bashTool } from "../../src/tools/bash.ts";
import { callFacts } from "../../src/tools/facts.ts";
import { openSandbox } from "../../src/sandbox/sandbox.ts";
import { seatbeltProfile } from "../../src/sandbox/seatbelt.ts";
import { matchReadGlobs } from "../../src/sandbox/read-globs.ts";
import { planFilesystem } from "../../src/sandbox/fs-plan.ts";
import { DEFAULT_SANDBOX, domainAllowed, mergeSandboxSettings } from "../../src/sandbox/settings.ts";
import type { Decision } from "../../src/permissions/index.ts";

describe("settings", () => {
  test("a project's file may turn the sandbox on and deny more, never widen it", () => {
    const { settings, problems } = mergeSandboxSettings([
      { file: "user.json", scope: "user", json: { sandbox: { enabled: false, network: { allowedDomains: ["github.com"] } } } },
      { file: "proj.json", scope: "project", json: { sandbox: { enabled: true, autoAllowBashIfSandboxed: true, excludedCommands: ["docker"], network: { allowedDomains: ["evil.example"], deniedDomains: ["gist.github.com"] }, filesystem: { allowWrite: ["~"], denyRead: ["./secrets"] } } } },
    ]);
    expect(settings.enabled).toBe(true);
    expect(settings.allowedDomains).toEqual(["github.com"]);
    expect(settings.excludedCommands).toEqual([]);
    expect(settings.allowWrite).toEqual([]);
    expect(settings.denyRead).toEqual(["./secrets"]);
    expect(problems.join("\n")).toContain("excludedCommands, network.allowedDomains, filesystem.allowWrite ignored");
    expect(domainAllowed(settings, "github.com")).toBe(true);
    expect(domainAllowed({ allowedDomains: ["*.github.com"], deniedDomains: ["gist.github.com"] }, "gist.github.com")).toBe(false);
    expect(domainAllowed({ allowedDomains: ["*.github.com"], deniedDomains: [] }, "api.github.com")).toBe(true);
    expect(domainAllowed({ allowedDomains: ["*.github.com"], deniedDomains: [] }, "github.com")).toBe(false);
  });

  test("a key KHAELOR does not carry out is named, never silently ignored; what it does carry out still holds", () => {
    const { settings, problems } = mergeSandboxSettings([
      {
        file: "user.json",
        scope: "user",
        json: { sandbox: { enabled: true, ignoreViolations: { "*": ["/tmp"] }, enableWeakerNestedSandbox: true, network: { allowedDomains: ["github.com"], allowUnixSockets: ["/var/run/docker.sock"], httpProxyPort: 8080 }, filesystem: { denyRead: ["~/x"], alowWrite: ["/"] } } },
      },
      { file: "proj.json", scope: "project", json: { sandbox: { allowLocalBinding: true } } },
    ]);
    expect(settings.enabled).toBe(true);
    expect(settings.allowedDomains).toEqual(["github.com"]);
    expect(settings.denyRead).toEqual(["~/x"]);
    expect(problems).toEqual([
      "user.json: sandbox: ignoreViolations, enableWeakerNestedSandbox, network.allowUnixSockets, network.httpProxyPort, filesystem.alowWrite: not carried out by KHAELOR, ignored (its sandbox has no such setting)",
      "proj.json: sandbox: allowLocalBinding: not carried out by KHAELOR, ignored (its sandbox has no such setting)",
    ]);
  });

  test("a project cannot turn the sandbox off or let commands out", () => {
    const { settings } = mergeSandboxSettings([
      { file: "u", scope: "user", json: { sandbox: { enabled: true, allowUnsandboxedCommands: false } } },
      { file: "p", scope: "local", json: { sandbox: { enabled: false, allowUnsandboxedCommands: true, failIfUnavailable: true } } },
    ]);
    expect(settings.enabled).toBe(true);
    expect(settings.allowUnsandboxedCommands).toBe(false);
    expect(settings.failIfUnavailable).toBe(true);
  });
});

const ask: Decision = { behavior: "ask", reason: "runs npm", source: "mode:default" };
// The facts the bash tool gives of such a call: what the gate reads.
const bash = (command: string, extra: object = {}) => callFacts(bashTool, "bash", { command, ...extra }, "/");
const on = () => ({ ok: true as const, enforcer: "bubblewrap" as const, socat: true, warnings: [] });
const missing = () => ({ ok: false as const, why: "bubblewrap (bwrap) is not on PATH", install: "apt-get install bubblewrap socat" });

describe("the gate with the sandbox", () => {
  test("on: a confined command runs unasked; configured asks, denies and excluded commands keep their answer", async () => {
    const sb = await openSandbox({ root: mkdtempSync(join(tmpdir(), "khaelor-sbp-")), settings: { ...DEFAULT_SANDBOX, enabled: true, excludedCommands: ["docker"] }, probe: on });
    const g = sandboxGate(sb);
    expect(g.decide(bash("npm test"), ask)).toMatchObject({ behavior: "allow", source: "sandbox" });
    expect(g.decide(bash("npm publish"), { behavior: "ask", reason: "asked by rule", source: "user:Bash(npm publish)" }).behavior).toBe("ask");
    expect(g.decide(bash("rm -rf /"), { behavior: "deny", reason: "hardline", source: "hardline" }).behavior).toBe("deny");
    expect(g.decide(bash("docker ps"), ask).behavior).toBe("ask");
    expect(g.decide(bash("npm test", { dangerouslyDisableSandbox: true }), { behavior: "allow", reason: "read-only", source: "read-only" }).behavior).toBe("ask");
    expect(g.decide(bash("npm test", { dangerouslyDisableSandbox: true }), { behavior: "allow", reason: "rule", source: "user:Bash(npm test)" }).behavior).toBe("allow");
    await sb.close();
  });

  test("autoAllowBashIfSandboxed false: commands ask as the rules say", async () => {
    const sb = await openSandbox({ root: tmpdir(), settings: { ...DEFAULT_SANDBOX, enabled: true, autoAllowBashIfSandboxed: false }, probe: on });
    expect(sandboxGate(sb).decide(bash("npm test"), ask).behavior).toBe("ask");
  });

  test("allowUnsandboxedCommands false: a command never runs outside", async () => {
    const sb = await openSandbox({ root: tmpdir(), settings: { ...DEFAULT_SANDBOX, enabled: true, allowUnsandboxedCommands: false }, probe: on });
    expect(sandboxGate(sb).decide(bash("ls", { dangerouslyDisableSandbox: true }), { behavior: "allow", reason: "rule", source: "user:Bash(ls)" }).behavior).toBe("deny");
  });

  test("unavailable: failIfUnavailable refuses with what to install; without it, commands ask as before and nothing claims confinement", async () => {
    const strict = await openSandbox({ root: tmpdir(), settings: { ...DEFAULT_SANDBOX, enabled: true, failIfUnavailable: true }, probe: missing });
    const d = sandboxGate(strict).decide(bash("ls"), ask);
    expect(d.behavior).toBe("deny");
    expect(d.reason).toContain("apt-get install bubblewrap");
    expect(strict.label()).toBe("sandbox unavailable: commands refused");
    const loose = await openSandbox({ root: tmpdir(), settings: { ...DEFAULT_SANDBOX, enabled: true }, probe: missing });
    expect(sandboxGate(loose).decide(bash("npm test"), ask).behavior).toBe("ask");
    expect(loose.wrap(["bash", "-c", "true"], { cwd: tmpdir(), pty: false, line: "true" })).toBeNull();
    expect(loose.label()).toBe("sandbox unavailable: asking");
  });
});

describe("Seatbelt profile (macOS)", () => {
  test("denies by default, writes only below the writable trees less the protected ones, hides credentials, network only to the proxy", () => {
    const p = seatbeltProfile({ writable: ["/Users/a/proj", "/private/tmp"], readOnly: ["/Users/a/proj/.git/hooks"], blockCreate: ["/Users/a/proj/.claude"], denyRead: ["/Users/a/.ssh"], unenforced: [] }, { proxyPort: 40123 });
    expect(p.startsWith("(version 1)\n(deny default)\n")).toBe(true);
    expect(p).toContain('(allow file-write* (subpath "/Users/a/proj") (subpath "/private/tmp"))');
    expect(p).toContain('(deny file-write* (subpath "/Users/a/proj/.git/hooks") (subpath "/Users/a/proj/.claude"))');
    expect(p).toContain('(deny file-read* (subpath "/Users/a/.ssh"))');
    expect(p).toContain('(allow network-outbound (remote tcp "localhost:40123"))');
    expect(p).not.toContain("mDNSResponder");
    // The deny of the protected paths comes after the allow: in SBPL the last matching rule wins.
    expect(p.indexOf("(deny file-write*")).toBeGreaterThan(p.indexOf("(allow file-write*"));
    expect(seatbeltProfile({ writable: ['/a"b'], readOnly: [], blockCreate: [], denyRead: [], unenforced: [] }, { proxyPort: null })).toContain('(subpath "/a\\"b")');
    expect(seatbeltProfile({ writable: [], readOnly: [], blockCreate: [], denyRead: [], unenforced: [] }, { proxyPort: null })).not.toContain("network-outbound (remote tcp");
  });
});

describe("Read deny globs in the plan", () => {
  const project = () => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-globs-"));
    for (const d of ["a/b", "node_modules/x", ".git"]) mkdirSync(join(dir, d), { recursive: true });
    for (const f of [".env", "a/b/.env", "a/key.pem", "a/b/notes.txt", "node_modules/x/.env", ".git/.env"]) writeFileSync(join(dir, f), "x");
    return dir;
  };

  test("a name matches at any depth, a path from the root; .git and node_modules are not entered", () => {
    const dir = project();
    expect(matchReadGlobs(dir, ["**/.env", "*.pem"]).paths.map((p) => p.slice(dir.length + 1)).sort()).toEqual([".env", "a/b/.env", "a/key.pem"]);
    expect(matchReadGlobs(dir, ["a/*.pem"]).paths.map((p) => p.slice(dir.length + 1))).toEqual(["a/key.pem"]);
  });

  test("a walk cut short says so, and the plan lists the rule as not (fully) enforced; a home-wide glob is not walked", () => {
    const dir = project();
    expect(matchReadGlobs(dir, ["**/.env"], 2).partial).toEqual(["**/.env"]);
    mkdirSync(join(dir, "home"));
    const plan = planFilesystem({ root: dir, home: join(dir, "home"), settings: { allowWrite: [], denyWrite: [], denyRead: [] }, readDenyRules: ["**/.env", "~/**/*.key"] });
    expect(plan.denyRead).toContain(join(dir, "a/b/.env"));
    expect(plan.unenforced).toEqual(["~/**/*.key"]);
    // Not all of home (it was: node, toolchains and caches there would vanish inside).
    expect(plan.denyRead).not.toContain(join(dir, "home"));
    const below = planFilesystem({ root: dir, home: dir, settings: { allowWrite: [], denyWrite: [], denyRead: [] }, readDenyRules: ["./a/*.pem", "./a/b/**"] });
    expect(below.denyRead).toEqual(expect.arrayContaining([join(dir, "a/key.pem"), join(dir, "a/b")]));
  });
});
