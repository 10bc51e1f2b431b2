// A hostile repository, model and machine, end to end with the real CLI: broken and special
// settings files, instruction files linked to secrets, escape sequences in the answer, secrets in
// outputs and prompts. Nothing may hang, leak or reach a terminal raw.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture, type ScenarioInput } from "../support/fake-api.ts";
import { isolatedEnv, runCli, tempProject } from "../support/cli.ts";
import { createPermissionEngine } from "../../src/permissions/index.ts";
import { ptyFixtures } from "../e2e/pty/harness.ts";
import { projectSessionsDir } from "../../src/session/paths.ts";
import { SPILL_RETENTION_DAYS } from "../../src/session/spill-retention.ts";

const serve = fakeApiFixture();
const BYPASS = ["--permission-mode", "bypassPermissions"];

function project(settings?: string | Buffer): string {
  const dir = tempProject("khaelor-hostile-");
  execFileSync("git", ["init", "-q", dir]);
  writeFileSync(join(dir, "victim.txt"), "keep me\n");
  if (settings !== undefined) {
    mkdirSync(join(dir, ".khaelor"), { recursive: true });
    writeFileSync(join(dir, ".khaelor", "settings.json"), settings);
  }
  return dir;
}

const rmVictim: ScenarioInput = { turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "rm victim.txt" } }] }, { content: [{ type: "text", text: "done" }] }] };

describe("rules that do not parse fail closed", () => {
  test.each([
    ['deny "Bash(rm:*"', '{"permissions":{"deny":["Bash(rm:*"]}}'],
    ['ask "Bash(rm *:*"', '{"permissions":{"ask":["Bash(rm *:*"]}}'],
    ["deny with an unknown tool", '{"permissions":{"deny":["Bassh(rm *)"]}}'],
    ["deny entry that is not a string", '{"permissions":{"deny":[42]}}'],
    ["not JSON at all", '{"permissions":{"deny":["Bash(rm *)"]'],
  ])("%s: print mode stops with exit 2, nothing runs, the problem is said once", async (_what, settings) => {
    const dir = project(settings);
    const server = await serve(rmVictim);
    const r = await runCli(["-p", "clean up", ...BYPASS], { cwd: dir, env: isolatedEnv(server.url) });
    expect(r.code).toBe(2);
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
    expect(server.requests.filter((q) => q.outcome === "served")).toHaveLength(0);
    const mentions = r.stderr.split("\n").filter((l) => l.includes("settings.json"));
    expect(mentions).toHaveLength(1);
    expect(r.stderr).toContain("stopped: a permission rule that cannot be read");
  });

  test("the app's engine asks for the tool a broken rule names, even in bypassPermissions; other tools are untouched", async () => {
    const dir = project('{"permissions":{"deny":["Bash(rm:*"]}}');
    const engine = await createPermissionEngine({ projectRoot: dir, mode: "bypassPermissions", home: dir, configHome: join(dir, "no-config") });
    const bash = engine.decide({ tool: "bash", input: { command: "rm victim.txt" }, cwd: dir });
    expect(bash.behavior).toBe("ask");
    expect(bash.reason).toContain('"Bash(rm:*"');
    expect(engine.decide({ tool: "read", input: { file_path: join(dir, "victim.txt") }, cwd: dir }).behavior).toBe("allow");
    const unknown = await createPermissionEngine({ projectRoot: project('{"permissions":{"deny":["Nope(x"]}}'), mode: "bypassPermissions", home: dir, configHome: join(dir, "no-config") });
    expect(unknown.decide({ tool: "read", input: { file_path: join(dir, "victim.txt") }, cwd: dir }).behavior).toBe("ask");
  });

  test("a settings file with a UTF-8 byte-order mark is read: its deny rule holds", async () => {
    const dir = project(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"permissions":{"deny":["Bash(rm *)"]}}')]));
    const server = await serve(rmVictim);
    const r = await runCli(["-p", "clean up", ...BYPASS], { cwd: dir, env: isolatedEnv(server.url) });
    expect(r.code).toBe(0);
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
    expect(r.stderr).toContain("[denied bash");
    expect(r.stderr).not.toContain("settings.json");
  });

  test.each(["fifo", "dev-zero"])("settings.json as a %s: a clear error at once, exit 2", async (kind) => {
    const dir = project();
    mkdirSync(join(dir, ".khaelor"));
    const file = join(dir, ".khaelor", "settings.json");
    if (kind === "fifo") execFileSync("mkfifo", [file]);
    else symlinkSync("/dev/zero", file);
    const server = await serve(rmVictim);
    const r = await runCli(["-p", "hi"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(kind === "fifo" ? /cannot read: it is a FIFO/ : /cannot read: it is a character device/);
  });
});

describe("instruction files", () => {
  test.each([
    ["AGENTS.md -> /proc/self/environ", "AGENTS.md", "/proc/self/environ"],
    ["CLAUDE.md -> a key outside the project", "CLAUDE.md", "outside"],
    ["AGENTS.md -> .env inside the project (a secret file)", "AGENTS.md", ".env"],
  ])("%s is skipped with a notice and never sent", async (_what, name, target) => {
    const dir = project();
    const outside = join(tempProject(), "id_rsa");
    writeFileSync(outside, "-----BEGIN OPENSSH PRIVATE KEY-----\nSECRET-KEY-BODY\n-----END OPENSSH PRIVATE KEY-----\n");
    writeFileSync(join(dir, ".env"), "TOKEN=SECRET-DOTENV-VALUE\n");
    symlinkSync(target === "outside" ? outside : target === ".env" ? join(dir, ".env") : target, join(dir, name));
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
    const r = await runCli(["-p", "hi"], { cwd: dir, env: isolatedEnv(server.url, { KHAELOR_PROBE_SECRET: "probe-value-123456" }) });
    expect(r.code).toBe(0);
    const body = JSON.stringify(server.requests.find((q) => q.outcome === "served")!.body);
    for (const leak of ["sk-ant-test-key-0123456789", "probe-value-123456", "SECRET-KEY-BODY", "SECRET-DOTENV-VALUE"]) expect(body).not.toContain(leak);
    expect(r.stderr).toContain(`instruction file ${join(dir, name)} skipped`);
  });

  test("a real AGENTS.md in the project is still read", async () => {
    const dir = project();
    writeFileSync(join(dir, "AGENTS.md"), "Use tabs, always.");
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
    await runCli(["-p", "hi"], { cwd: dir, env: isolatedEnv(server.url) });
    expect(JSON.stringify(server.requests.find((q) => q.outcome === "served")!.body)).toContain("Use tabs, always.");
  });
});

describe("secrets at rest", () => {
  test("spill files, the summary's title, history and `khaelor sessions` hold no secret; files 0600, directories 0700", async () => {
    const dir = project();
    const token = "ghp_0123456789abcdefghijABCDEFGHIJ0123";
    const jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: `seq 1 6000 | sed 's/$/ padding padding padding/'; printf 'Authorization: Bearer ${jwt}\\nSECRET_KEY_BASE=a8f3c0e2b9d14e7f0011\\n'; env` } }] },
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const env = isolatedEnv(server.url, { MY_SECRET_VALUE: "my-secret-value-42" });
    const r = await runCli(["-p", `use the token ${token} please`, ...BYPASS], { cwd: dir, env });
    expect(r.code).toBe(0);
    const data = env.KHAELOR_HOME!;
    const files: string[] = [];
    const walk = (d: string) => {
      expect(statSync(d).mode & 0o777).toBe(0o700);
      for (const n of readdirSync(d)) {
        const p = join(d, n);
        if (n === "shadow") continue; // git's own object store, inside a 0700 directory
        if (statSync(p).isDirectory()) walk(p);
        else files.push(p);
      }
    };
    walk(data);
    const spills = files.filter((f) => f.includes(".spill/"));
    expect(spills.length).toBeGreaterThan(0);
    for (const f of files) {
      expect(statSync(f).mode & 0o777).toBe(0o600);
      const text = readFileSync(f, "utf8");
      for (const leak of [token, jwt, "a8f3c0e2b9d14e7f0011", "my-secret-value-42", "sk-ant-test-key-0123456789"]) expect(text).not.toContain(leak);
    }
    const listing = await runCli(["sessions"], { cwd: dir, env });
    expect(listing.stdout).toContain("use the token [REDACTED]");
  });
});

describe("spill files go with their session", () => {
  test("a session's spill directory is removed once its log is past retention or gone; a live session's stays", async () => {
    const dir = project();
    const spillTurns = (): ScenarioInput => ({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "seq 1 6000 | sed 's/$/ padding padding padding/'" } }] }, { content: [{ type: "text", text: "done" }] }] });
    const env = isolatedEnv(null);
    const run = async () => {
      const server = await serve(spillTurns());
      expect((await runCli(["-p", "spill", ...BYPASS], { cwd: dir, env: { ...env, ANTHROPIC_BASE_URL: server.url } })).code).toBe(0);
    };
    await run();
    await run();
    await run();
    const sessions = projectSessionsDir(dir, env);
    const spills = () => readdirSync(sessions).filter((n) => n.endsWith(".spill")).sort();
    const [old, gone, fresh] = spills();
    expect(spills()).toHaveLength(3);
    // One log last touched past the retention, the other deleted by hand.
    const past = new Date(Date.now() - (SPILL_RETENTION_DAYS + 1) * 86_400_000);
    utimesSync(join(sessions, old!.replace(/\.spill$/, ".jsonl")), past, past);
    rmSync(join(sessions, gone!.replace(/\.spill$/, ".jsonl")));
    await run();
    const left = spills();
    expect(left).toHaveLength(2);
    expect(left).toContain(fresh!);
    expect(left).not.toContain(old!);
    expect(left).not.toContain(gone!);
  }, 60_000);
});

describe("escapes outside the TUI", () => {
  const hostile = "title\x1b]0;pwned\x07 clip\x1b]52;c;ZWNobyBoaQ==\x07 clear\x1b[2J bell\x07 c1\u009b31m end\n";

  test("print mode to a pipe stays byte-exact", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: hostile }] }] });
    const r = await runCli(["-p", "hi"], { cwd: project(), env: isolatedEnv(server.url) });
    expect(r.stdout).toBe(hostile);
  });

  const fx = ptyFixtures();
  test("print mode to a terminal shows the controls instead of obeying them; so do notices quoting settings", async () => {
    const api = await fx.api({ turns: [{ content: [{ type: "text", text: hostile }] }] });
    const dir = project('{"permissions":{"allow":["Bash(\\u001b]0;evil\\u0007"]}}');
    const s = fx.pty(["-p", "hi"], { cwd: dir, env: isolatedEnv(api.url) });
    expect(await s.exited).toBe(0);
    const out = s.output();
    expect(out).toContain("␛]52;c;ZWNobyBoaQ==␇");
    expect(out).toContain("␛]0;evil␇");
    for (const raw of ["\x1b]52", "\x1b]0;", "\x1b[2J", "\x07", "\u009b"]) expect(out).not.toContain(raw);
  });

  describe("`khaelor sessions` with a title full of controls", () => {
    // The title is the first prompt: what a pasted text or a script passing -p can hold.
    const title = "fix\x1b]0;pwned\x07 clip\x1b]52;c;ZWNobyBoaQ==\x07 clear\x1b[2J c1\u009b31m end";
    async function sessionTitled(): Promise<{ dir: string; env: Record<string, string> }> {
      const dir = project();
      const api = await serve({ turns: [{ content: [{ type: "text", text: "ok" }] }] });
      const env = isolatedEnv(api.url);
      expect((await runCli(["-p", title], { cwd: dir, env })).code).toBe(0);
      return { dir, env };
    }

    test("piped, the listing is byte-exact: the title as it was typed", async () => {
      const { dir, env } = await sessionTitled();
      const r = await runCli(["sessions"], { cwd: dir, env });
      expect(r.code).toBe(0);
      const lines = r.stdout.split("\n").filter(Boolean);
      expect(lines).toHaveLength(1);
      expect(lines[0]!.endsWith(`  ${title}`)).toBe(true);
      const json = await runCli(["sessions", "--json"], { cwd: dir, env });
      expect((JSON.parse(json.stdout) as Array<{ title: string }>)[0]!.title).toBe(title);
    });

    test("on a terminal, each control shows as a stand-in and none is obeyed", async () => {
      const { dir, env } = await sessionTitled();
      const s = fx.pty(["sessions"], { cwd: dir, env });
      expect(await s.exited).toBe(0);
      const out = s.output();
      expect(out).toContain("fix␛]0;pwned␇ clip␛]52;c;ZWNobyBoaQ==␇ clear␛[2J");
      for (const raw of ["\x1b]52", "\x1b]0;", "\x1b[2J", "\x07", "\u009b"]) expect(out).not.toContain(raw);
      // The screen shows the whole title on the session's line: nothing was cleared or swallowed.
      expect(s.screen()).toContain("clip␛]52;c;ZWNobyBoaQ==␇");
    });
  });
});
