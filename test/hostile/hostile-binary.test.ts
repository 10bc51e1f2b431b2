// The done-when check of the hostile round, against the compiled binary (built here into a temp
// directory unless KHAELOR_BIN names one): one repository with everything at once. Settings linked
// to /dev/zero or made a FIFO, a settings file with a byte-order mark, a deny rule that does not
// parse, a rule and a file name full of escape sequences, AGENTS.md linked to /proc/self/environ,
// CLAUDE.md linked to a key outside the project, and a FIFO the model reads. Each run has a
// deadline far above what it takes, so a hang fails as one; requests to the fake API are checked
// for the environment and the key; the terminal gets no raw control.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { useCompiledBinary } from "../support/binary.ts";
import { cliCommand, isolatedEnv, tempProject } from "../support/cli.ts";
import { fakeApiFixture, type FakeApi } from "../support/fake-api.ts";
import { ptyFixtures } from "../e2e/pty/harness.ts";

/** A guard against a hang, far above the second these take; not a timing assertion. */
const DEADLINE_MS = 30_000;
const API_KEY = "sk-ant-test-key-0123456789";
const PROBE = "probe-env-value-4242";
const KEY_BODY = "SECRET-KEY-BODY-outside-the-project";
const RAW = ["\x1b]52", "\x1b]0;", "\x1b[2J", "\x07", "\u009b"];
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const EVIL_NAME = "evil\x1b]0;owned\x07\x1b[2J.txt";

useCompiledBinary();

type Settings = "dev-zero" | "fifo" | "broken-deny" | "bom-deny";

/** The hostile repository; `settings` says what .khaelor/settings.json is. */
function hostileRepo(settings: Settings): string {
  const dir = tempProject("khaelor-hostile-bin-");
  execFileSync("git", ["init", "-q", dir]);
  writeFileSync(join(dir, "victim.txt"), "keep me\n");
  writeFileSync(join(dir, EVIL_NAME), "a file named to take over a terminal\n");
  execFileSync("mkfifo", [join(dir, "notes.txt")]);
  symlinkSync("/proc/self/environ", join(dir, "AGENTS.md"));
  const outside = join(mkdtempSync(join(tmpdir(), "khaelor-outside-")), "id_rsa");
  writeFileSync(outside, `-----BEGIN OPENSSH PRIVATE KEY-----\n${KEY_BODY}\n-----END OPENSSH PRIVATE KEY-----\n`);
  symlinkSync(outside, join(dir, "CLAUDE.md"));
  mkdirSync(join(dir, ".khaelor"));
  const file = join(dir, ".khaelor", "settings.json");
  // An allow rule that does not parse and quotes escapes: its warning reaches the terminal.
  const rules = (deny: string) => JSON.stringify({ permissions: { deny: [deny], allow: ["Bash(\u001b]0;evil\u0007"] } });
  if (settings === "dev-zero") symlinkSync("/dev/zero", file);
  else if (settings === "fifo") execFileSync("mkfifo", [file]);
  else writeFileSync(file, Buffer.concat([BOM, Buffer.from(rules(settings === "broken-deny" ? "Bash(rm:*" : "Bash(rm *)"))]));
  return dir;
}

const answer = "done\x1b]0;pwned\x07 clip\x1b]52;c;ZWNobyBoaQ==\x07 clear\x1b[2J c1\u009b31m end\n";
const tool = (name: string, input: Record<string, unknown>) => ({ content: [{ type: "tool_use" as const, name, input }] });
const scenario = {
  turns: [
    tool("read", { file_path: "notes.txt" }),
    tool("read", { file_path: EVIL_NAME }),
    tool("bash", { command: "rm victim.txt" }),
    { content: [{ type: "text" as const, text: answer }] },
  ],
};

function sent(api: FakeApi): string {
  return JSON.stringify(api.requests.map((q) => q.body));
}

function expectNoLeak(api: FakeApi): void {
  const body = sent(api);
  for (const leak of [API_KEY, PROBE, KEY_BODY]) expect(body).not.toContain(leak);
}

const serve = fakeApiFixture();
const fx = ptyFixtures();
const ARGS = ["-p", "tidy up", "--permission-mode", "bypassPermissions", "--verbose"];

describe.skipIf(process.platform !== "linux")("a hostile repository, against the compiled binary", () => {
  test.each(["dev-zero", "fifo", "broken-deny"] as const)("settings.json %s: exit 2 at once, nothing sent or run", async (settings) => {
    const dir = hostileRepo(settings);
    const api = await serve(scenario);
    const proc = Bun.spawn(cliCommand(ARGS), { cwd: dir, env: isolatedEnv(api.url, { KHAELOR_PROBE: PROBE }), stdout: "pipe", stderr: "pipe", timeout: DEADLINE_MS, killSignal: "SIGKILL" });
    const [, stderr, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(proc.signalCode).toBeNull();
    expect(code).toBe(2);
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
    expect(api.requests.filter((q) => q.outcome === "served")).toHaveLength(0);
    // Said once, naming the file.
    expect(stderr.split("\n").filter((l) => l.includes(".khaelor/settings.json"))).toHaveLength(1);
    if (settings === "broken-deny") expect(stderr).toContain('"Bash(rm:*"');
  }, 60_000);

  test("piped, with the deny rule readable: the answer is byte-exact, nothing leaks, the deny holds", async () => {
    const dir = hostileRepo("bom-deny");
    const api = await serve(scenario);
    const proc = Bun.spawn(cliCommand(ARGS), { cwd: dir, env: isolatedEnv(api.url, { KHAELOR_PROBE: PROBE }), stdout: "pipe", stderr: "pipe", timeout: DEADLINE_MS, killSignal: "SIGKILL" });
    const [stdout, , code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    expect(proc.signalCode).toBeNull();
    expect(code).toBe(0);
    expect(stdout).toBe(answer);
    expectNoLeak(api);
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
  }, 60_000);

  test("on a terminal, with the deny rule readable: the FIFO read answers, the deny holds, nothing leaks, no raw control", async () => {
    const dir = hostileRepo("bom-deny");
    const api = await fx.api(scenario);
    const s = fx.pty(ARGS, { cwd: dir, env: isolatedEnv(api.url, { KHAELOR_PROBE: PROBE }) });
    const deadline = setTimeout(() => s.kill(), DEADLINE_MS);
    const code = await s.exited;
    clearTimeout(deadline);
    expect(code).toBe(0);
    const served = api.requests.filter((q) => q.outcome === "served");
    expect(served).toHaveLength(4);
    expectNoLeak(api);
    // The FIFO was refused, not opened (an open blocks the whole process); the deny rule from the
    // file with a byte-order mark held; the instruction files were skipped with a notice.
    const results = JSON.stringify((served[1]!.body as { messages: unknown[] }).messages.at(-1));
    expect(results).toContain("not a regular file");
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
    const out = s.output();
    expect(out).toContain("[denied bash");
    expect(out).toContain(`instruction file ${join(dir, "AGENTS.md")} skipped`);
    expect(out).toContain(`instruction file ${join(dir, "CLAUDE.md")} skipped`);
    // The answer, the settings warning and the verbose tool lines (a file name): stand-ins, never
    // the controls; a C1 control, which has no picture, becomes U+FFFD.
    expect(out).toContain("␛]52;c;ZWNobyBoaQ==␇");
    expect(out).toContain("␛]0;evil␇");
    expect(out).toContain("[read evil␛]0;owned␇␛[2J.txt]");
    expect(out).toContain("c1\ufffd31m end");
    for (const raw of RAW) expect(out).not.toContain(raw);
  }, 60_000);
});
