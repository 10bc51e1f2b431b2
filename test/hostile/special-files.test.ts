// Special files a hostile repository (or machine) can put where KHAELOR reads: a FIFO, whose open
// blocks the whole process, /dev/zero, which never ends, links to either, a directory, a file far
// over any sane size. Every path that opens a file for its content must come back at once with a
// clear answer. Each case runs in a child with a deadline, so a regression fails instead of hanging.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileReadError, readRegularFile, readRegularText } from "../../src/workspace/safe-read.ts";

const PROBE = join(import.meta.dir, "probe.ts");
/** A guard against a hang, far above the milliseconds these take; not a timing assertion. */
const DEADLINE_MS = 20_000;

type Kind = "fifo" | "link-to-fifo" | "dev-zero" | "link-to-dev-zero" | "directory" | "huge-sparse";
const KINDS: Kind[] = ["fifo", "link-to-fifo", "dev-zero", "link-to-dev-zero", "directory", "huge-sparse"];

/** Makes `path` the special thing `kind` names. */
function plant(path: string, kind: Kind): void {
  mkdirSync(join(path, ".."), { recursive: true });
  const spare = mkdtempSync(join(tmpdir(), "khaelor-special-"));
  switch (kind) {
    case "fifo":
      execFileSync("mkfifo", [path]);
      break;
    case "link-to-fifo":
      execFileSync("mkfifo", [join(spare, "pipe")]);
      symlinkSync(join(spare, "pipe"), path);
      break;
    case "dev-zero":
    case "link-to-dev-zero":
      symlinkSync("/dev/zero", path);
      break;
    case "directory":
      mkdirSync(path);
      break;
    case "huge-sparse":
      // 8 GB that costs no disk: a size cap must refuse it before reading.
      execFileSync("truncate", ["-s", "8G", path]);
      break;
  }
}

async function probe(what: string, path: string, extra?: string): Promise<{ result: any; ms: number }> {
  const proc = Bun.spawn([process.execPath, PROBE, what, path, ...(extra ? [extra] : [])], { stdout: "pipe", stderr: "pipe", timeout: DEADLINE_MS, killSignal: "SIGKILL" });
  const [out, err, code] = await Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
  if (code !== 0) throw new Error(`probe ${what} ${path} ended with ${code ?? proc.signalCode} (hung or crashed): ${err.slice(-400)}`);
  return JSON.parse(out);
}

const project = () => mkdtempSync(join(tmpdir(), "khaelor-hostile-"));

describe("the checked read", () => {
  test.each(KINDS.filter((k) => k !== "fifo" && k !== "link-to-fifo"))("%s: a clear error naming what it is", (kind) => {
    const path = join(project(), "target");
    plant(path, kind);
    let err: unknown;
    try {
      readRegularFile(path, { maxBytes: 1024 * 1024 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FileReadError);
    const e = err as FileReadError;
    expect(e.code).toBe(kind === "huge-sparse" ? "EFBIG" : "ENOTREG");
    expect(e.message).toContain(path);
    expect(e.reason).toMatch(kind === "huge-sparse" ? /8\.0 GB, over the 1\.0 MB limit/ : kind === "directory" ? /a directory, not a regular file/ : /a character device, not a regular file/);
  });

  test("a file under /proc (size 0 on stat) is read to its end, never past the cap", () => {
    const whole = readRegularFile("/proc/self/status", { maxBytes: 1024 * 1024 });
    expect(whole.bytes.toString()).toContain("Pid:");
    expect(() => readRegularFile("/proc/self/status", { maxBytes: 16 })).toThrow(/over the 16 bytes limit/);
    const cut = readRegularFile("/proc/self/status", { maxBytes: 16, truncate: true });
    expect(cut.truncated).toBe(true);
    expect(cut.bytes.length).toBe(16);
  });

  test("a regular file within the cap comes back whole; a UTF-8 BOM is dropped from text", () => {
    const path = join(project(), "f.json");
    writeFileSync(path, "\uFEFF{\"a\":1}");
    expect(readRegularText(path, 100)).toBe('{"a":1}');
    expect(readRegularFile(path, { maxBytes: 10 }).bytes.length).toBe(10);
  });
});

test("a hook in a settings file with a byte-order mark is read", async () => {
  const file = join(project(), "settings.json");
  writeFileSync(file, "\uFEFF" + JSON.stringify({ hooks: { Stop: [{ hooks: [{ type: "command", command: "echo stop" }] }] } }));
  const { result } = await probe("hooks", file);
  expect(result.problems).toEqual([]);
  expect(result.entries).toHaveLength(1);
});

describe("every reader answers at once for a special file", () => {
  for (const kind of KINDS) {
    test(`read tool: ${kind}`, async () => {
      const dir = project();
      const path = join(dir, "data.txt");
      plant(path, kind);
      const { result } = await probe("read-tool", path);
      expect(result.isError).toBe(true);
      expect(result.text).toMatch(kind === "directory" ? /is a directory/ : kind === "huge-sparse" ? /8192 MB, too large to read whole/ : /not a regular file/);
    });

    test(`edit and write tools: ${kind}`, async () => {
      const dir = project();
      const path = join(dir, "data.txt");
      plant(path, kind);
      for (const tool of ["edit-tool", "write-tool"]) {
        const { result } = await probe(tool, path);
        expect(result.isError).toBe(true);
      }
    });

    test(`settings file (.khaelor/settings.json): ${kind}`, async () => {
      const dir = project();
      const path = join(dir, ".khaelor", "settings.json");
      plant(path, kind);
      const { result } = await probe("settings-file", path);
      expect(result.rules).toEqual([]);
      expect(result.problems).toHaveLength(1);
      expect(result.problems[0].message).toMatch(kind === "huge-sparse" ? /cannot read: it is 8\.0 GB, over the 4\.0 MB limit/ : /cannot read: it is .*not a regular file/);
      // The composition root's own settings pass over the same file without a second report.
      const cfg = await probe("config", dir);
      expect(cfg.result).toEqual({ settings: {}, problems: [], userEnv: {}, projectEnv: [] });
    });

    test(`instruction file (AGENTS.md, CLAUDE.md, the user's AGENTS.md): ${kind}`, async () => {
      const dir = project();
      writeFileSync(join(dir, "AGENTS.md"), "real instructions");
      plant(join(dir, "CLAUDE.md"), kind);
      const config = join(dir, "cfg");
      plant(join(config, "AGENTS.md"), kind);
      const { result } = await probe("instructions", dir, config);
      expect(result.map((i: { content: string }) => i.content)).toEqual(["real instructions"]);
    });

    test(`skills (.claude/skills/*/SKILL.md) and custom commands (.claude/commands/*.md): ${kind}`, async () => {
      const dir = project();
      const skills = join(dir, ".claude", "skills");
      mkdirSync(join(skills, "good"), { recursive: true });
      writeFileSync(join(skills, "good", "SKILL.md"), "---\nname: good\ndescription: a real skill\n---\nbody");
      plant(join(skills, "evil", "SKILL.md"), kind);
      const s = (await probe("skills", skills)).result;
      expect(s.skills.map((k: { name: string }) => k.name)).toEqual(["good"]);
      if (kind !== "directory") expect(s.problems).toEqual([expect.stringMatching(/cannot read .*evil\/SKILL\.md: it is .*; the skill is not offered/)]);
      const commands = join(dir, ".claude", "commands");
      mkdirSync(commands, { recursive: true });
      writeFileSync(join(commands, "good.md"), "a real command");
      plant(join(commands, "evil.md"), kind);
      const c = (await probe("commands", commands)).result;
      expect(c.commands.map((k: { name: string }) => k.name)).toEqual(["good"]);
    });

    test(`hooks in a settings file: ${kind}`, async () => {
      const dir = project();
      const file = join(dir, ".khaelor", "settings.json");
      plant(file, kind);
      // The settings loader reports the file; the hooks loader passes over it without blocking.
      expect((await probe("hooks", file)).result).toEqual({ entries: [], problems: [] });
    });

    test(`prompt history and session log: ${kind}`, async () => {
      const dir = project();
      plant(join(dir, "h.jsonl"), kind);
      expect((await probe("history", join(dir, "h.jsonl"))).result).toEqual([]);
      plant(join(dir, "s.jsonl"), kind);
      expect((await probe("session-log", join(dir, "s.jsonl"))).result.thrown).toMatch(/cannot read .*s\.jsonl/);
    });
  }
});
