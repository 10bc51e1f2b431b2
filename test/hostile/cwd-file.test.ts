// The bash tool learns where a command left the shell from a file the shell writes at exit. In the
// shared $TMPDIR under a predictable name (khaelor-cwd-<pid>-<n>-…), another local user could plant
// it first and move the agent into a folder of theirs. The real CLI, with a TMPDIR of the test's
// own full of planted candidates (files, links, directories, for the pids it will likely get): the
// working directory moves only where the command itself went, and the file lives in a private
// 0700 directory with a random name, removed when the session ends.
import { describe, expect, test } from "bun:test";
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";
import { fakeApiFixture } from "../support/fake-api.ts";

const serve = fakeApiFixture();
const bash = (command: string) => ({ content: [{ type: "tool_use" as const, name: "bash", input: { command } }] });

function toolTexts(stdout: string): string[] {
  return parseNdjson(stdout)
    .filter((m) => m.type === "user")
    .flatMap((m) => ((m.message as { content: Array<{ type: string; content?: unknown }> }).content ?? []).filter((b) => b.type === "tool_result"))
    .map((b) => (typeof b.content === "string" ? b.content : JSON.stringify(b.content)));
}

/** Plants what another user would: every old-style name for the next pids, as files, links and directories. */
function plantCandidates(shared: string, attacker: string): number {
  const last = Number(readFileSync("/proc/sys/kernel/ns_last_pid", "utf8"));
  let n = 0;
  for (let pid = last + 1; pid <= last + 300; pid++) {
    for (let seq = 1; seq <= 3; seq++) {
      const name = join(shared, `khaelor-cwd-${pid}-${seq}`);
      if (seq === 1) writeFileSync(name, `${attacker}\n`, { mode: 0o666 });
      else if (seq === 2) symlinkSync(join(attacker, "planted-cwd"), name);
      else mkdirSync(name);
      n++;
    }
  }
  writeFileSync(join(attacker, "planted-cwd"), `${attacker}\n`);
  return n;
}

describe.skipIf(process.platform !== "linux")("the bash tool's cwd file in a shared TMPDIR", () => {
  test("planted candidates never move the working directory; the file is in a private 0700 directory, gone at the end", async () => {
    // With a space in it, as a macOS TMPDIR under a user name with one may have.
    const shared = mkdtempSync(join(tmpdir(), "khaelor shared tmp-"));
    const attacker = realpathSync(mkdtempSync(join(tmpdir(), "khaelor-attacker-")));
    const planted = plantCandidates(shared, attacker);
    const dir = realpathSync(tempProject());
    mkdirSync(join(dir, "sub"));
    // The trap that writes the file names it (bash prints its traps in a $(trap -p) of its own).
    const api = await serve({
      turns: [
        bash(`t=$(trap -p EXIT); f=$(printf '%s' "$t" | grep -o "/[^']*/cwd-[0-9]*"); echo "FILE $f"; stat -c 'MODE %a %u' "$(dirname "$f")"; id -u`),
        bash("pwd"),
        bash("cd sub && pwd"),
        bash("pwd"),
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const r = await runCli(["-p", "where am I", "--output-format", "stream-json", "--permission-mode", "bypassPermissions"], { cwd: dir, env: isolatedEnv(api.url, { TMPDIR: shared }) });
    expect(r.code).toBe(0);
    const [where, first, moved, after] = toolTexts(r.stdout);
    const file = /FILE (.+)/.exec(where!)?.[1] ?? "";
    const uid = where!.trim().split("\n").find((l) => /^\d+$/.test(l.trim()))?.trim();
    // A random name (mkdtemp) under the TMPDIR given, not one of the planted ones; 0700 and ours.
    expect(file).toMatch(new RegExp(`^${shared}/khaelor-[A-Za-z0-9]{6}/cwd-1$`));
    expect(where).toContain(`MODE 700 ${uid}`);
    // Nothing planted was read: the directory moves only where the command itself went.
    expect(first).toContain(dir);
    expect(first).not.toContain(attacker);
    expect(moved).toContain(join(dir, "sub"));
    expect(after).toContain(join(dir, "sub"));
    expect(after).not.toContain(attacker);
    // The private directory went with the session; the planted names are untouched.
    const left = readdirSync(shared);
    expect(left.filter((n) => !n.startsWith("khaelor-cwd-"))).toEqual([]);
    expect(left).toHaveLength(planted);
    execFileSync("rm", ["-rf", shared, attacker]);
  }, 60_000);
});
