// Claude Code's statusLine in the app: the user's command gets the session's JSON and its coloured
// first line shows above the built-in status line; a project's command runs only once trusted; a
// failing command leaves the built-in line and says why once.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { idle, KEY, ptyFixtures, submit } from "./harness.ts";

const fixtures = ptyFixtures();

function userSettings(env: Record<string, string>, settings: object): void {
  const dir = join(env.XDG_CONFIG_HOME!, "khaelor");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "settings.json"), JSON.stringify(settings));
}

async function until<T>(f: () => T | null): Promise<T> {
  for (;;) {
    const v = f();
    if (v !== null) return v;
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe("statusLine", () => {
  test("the user's command reads Claude Code's JSON and its line shows above the status line, colours kept", async () => {
    const dir = tempProject();
    const api = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", name: "write", input: { file_path: join(dir, "a.txt"), content: "one\ntwo\nthree\n" } }] },
        { content: [{ type: "text", text: "WROTE IT" }] },
      ],
    });
    const env = isolatedEnv(api.url);
    const seen = join(env.HOME!, "status-in.json");
    userSettings(env, { statusLine: { type: "command", command: `cat > '${seen}'; printf '\\033[31mSL-%s\\033[0m\\033[2J\\n' ready`, padding: 2 } });
    const s = fixtures.pty(["--permission-mode", "acceptEdits"], { cwd: dir, env, cols: 100, rows: 30 });
    await s.waitForText("SL-ready");
    const rows = s.screen().split("\n");
    const at = rows.findIndex((r) => r.includes("SL-ready"));
    expect(rows[at]!.startsWith("  SL-ready")).toBe(true);
    expect(rows[at + 1]).toContain("accept edits");
    const lines = s.term.lines();
    const line = lines.findLastIndex((l) => l.startsWith("  SL-ready"));
    expect(s.term.cellStyle(line, 2)?.fg).toBe("index:1");
    expect(s.term.cellStyle(line, 0)?.fg).toBe("default");
    await submit(s, "write a file");
    await s.waitForText("WROTE IT");
    const input = await until(() => {
      const j = existsSync(seen) ? (JSON.parse(readFileSync(seen, "utf8") || "{}") as Record<string, any>) : null;
      return j && j.cost?.total_lines_added === 3 ? j : null;
    });
    expect(input.hook_event_name).toBe("Status");
    expect(input.cwd).toBe(dir);
    expect(input.workspace).toEqual({ current_dir: dir, project_dir: dir });
    expect(typeof input.session_id).toBe("string");
    expect(input.transcript_path).toContain(input.session_id);
    expect(input.model.id).toBeTruthy();
    expect(input.context_window.context_window_size).toBeGreaterThan(0);
    expect(input.context_window.current_usage).toHaveProperty("input_tokens");
    // The clear-screen the command printed was dropped: the transcript is still there.
    expect(s.screen()).toContain("WROTE IT");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("a project's statusLine is in the trust question and does not run until trusted", async () => {
    const dir = tempProject();
    mkdirSync(join(dir, ".khaelor"));
    writeFileSync(join(dir, ".khaelor", "settings.json"), JSON.stringify({ statusLine: { type: "command", command: "touch ran-by-project; echo PROJECT-LINE" } }));
    const api = await fixtures.api({ turns: [{ content: [{ type: "text", text: "HELLO" }] }, { content: [{ type: "text", text: "AGAIN" }] }] });
    const env = isolatedEnv(api.url);
    const s = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
    await s.waitForText("(remembered for this project)");
    expect(s.all()).toContain("statusLine touch ran-by-project; echo PROJECT-LINE");
    expect(s.all()).toContain("to draw the status line");
    s.send(KEY.esc);
    await s.waitFor(idle, "the composer");
    await submit(s, "hi");
    await s.waitForText("HELLO");
    expect(existsSync(join(dir, "ran-by-project"))).toBe(false);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);

    // Declined is remembered; --trust-project trusts the project's files for one run.
    const t = fixtures.pty(["--trust-project"], { cwd: dir, env, cols: 120, rows: 40 });
    await t.waitForText("PROJECT-LINE");
    expect(existsSync(join(dir, "ran-by-project"))).toBe(true);
    t.send(KEY.ctrlD);
    expect(await t.exited).toBe(0);
  }, 60_000);

  test("a failing command: the built-in line stays and the reason is said once", async () => {
    const dir = tempProject();
    const api = await fixtures.api({ turns: [{ content: [{ type: "text", text: "FIRST" }] }, { content: [{ type: "text", text: "SECOND" }] }] });
    const env = isolatedEnv(api.url);
    userSettings(env, { statusLine: { type: "command", command: "echo nope >&2; exit 4" } });
    const s = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
    await s.waitForText("exited with code 4 (nope)");
    await submit(s, "one");
    await s.waitForText("FIRST");
    await submit(s, "two");
    await s.waitForText("SECOND");
    expect(s.all().split("exited with code 4").length - 1).toBe(1);
    expect(s.screen()).toContain("ask before edits");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});
