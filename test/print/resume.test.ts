// Carrying a conversation across print-mode runs: --continue, --resume, --fork-session,
// `khaelor sessions`, /compact — the real CLI against the fake Messages API.
import { describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fakeApiFixture, type FakeApi } from "../support/fake-api.ts";
import { cliCommand, isolatedEnv, parseNdjson, runCli, tempProject } from "../support/cli.ts";

const serve = fakeApiFixture();
const say = (text: string) => ({ content: [{ type: "text" as const, text }] });
const bodyOf = (api: FakeApi, i: number) => api.requests.filter((r) => r.outcome === "served")[i]!.body as { messages: Array<{ role: string; content: unknown }> };

describe("print mode across runs", () => {
  test("--continue carries the conversation; sessions lists it; --resume by prefix works too", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [say("The secret word is plum."), say("It was plum."), say("Still plum.")] });
    const env = isolatedEnv(api.url);
    const first = parseNdjson((await runCli(["-p", "remember a word", "--output-format", "json"], { cwd: dir, env })).stdout)[0]!;
    const second = parseNdjson((await runCli(["--continue", "-p", "what was it?", "--output-format", "json"], { cwd: dir, env })).stdout)[0]!;
    expect(second.session_id).toBe(first.session_id);
    const msgs = bodyOf(api, 1).messages;
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(JSON.stringify(msgs[1])).toContain("plum");

    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Array<{ id: string; turns: number; title: string }>;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: first.session_id, turns: 2, title: "remember a word" });

    const prefix = String(first.session_id).slice(0, 8);
    const third = await runCli(["--resume", prefix, "-p", "and now?", "--output-format", "json"], { cwd: dir, env });
    expect(parseNdjson(third.stdout)[0]!.session_id).toBe(first.session_id);
    expect(bodyOf(api, 2).messages).toHaveLength(5);
  });

  test("--fork-session continues in a new session and leaves the old log byte-identical", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [say("one"), say("two")] });
    const env = isolatedEnv(api.url);
    await runCli(["-p", "start"], { cwd: dir, env });
    const listed = JSON.parse((await runCli(["sessions", "--json"], { cwd: dir, env })).stdout) as Array<{ id: string; path: string }>;
    const before = readFileSync(listed[0]!.path);
    const fork = parseNdjson((await runCli(["--continue", "--fork-session", "-p", "branch off", "--output-format", "json"], { cwd: dir, env })).stdout)[0]!;
    expect(fork.session_id).not.toBe(listed[0]!.id);
    expect(readFileSync(listed[0]!.path).equals(before)).toBe(true);
    expect(bodyOf(api, 1).messages).toHaveLength(3);
  });

  test("--resume without an id lists sessions; an unknown id is a clear error", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [say("hello")] });
    const env = isolatedEnv(api.url);
    await runCli(["-p", "greet me"], { cwd: dir, env });
    const list = await runCli(["--resume", "-p"], { cwd: dir, env });
    expect(list.code).toBe(0);
    expect(list.stdout).toContain("greet me");
    const bad = await runCli(["--resume", "ffffffff", "-p", "x"], { cwd: dir, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("ffffffff");
    const none = await runCli(["--continue", "-p", "x"], { cwd: tempProject(), env });
    expect(none.code).toBe(1);
    expect(none.stderr).toContain("no session");
  });

  test("a second KHAELOR on the same session is refused while the first runs", async () => {
    const dir = tempProject();
    const api = await serve({ turns: [say("first"), { content: [{ type: "text", text: "slow ".repeat(2000) }], pacing: { textChunk: 5, delayMs: 5 } }] });
    const env = isolatedEnv(api.url);
    await runCli(["-p", "start"], { cwd: dir, env });
    const holder = Bun.spawn(cliCommand(["--continue", "-p", "talk slowly", "--output-format", "stream-json", "--include-partial-messages"]), { cwd: dir, env, stdout: "pipe", stderr: "pipe" });
    const reader = holder.stdout.getReader();
    let out = "";
    while (!out.includes("text_delta")) {
      const { value, done } = await reader.read();
      if (done) break;
      out += new TextDecoder().decode(value);
    }
    const second = await runCli(["--continue", "-p", "me too"], { cwd: dir, env });
    holder.kill("SIGTERM");
    expect(await holder.exited).toBe(143);
    expect(second.code).toBe(1);
    expect(second.stderr).toContain("already open in another KHAELOR");
  });

  test("/compact in print mode records a compaction; the next request starts from the summary", async () => {
    const dir = tempProject();
    const api = await serve({
      turns: [say("Decided: use tabs."), say("Noted."), say("## Objective\nKeep tabs.\n## Next steps\nnone"), say("Tabs, as decided.")],
    });
    const env = isolatedEnv(api.url);
    await runCli(["-p", "we use tabs, remember"], { cwd: dir, env });
    await runCli(["--continue", "-p", "and 80 columns"], { cwd: dir, env });
    const compact = await runCli(["--continue", "-p", "/compact keep the style decisions", "--output-format", "stream-json"], { cwd: dir, env });
    expect(compact.code).toBe(0);
    const lines = parseNdjson(compact.stdout);
    expect(lines.some((l) => l.type === "system" && l.subtype === "compact_boundary")).toBe(true);
    // The summarising call is billed like any other.
    expect(lines.at(-1)!.total_cost_usd as number).toBeGreaterThan(0);
    expect(JSON.stringify(bodyOf(api, 2))).toContain("keep the style decisions");
    await runCli(["--continue", "-p", "which style?"], { cwd: dir, env });
    const after = bodyOf(api, 3).messages;
    expect(JSON.stringify(after)).toContain("Keep tabs.");
    expect(JSON.stringify(after)).not.toContain("we use tabs, remember");
  });
});

describe("the workspace on resume", () => {
  test("files the model read stay read and a cd carries over; a file changed since must be read again", async () => {
    const dir = tempProject();
    mkdirSync(join(dir, "sub"));
    writeFileSync(join(dir, "a.txt"), "alpha\n");
    writeFileSync(join(dir, "b.txt"), "beta\n");
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", id: "r1", name: "read", input: { file_path: "a.txt" } }, { type: "tool_use", id: "r2", name: "read", input: { file_path: "b.txt" } }, { type: "tool_use", id: "c1", name: "bash", input: { command: "cd sub" } }] },
        say("read them"),
        { content: [{ type: "tool_use", id: "e1", name: "edit", input: { file_path: "../a.txt", old_string: "alpha", new_string: "ALPHA" } }, { type: "tool_use", id: "e2", name: "edit", input: { file_path: "../b.txt", old_string: "beta", new_string: "BETA" } }, { type: "tool_use", id: "p1", name: "bash", input: { command: "pwd" } }] },
        say("done"),
      ],
    });
    const env = isolatedEnv(api.url);
    await runCli(["-p", "read", "--permission-mode", "bypassPermissions", "--no-verify-nudge"], { cwd: dir, env });
    writeFileSync(join(dir, "b.txt"), "beta changed by the user\n");
    await runCli(["--continue", "-p", "edit", "--permission-mode", "bypassPermissions", "--no-verify-nudge"], { cwd: dir, env });
    expect(readFileSync(join(dir, "a.txt"), "utf8")).toBe("ALPHA\n");
    expect(readFileSync(join(dir, "b.txt"), "utf8")).toBe("beta changed by the user\n");
    const results = JSON.stringify(bodyOf(api, 3).messages.at(-1));
    expect(results).toContain("sub\\n");
    expect(results).toMatch(/b\.txt.*(changed|read it)/);
  });
});
