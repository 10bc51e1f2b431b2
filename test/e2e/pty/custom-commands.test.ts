// Custom commands, skills and hooks in the app: the real CLI in a pseudo-terminal, the fake Messages API.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, runCli, tempProject } from "../../support/cli.ts";
import { testServer, until } from "../../mcp/support.ts";
import { answerPrompt, idle, KEY, promptArmed, ptyFixtures, unwrap } from "./harness.ts";

const fixtures = ptyFixtures();

function put(dir: string, rel: string, text: string) {
  mkdirSync(join(dir, rel, ".."), { recursive: true });
  writeFileSync(join(dir, rel), text);
}

describe("custom commands in the app", () => {
  test("a .claude/commands file completes with its description, shows in /help, runs with its arguments; /hooks lists hooks; a hook shows as a row", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "REVIEW-DONE" }] }] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    put(dir, ".claude/commands/review.md", "---\ndescription: Review one file carefully\nargument-hint: <file>\n---\nPlease review $1 (all: $ARGUMENTS)\n");
    put(dir, ".claude/commands/help.md", "shadowing attempt\n");
    const hook = join(dir, "ups.sh");
    writeFileSync(hook, "#!/bin/sh\ncat > /dev/null\necho 'from the hook'\n");
    chmodSync(hook, 0o755);
    put(env.XDG_CONFIG_HOME!, "khaelor/settings.json", JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook }] }] } }));

    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitFor(idle, "the composer");
    expect(s.all()).toContain("/help in");
    expect(unwrap(s.all())).toContain("the built-in /help wins");

    s.type("/rev");
    await s.waitForText("Review one file carefully");
    expect(s.screen()).toContain("/review <file>");
    s.send(KEY.ctrlU);
    await s.waitFor((sc) => !sc.includes("Review one file carefully"), "the picker closed");

    s.type("/help");
    await s.waitForText("› /help");
    s.send(KEY.enter);
    await s.waitForText("Custom commands and skills:");
    // Help wraps between words: its rows read as one line.
    const help = s.all().replace(/\n +/g, " ");
    expect(help).toMatch(/\/review <file> — Review one file carefully \(project: .*review\.md\)/);
    // The project's /review replaces the built-in one, which is not listed beside it.
    expect(help).not.toContain("/review [ref]");

    s.type("/hooks");
    await s.waitForText("› /hooks");
    s.send(KEY.enter);
    await s.waitForText("UserPromptSubmit:");
    expect(s.all()).toContain(hook);

    s.type("/review src/a.ts deep");
    await s.waitForText("› /review src/a.ts deep");
    s.send(KEY.enter);
    await s.waitForText("REVIEW-DONE");
    await s.waitFor(idle, "the answer");
    const sent = JSON.stringify(fake.requests.find((q) => q.outcome === "served")?.body ?? null);
    expect(sent).toContain("Please review src/a.ts (all: src/a.ts deep)");
    expect(sent).toContain("from the hook");
    expect(s.all()).toContain("hook UserPromptSubmit");
    // its plain stdout shows under its row, as a command's output does
    expect(s.all()).toMatch(/hook UserPromptSubmit[^\n]*\n\s*│ from the hook/);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  });

  test("a project's hooks wait for the trust question; trusted, they run (and print mode runs them after)", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "FIRST" }] }, { content: [{ type: "text", text: "SECOND" }] }] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const hook = join(dir, "mark.sh");
    writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\necho ran >> "${join(dir, "marks.txt")}"\n`);
    chmodSync(hook, 0o755);
    put(dir, ".khaelor/settings.json", JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook }] }] } }));

    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitForText("and run it? (remembered for this project)");
    expect(s.all()).toContain(`hook UserPromptSubmit (${join(dir, ".khaelor", "settings.json")})`);
    s.send(KEY.enter);
    await s.waitFor(idle, "the composer");
    s.type("go");
    s.send(KEY.enter);
    await s.waitForText("FIRST");
    await s.waitFor(idle, "the answer");
    expect(readFileSync(join(dir, "marks.txt"), "utf8")).toBe("ran\n");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);

    const r = await runCli(["-p", "again"], { cwd: dir, env });
    expect(r.stdout).toBe("SECOND\n");
    expect(readFileSync(join(dir, "marks.txt"), "utf8")).toBe("ran\nran\n");
  });

  test("a project with MCP servers and hooks asks one trust question for both; one answer runs both and is remembered", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "BOTH-RAN" }] }] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const serverPid = join(dir, "server-pid");
    writeFileSync(join(dir, ".mcp.json"), JSON.stringify({ mcpServers: { repo: testServer("--pid-file", serverPid) } }));
    const hook = join(dir, "mark.sh");
    writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\necho ran >> "${join(dir, "marks.txt")}"\n`);
    chmodSync(hook, 0o755);
    put(dir, ".khaelor/settings.json", JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: hook }] }] } }));

    const s = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
    await s.waitForText("and run them? (remembered for this project)");
    expect(s.all()).toContain("This project's files define 2 commands KHAELOR would run on your machine:");
    expect(s.all()).toContain(`MCP server repo (${join(dir, ".mcp.json")}):`);
    expect(s.all()).toContain(`hook UserPromptSubmit (${join(dir, ".khaelor", "settings.json")}):`);
    expect(existsSync(serverPid)).toBe(false);
    s.send(KEY.enter); // "Trust and run"
    await s.waitFor(idle, "the composer");
    await until("the trusted server to start", () => existsSync(serverPid) && readFileSync(serverPid, "utf8").endsWith("\n"), 40_000);
    s.type("go");
    s.send(KEY.enter);
    await s.waitForText("BOTH-RAN");
    await s.waitFor(idle, "the answer");
    expect(readFileSync(join(dir, "marks.txt"), "utf8")).toBe("ran\n");
    // one question: the screen never asked a second time
    expect(s.all().split("KHAELOR would run on your machine:").length - 1).toBe(1);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    const store = JSON.parse(readFileSync(join(env.KHAELOR_HOME!, "trusted-projects.json"), "utf8")) as { projects: Record<string, { trusted: string[]; declined: string[] }> };
    const entry = Object.values(store.projects)[0]!;
    expect(entry.trusted.length).toBe(2);
    expect(entry.declined).toEqual([]);
  });

  test("a project command's allowed-tools are in the start-up trust question: trusted, they let its !`cmd` lines run unasked", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "MK-DONE" }], expect: { lastTextMatches: "made: yes" } }] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    put(dir, ".claude/commands/mk.md", "---\nallowed-tools: Bash(touch:*)\n---\nmade: !`touch made.txt && echo yes`\n");
    const s = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
    await s.waitForText("and run it? (remembered for this project)");
    expect(s.all()).toContain(`command /mk (${join(dir, ".claude", "commands", "mk.md")}):`);
    expect(s.all()).toContain("allowed-tools: Bash(touch:*); runs `touch made.txt && echo yes`");
    s.send(KEY.enter); // "Trust and run"
    await s.waitFor(idle, "the composer");
    s.type("/mk now");
    await s.waitForText("› /mk now");
    s.send(KEY.enter);
    await s.waitForText("MK-DONE");
    await s.waitFor(idle, "the answer");
    expect(fake.checkFailures).toEqual([]);
    expect(existsSync(join(dir, "made.txt"))).toBe(true);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  });

  test("declined, a project command's !`cmd` lines ask like any call; refused, they do not run", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "MK-DONE" }], expect: { lastTextMatches: "did not run" } }] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    put(dir, ".claude/commands/mk.md", "---\nallowed-tools: Bash(touch:*)\n---\nmade: !`touch made.txt && echo yes`\n");
    const s = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
    await s.waitForText("and run it? (remembered for this project)");
    s.send(KEY.down);
    s.send(KEY.enter); // "Do not run"
    await s.waitFor(idle, "the composer");
    s.type("/mk now");
    await s.waitForText("› /mk now");
    s.send(KEY.enter);
    await s.waitForText("Permission needed");
    await s.waitFor(() => promptArmed(s), "the prompt to take keys");
    await answerPrompt(s, "n");
    await s.waitForText("MK-DONE");
    await s.waitFor(idle, "the answer");
    expect(fake.checkFailures).toEqual([]);
    expect(existsSync(join(dir, "made.txt"))).toBe(false);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  });

  test("a running hook is a row with its name and time; Esc cancels it and the prompt is not sent", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "never" }] }] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    put(env.XDG_CONFIG_HOME!, "khaelor/settings.json", JSON.stringify({ hooks: { UserPromptSubmit: [{ hooks: [{ type: "command", command: "sleep 30" }] }] } }));
    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitFor(idle, "the composer");
    s.type("go");
    s.send(KEY.enter);
    // the row names the hook and, past a second, says how long it has run
    await s.waitFor((sc) => /hook UserPromptSubmit: sleep 30\s+\d+\.\ds/.test(sc), "the hook's row with its time");
    s.send(KEY.esc);
    await s.waitFor((sc) => /sleep 30"\s+\([^)]*\)\s+was\s+cancelled/.test(sc), "the hook reported cancelled");
    await s.waitFor(idle, "the composer after Esc");
    expect(fake.requests.length).toBe(0);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  });

  test("/clear: SessionEnd hears clear, then the new session's SessionStart hears clear; leaving at the prompt is prompt_input_exit", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "HELLO-BACK" }] }] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const log = join(dir, "events.jsonl");
    const hook = join(dir, "log.sh");
    writeFileSync(hook, `#!/bin/sh\ncat >> "${log}"\necho >> "${log}"\n`);
    chmodSync(hook, 0o755);
    const entry = [{ hooks: [{ type: "command", command: hook }] }];
    put(env.XDG_CONFIG_HOME!, "khaelor/settings.json", JSON.stringify({ hooks: { SessionStart: entry, SessionEnd: entry } }));
    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitFor(idle, "the composer");
    s.type("hello");
    s.send(KEY.enter);
    await s.waitForText("HELLO-BACK");
    await s.waitFor(idle, "the answer");
    s.type("/clear");
    await s.waitForText("› /clear");
    s.send(KEY.enter);
    await s.waitForText("New session");
    await s.waitFor(idle, "the new session");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    const got = readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(got.map((j) => [j.hook_event_name, j.source ?? j.reason])).toEqual([
      ["SessionStart", "startup"],
      ["SessionEnd", "clear"],
      ["SessionStart", "clear"],
      ["SessionEnd", "prompt_input_exit"],
    ]);
    expect(got[1]!.session_id).toBe(got[0]!.session_id);
    expect(got[2]!.session_id).not.toBe(got[0]!.session_id);
  });

  test("/resume of a session that cannot be opened: the old session goes on, its SessionEnd not run until it really ends", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "STILL-HERE" }] }] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const log = join(dir, "events.jsonl");
    const hook = join(dir, "log.sh");
    writeFileSync(hook, `#!/bin/sh\ncat >> "${log}"\necho >> "${log}"\n`);
    chmodSync(hook, 0o755);
    put(env.XDG_CONFIG_HOME!, "khaelor/settings.json", JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: "command", command: hook }] }] } }));
    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitFor(idle, "the composer");
    s.type("/resume no-such-session");
    s.send(KEY.enter);
    await s.waitForText("Could not open the session");
    await s.waitFor(idle, "the composer again");
    expect(existsSync(log)).toBe(false);
    s.type("hello");
    s.send(KEY.enter);
    await s.waitForText("STILL-HERE");
    await s.waitFor(idle, "the answer");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    const got = readFileSync(log, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(got.map((j) => [j.hook_event_name, j.reason])).toEqual([["SessionEnd", "prompt_input_exit"]]);
  });

  test("/clear is busy until the switch is done: a prompt typed during a slow SessionEnd hook waits, never runs in the old session", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: "NEW-SESSION-ANSWER" }] }] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const hook = join(dir, "slow-end.sh");
    // Holds the switch until the test releases it.
    writeFileSync(hook, `#!/bin/sh\ncat > /dev/null\ntouch "${join(dir, "ending")}"\nwhile [ ! -e "${join(dir, "release")}" ]; do sleep 0.05; done\n`);
    chmodSync(hook, 0o755);
    put(env.XDG_CONFIG_HOME!, "khaelor/settings.json", JSON.stringify({ hooks: { SessionEnd: [{ hooks: [{ type: "command", command: hook }] }] } }));
    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitFor(idle, "the composer");
    s.type("/clear");
    await s.waitForText("› /clear");
    s.send(KEY.enter);
    await until("the SessionEnd hook", () => existsSync(join(dir, "ending")));
    s.type("typed during the switch");
    s.send(KEY.enter);
    await s.waitForText("wait for the current command to finish");
    expect(fake.requests.length).toBe(0);
    writeFileSync(join(dir, "release"), "");
    await s.waitForText("New session");
    await s.waitFor(idle, "the new session");
    expect(fake.requests.length).toBe(0);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  });

  test("Notification: a hook hears the permission prompt as Claude Code sends it", async () => {
    const fake = await fixtures.api({
      turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "touch asked.txt" } }] }, { content: [{ type: "text", text: "DENIED-OK" }] }],
    });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const log = join(dir, "notification.json");
    const hook = join(dir, "notify.sh");
    writeFileSync(hook, `#!/bin/sh\ncat > "${log}"\n`);
    chmodSync(hook, 0o755);
    put(env.XDG_CONFIG_HOME!, "khaelor/settings.json", JSON.stringify({ hooks: { Notification: [{ matcher: "permission_prompt", hooks: [{ type: "command", command: hook }] }] } }));
    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitFor(idle, "the composer");
    s.type("make a file");
    s.send(KEY.enter);
    await s.waitForText("Permission needed");
    await s.waitFor(() => promptArmed(s), "the prompt to take keys");
    await answerPrompt(s, "n");
    await s.waitForText("DENIED-OK");
    await s.waitFor(idle, "the answer");
    const got = JSON.parse(readFileSync(log, "utf8")) as Record<string, unknown>;
    expect(got).toMatchObject({ hook_event_name: "Notification", notification_type: "permission_prompt", message: "KHAELOR needs your permission to use bash" });
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  });
});
