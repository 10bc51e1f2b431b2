// Places KHAELOR cannot write get one sentence naming the path and what to do, never a stack
// trace: a read-only (immutable) log, an append-only log (which still resumes), a read-only
// session directory, KHAELOR_HOME pointing at a file, a read-only HOME. The real CLI; chattr and
// read-only mounts on a real tmpfs (root, as in CI: root ignores chmod, not these).
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseEventLine } from "../../src/events/schema.ts";
import { startFakeApi } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { smallFs } from "../support/small-fs.ts";

const fs = smallFs("4m");
const chattr = (flag: string, path: string) => Bun.spawnSync(["chattr", flag, path]).exitCode === 0;
const undo: Array<() => void> = [];
afterAll(() => {
  for (const u of undo.reverse()) u();
});

const reply = (t: string) => ({ turns: [{ content: [{ type: "text" as const, text: t }] }] });

/** A project with one finished session whose data lives on the tmpfs. */
async function withSession(name: string) {
  const api = await startFakeApi({ scenario: reply("FIRST") });
  const env = isolatedEnv(api.url);
  env.KHAELOR_HOME = join(fs!.dir, name);
  mkdirSync(env.KHAELOR_HOME, { recursive: true });
  const cwd = tempProject();
  const r = await runCli(["-p", "first", "--output-format", "stream-json"], { cwd, env });
  await api.close();
  expect(r.code).toBe(0);
  const id = String(parseNdjson(r.stdout).at(-1)!.session_id);
  const dir = join(env.KHAELOR_HOME, "sessions");
  const project = Bun.spawnSync(["ls", dir]).stdout.toString().trim();
  return { env, cwd, id, log: join(dir, project, `${id}.jsonl`) };
}

async function resume(s: { env: Record<string, string>; cwd: string; id: string }, extra: string[] = []) {
  const api = await startFakeApi({ scenario: reply("RESUMED") });
  try {
    return await runCli(["-p", "--resume", s.id, ...extra, "again"], { cwd: s.cwd, env: { ...s.env, ANTHROPIC_BASE_URL: api.url } });
  } finally {
    await api.close();
  }
}

const oneSentence = (stderr: string) => {
  expect(stderr).not.toContain("    at ");
  expect(stderr.trim().split("\n").filter((l) => l.startsWith("khaelor: ")).length).toBeGreaterThan(0);
};

describe.skipIf(!fs || !chattr("-a", fs?.dir ?? "/"))("unwritable places", () => {
  test("an append-only log still resumes; a torn tail is copied to .torn and the log goes on from a clean line", async () => {
    const s = await withSession("append-only");
    appendFileSync(s.log, '{"v":1,"type":"assistant_mess');
    expect(chattr("+a", s.log)).toBe(true);
    undo.push(() => chattr("-a", s.log));
    const r = await resume(s);
    expect(r.stderr).not.toContain("    at ");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("RESUMED");
    expect(readFileSync(`${s.log}.torn`, "utf8")).toBe('{"v":1,"type":"assistant_mess\n');
    const lines = readFileSync(s.log, "utf8").split("\n");
    const bad = lines.filter((l) => l && (() => { try { parseEventLine(l); return false; } catch { return true; } })());
    // The torn line cannot be cut from an append-only file: it stays, alone on its line, and is skipped.
    expect(bad).toEqual(['{"v":1,"type":"assistant_mess']);
    expect(lines.filter((l) => l.includes('"content":"again"')).length).toBe(1);
  });

  test("a read-only (immutable) log: one sentence naming it, with --fork-session as the way on, which works", async () => {
    const s = await withSession("immutable");
    expect(chattr("+i", s.log)).toBe(true);
    undo.push(() => chattr("-i", s.log));
    const before = readFileSync(s.log, "utf8");
    const r = await resume(s);
    expect(r.code).toBe(1);
    oneSentence(r.stderr);
    expect(r.stderr).toContain(`its log ${s.log} is read-only`);
    expect(r.stderr).toContain("--fork-session");
    const forked = await resume(s, ["--fork-session"]);
    expect(forked.code).toBe(0);
    expect(forked.stdout).toContain("RESUMED");
    expect(readFileSync(s.log, "utf8")).toBe(before);
  });

  test("a read-only session directory: resuming and starting name the directory", async () => {
    const s = await withSession("ro-dir");
    const dir = dirname(s.log);
    expect(chattr("+i", dir)).toBe(true);
    undo.push(() => chattr("-i", dir));
    const r = await resume(s);
    expect(r.code).toBe(1);
    oneSentence(r.stderr);
    expect(r.stderr).toContain(`its directory ${dir} is not writable`);
    const api = await startFakeApi({ scenario: reply("NEW") });
    const fresh = await runCli(["-p", "new one"], { cwd: s.cwd, env: { ...s.env, ANTHROPIC_BASE_URL: api.url } });
    await api.close();
    expect(fresh.code).toBe(1);
    oneSentence(fresh.stderr);
    expect(fresh.stderr).toContain(`cannot write the session directory ${dir}`);
  });

  test("KHAELOR_HOME pointing at a file", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "khaelor-homefile-")), "data");
    writeFileSync(file, "not a directory");
    const env = isolatedEnv("http://127.0.0.1:9", { KHAELOR_HOME: file });
    const r = await runCli(["-p", "hi"], { cwd: tempProject(), env });
    expect(r.code).toBe(1);
    oneSentence(r.stderr);
    expect(r.stderr).toContain(`${file} is a file, not a directory`);
    expect(r.stderr).toContain("KHAELOR_HOME");
  });

  test("a read-only HOME (data under ~/.local/share)", async () => {
    const home = join(fs!.dir, "ro-home");
    mkdirSync(home);
    const ro = Bun.spawnSync(["mount", "--bind", "-o", "ro", home, home]).exitCode === 0 && Bun.spawnSync(["mount", "-o", "remount,bind,ro", home]).exitCode === 0;
    expect(ro).toBe(true);
    undo.push(() => Bun.spawnSync(["umount", home]));
    const env = isolatedEnv("http://127.0.0.1:9");
    env.HOME = home;
    delete (env as Record<string, string | undefined>).KHAELOR_HOME;
    const r = await runCli(["-p", "hi"], { cwd: tempProject(), env });
    expect(r.code).toBe(1);
    oneSentence(r.stderr);
    expect(r.stderr).toContain(`cannot write the session directory ${home}/.local/share/khaelor/sessions/`);
    expect(r.stderr).toContain("the file system is read-only");
    expect(r.stderr).toContain("set KHAELOR_HOME");
  });
});
