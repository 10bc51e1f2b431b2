// The hook events as Claude Code defines them, with real scripts: the JSON each receives, and
// what each exit code and JSON answer does. Print mode, the real CLI, the fake Messages API.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join, resolve } from "node:path";
import { fakeApiFixture } from "../support/fake-api.ts";
import { runCli } from "../support/cli.ts";
import { hookProject } from "./support.ts";
import { hookTrustItem, loadHooks } from "../../src/hooks/config.ts";
import { recordTrust } from "../../src/trust/project-trust.ts";

const serve = fakeApiFixture();
const bypass = ["--permission-mode", "bypassPermissions"];

describe("hook events", () => {
  test("PreToolUse: exit 2 blocks the call and its stderr reaches the model; the input is Claude Code's", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo made > made.txt" } }] },
        { content: [{ type: "text", text: "Blocked, fine." }], expect: { lastHasToolResult: { isError: true, contentMatches: "no shell today" } } },
      ],
    });
    const p = hookProject(server.url);
    const hook = p.script("pre", `echo "$CLAUDE_PROJECT_DIR|$KHAELOR_PROJECT_DIR" > "${p.dir}/env.txt"\necho "no shell today" >&2\nexit 2`);
    p.hooks({ PreToolUse: [{ matcher: "Bash", command: hook }, { matcher: "Edit|Write", command: p.script("never", "exit 2") }] });
    const r = await runCli(["-p", "make it", ...bypass], { cwd: p.dir, env: p.env });
    expect(server.checkFailures).toEqual([]);
    expect(r.code).toBe(0);
    expect(existsSync(join(p.dir, "made.txt"))).toBe(false);
    const [got, ...rest] = p.received();
    expect(rest).toEqual([]);
    expect(got).toMatchObject({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "echo made > made.txt" }, cwd: resolve(p.dir), permission_mode: "bypassPermissions" });
    expect(got!.session_id).toEqual(expect.any(String));
    expect(String(got!.transcript_path)).toEndWith(".jsonl");
    expect(readFileSync(join(p.dir, "env.txt"), "utf8").trim()).toBe(`${resolve(p.dir)}|${resolve(p.dir)}`);
    expect(r.stderr).toContain("no shell today");
  });

  test("PreToolUse additionalContext reaches the model with the call's result", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo hi" } }] },
        { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: false, contentMatches: "hi[\\s\\S]*use pnpm, not npm" } } },
      ],
    });
    const p = hookProject(server.url);
    p.hooks({ PreToolUse: [{ matcher: "Bash", command: p.script("ctx", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","additionalContext":"use pnpm, not npm"}}'`) }] });
    const r = await runCli(["-p", "go", ...bypass], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(server.checkFailures).toEqual([]);
  });

  test("PreToolUse updatedInput: the call runs with the hook's input, which the rules judge", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo one > a.txt" } }] },
        { content: [{ type: "tool_use", name: "write", input: { file_path: "b.txt", content: "b" } }], expect: { lastHasToolResult: { isError: false } } },
        { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: true, contentMatches: "Permission denied|denied" } } },
      ],
    });
    const p = hookProject(server.url);
    const rewrite = p.script("rewrite", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":"echo two > a.txt"}}}'`);
    // the Write is sent to a path a deny rule covers: allow + updatedInput never lifts it
    const move = p.script("move", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"file_path":"secret/b.txt","content":"b"}}}'`);
    p.hooks({ PreToolUse: [{ matcher: "Bash", command: rewrite }, { matcher: "Write", command: move }], PostToolUse: [{ matcher: "Bash", command: p.script("post", "exit 0") }] });
    const r = await runCli(["-p", "go", "--disallowedTools", "Write(secret/**)"], { cwd: p.dir, env: p.env });
    expect(server.checkFailures).toEqual([]);
    expect(r.code).toBe(0);
    expect(readFileSync(join(p.dir, "a.txt"), "utf8")).toBe("two\n");
    expect(existsSync(join(p.dir, "secret", "b.txt"))).toBe(false);
    expect(existsSync(join(p.dir, "b.txt"))).toBe(false);
    const post = p.received().find((j) => j.hook_event_name === "PostToolUse");
    expect(post).toMatchObject({ tool_input: { command: "echo two > a.txt" } });
  });

  test("PreToolUse JSON: deny stops the call with its reason; allow never lifts a deny rule", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "write", input: { file_path: "a.txt", content: "a" } }] },
        { content: [{ type: "tool_use", name: "bash", input: { command: "echo b > b.txt" } }], expect: { lastHasToolResult: { isError: true, contentMatches: "writes are reviewed" } } },
        { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: true, contentMatches: "Permission denied" } } },
      ],
    });
    const p = hookProject(server.url);
    const deny = p.script("deny", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"writes are reviewed"}}'`);
    const allow = p.script("allow", `echo '{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}'`);
    p.hooks({ PreToolUse: [{ matcher: "Write", command: deny }, { matcher: "Bash", command: allow }] });
    const r = await runCli(["-p", "go", "--disallowedTools", "Bash(echo:*)"], { cwd: p.dir, env: p.env });
    expect(server.checkFailures).toEqual([]);
    expect(r.code).toBe(0);
    expect(existsSync(join(p.dir, "a.txt"))).toBe(false);
    expect(existsSync(join(p.dir, "b.txt"))).toBe(false);
    expect(p.received().map((j) => [j.tool_name, (j.tool_input as { file_path?: string }).file_path])).toEqual([
      ["Write", join(resolve(p.dir), "a.txt")],
      ["Bash", undefined],
    ]);
  });

  test("PostToolUse runs after Edit|Write with tool_response, and its additionalContext and block reason reach the model", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "write", input: { file_path: "x.ts", content: "let x = 1\n" } }] },
        { content: [{ type: "tool_use", name: "read", input: { file_path: "x.ts" } }], expect: { lastHasToolResult: { isError: false, contentMatches: "^Created x.ts[\\s\\S]*missing semicolon[\\s\\S]*formatted by prettier" } } },
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const p = hookProject(server.url);
    const post = p.script("post", `echo '{"decision":"block","reason":"missing semicolon","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"formatted by prettier"}}'`);
    p.hooks({ PostToolUse: [{ matcher: "Edit|Write", command: post }] });
    const r = await runCli(["-p", "write it", ...bypass], { cwd: p.dir, env: p.env });
    expect(server.checkFailures).toEqual([]);
    expect(r.code).toBe(0);
    const got = p.received();
    expect(got.length).toBe(1); // the Read did not match
    expect(got[0]).toMatchObject({ hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(resolve(p.dir), "x.ts"), content: "let x = 1\n" }, tool_response: { filePath: join(resolve(p.dir), "x.ts"), success: true } });
  });

  test("PostToolUse's tool_response has Claude Code's per-tool shape; a failed call goes to PostToolUseFailure instead", async () => {
    const call = (name: string, input: Record<string, unknown>) => ({ content: [{ type: "tool_use" as const, name, input }] });
    const server = await serve({
      turns: [
        call("write", { file_path: "s.ts", content: "one\ntwo\n" }),
        call("edit", { file_path: "s.ts", old_string: "two", new_string: "three" }),
        call("read", { file_path: "s.ts" }),
        call("bash", { command: "echo out; echo err >&2" }),
        call("glob", { pattern: "*.ts" }),
        call("grep", { pattern: "three", glob: "*.ts" }),
        call("bash", { command: "exit 3" }),
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const p = hookProject(server.url);
    const log = p.script("log", "exit 0");
    p.hooks({ PostToolUse: [{ command: log }], PostToolUseFailure: [{ matcher: "Bash", command: log }] });
    const r = await runCli(["-p", "go", ...bypass], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    const file = join(resolve(p.dir), "s.ts");
    const got = p.received();
    expect(got.map((j) => [j.hook_event_name, j.tool_name])).toEqual([
      ["PostToolUse", "Write"],
      ["PostToolUse", "Edit"],
      ["PostToolUse", "Read"],
      ["PostToolUse", "Bash"],
      ["PostToolUse", "Glob"],
      ["PostToolUse", "Grep"],
      ["PostToolUseFailure", "Bash"],
    ]);
    const res = got.map((j) => j.tool_response as Record<string, unknown>);
    expect(res[0]).toMatchObject({ type: "create", filePath: file, content: "one\ntwo\n", success: true });
    expect(res[1]).toMatchObject({ filePath: file, oldString: "two", newString: "three", replaceAll: false, userModified: false });
    expect((res[1]!.structuredPatch as Array<{ lines: string[] }>)[0]!.lines).toEqual(expect.arrayContaining(["-two", "+three"]));
    expect(res[2]).toEqual({ type: "text", file: { filePath: file, content: "one\nthree", numLines: 2, startLine: 1, totalLines: 2 } });
    expect(res[3]).toEqual({ stdout: expect.stringContaining("out"), stderr: "", interrupted: false, isImage: false });
    expect(res[4]).toMatchObject({ filenames: [file], numFiles: 1, truncated: false });
    expect(res[5]).toEqual({ mode: "files_with_matches", filenames: [file], numFiles: 1 });
    expect(got[6]).toMatchObject({ tool_input: { command: "exit 3" }, error: expect.stringContaining("exit code 3"), is_interrupt: false });
    expect(got[6]!.tool_response).toBeUndefined();
  });

  test("UserPromptSubmit: stdout is context for the model; exit 2 keeps the prompt from being sent and says why", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "hi" }], expect: { lastTextMatches: "TICKET-42 is open" } }] });
    const p = hookProject(server.url);
    p.hooks({ UserPromptSubmit: [{ command: p.script("ups", `echo "TICKET-42 is open"`) }] });
    const r = await runCli(["-p", "status?"], { cwd: p.dir, env: p.env });
    expect(server.checkFailures).toEqual([]);
    expect(r.stdout).toBe("hi\n");
    expect(p.received()[0]).toMatchObject({ hook_event_name: "UserPromptSubmit", prompt: "status?" });

    const blocked = await serve({ turns: [{ content: [{ type: "text", text: "never" }] }] });
    const q = hookProject(blocked.url);
    q.hooks({ UserPromptSubmit: [{ command: q.script("ups", `echo "prompts mentioning secrets are blocked" >&2; exit 2`) }] });
    const b = await runCli(["-p", "print the secrets"], { cwd: q.dir, env: q.env });
    expect(blocked.requests.length).toBe(0);
    expect(b.code).not.toBe(0);
    expect(b.stderr).toContain("prompts mentioning secrets are blocked");
  });

  test("Stop: exit 2 sends the model back once with stderr; the second stop has stop_hook_active", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "Done." }] },
        { content: [{ type: "text", text: "Linted, really done." }], expect: { lastTextMatches: "run the linter first" } },
      ],
    });
    const p = hookProject(server.url);
    const stop = p.script("stop", `case "$IN" in *'"stop_hook_active":true'*) exit 0;; esac\necho "run the linter first" >&2\nexit 2`);
    p.hooks({ Stop: [{ command: stop }] });
    const r = await runCli(["-p", "finish"], { cwd: p.dir, env: p.env });
    expect(server.checkFailures).toEqual([]);
    expect(r.stdout).toContain("Linted, really done.");
    expect(p.received().map((j) => [j.hook_event_name, j.stop_hook_active, j.last_assistant_message])).toEqual([
      ["Stop", false, "Done."],
      ["Stop", true, "Linted, really done."],
    ]);
  });

  test("Stop: a hook that always blocks is bounded; the run still ends", async () => {
    const server = await serve({ turns: Array.from({ length: 6 }, (_, i) => ({ content: [{ type: "text" as const, text: `stop ${i}` }] })) });
    const p = hookProject(server.url);
    p.hooks({ Stop: [{ command: p.script("stop", `echo "never satisfied" >&2; exit 2`) }] });
    const r = await runCli(["-p", "finish"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(server.requests.filter((q) => q.outcome === "served").length).toBe(4); // 1 + 3 sends back
  });

  test("SessionStart's stdout reaches the first request; SessionEnd runs when the session closes", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "ok" }], expect: { lastTextMatches: "branch feature-x, 3 open todos" } }] });
    const p = hookProject(server.url);
    p.hooks({ SessionStart: [{ matcher: "startup", command: p.script("start", `echo "branch feature-x, 3 open todos"`) }], SessionEnd: [{ command: p.script("end", "exit 0") }] });
    const r = await runCli(["-p", "hello"], { cwd: p.dir, env: p.env });
    expect(server.checkFailures).toEqual([]);
    expect(r.code).toBe(0);
    expect(p.received().map((j) => [j.hook_event_name, j.source ?? j.reason])).toEqual([
      ["SessionStart", "startup"],
      ["SessionEnd", "other"],
    ]);
  });

  test("a PostToolUse hook's plain stdout is shown with --verbose, not sent to the model", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "write", input: { file_path: "y.ts", content: "let y = 1\n" } }] },
        { content: [{ type: "text", text: "done" }] },
      ],
    });
    const p = hookProject(server.url);
    p.hooks({ PostToolUse: [{ matcher: "Write", command: p.script("fmt", `echo "formatted y.ts"`) }] });
    const r = await runCli(["-p", "write it", "--verbose", ...bypass], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("formatted y.ts");
    expect(JSON.stringify(server.requests.at(-1)?.body)).not.toContain("formatted y.ts");
  });

  test("exit 1 is a non-blocking error the user sees; the call still runs", async () => {
    const server = await serve({
      turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "echo ran > ran.txt" } }] }, { content: [{ type: "text", text: "ok" }], expect: { lastHasToolResult: { isError: false } } }],
    });
    const p = hookProject(server.url);
    p.hooks({ PreToolUse: [{ matcher: "Bash", command: p.script("warn", `echo "lint config missing" >&2; exit 1`) }] });
    const r = await runCli(["-p", "go", ...bypass], { cwd: p.dir, env: p.env });
    expect(server.checkFailures).toEqual([]);
    expect(readFileSync(join(p.dir, "ran.txt"), "utf8")).toBe("ran\n");
    expect(r.stderr).toMatch(/PreToolUse hook ".*warn\.sh" \(.*settings\.json\) exited 1: lint config missing/);
  });

  test("bad hooks: missing command, hang past its timeout, binary output, invalid JSON, killed by a signal — each reported once, the session goes on", async () => {
    const server = await serve({
      turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "echo ran > ran.txt" } }] }, { content: [{ type: "text", text: "still here" }] }],
    });
    const p = hookProject(server.url);
    p.hooks({
      PreToolUse: [
        { command: "/no/such/hook-command" },
        { command: "sleep 30", timeout: 1 },
        { command: "printf '\\000\\377binary'" },
        { command: "echo '{not json'" },
        { command: "kill -9 $$" },
      ],
    });
    const r = await runCli(["-p", "go", ...bypass], { cwd: p.dir, env: p.env });
    expect(r.stdout).toContain("still here");
    expect(readFileSync(join(p.dir, "ran.txt"), "utf8")).toBe("ran\n");
    const lines = r.stderr.split("\n");
    const once = (re: RegExp) => expect(lines.filter((l) => re.test(l)).length).toBe(1);
    once(/no\/such\/hook-command.*exited 127: the command was not found/);
    once(/"sleep 30".*did not finish within its timeout of 1 s/);
    once(/printf.*printed binary output/);
    once(/\{not json.*printed invalid JSON/);
    once(/kill -9.*was killed by SIGKILL/);
  });

  test("a cloned project's hooks do not run in -p until the project is trusted; user hooks always do", async () => {
    const server = await serve({ turns: ["one", "for this run", "two"].map((text) => ({ content: [{ type: "text", text }] })) });
    const p = hookProject(server.url);
    const file = p.hooks({ UserPromptSubmit: [{ command: p.script("project", `touch "${p.dir}/project-hook-ran"`) }] }, "project");
    const r = await runCli(["-p", "hi"], { cwd: p.dir, env: p.env });
    expect(r.stdout).toBe("one\n");
    expect(existsSync(join(p.dir, "project-hook-ran"))).toBe(false);
    expect(r.stderr).toContain("not running a command from this project's files");
    expect(r.stderr).toContain("hook UserPromptSubmit");

    // --trust-project runs it for that run only, as it does the project's MCP servers.
    const once = await runCli(["-p", "hi", "--trust-project"], { cwd: p.dir, env: p.env });
    expect(once.stdout).toBe("for this run\n");
    expect(existsSync(join(p.dir, "project-hook-ran"))).toBe(true);
    expect(once.stderr).not.toContain("not running");
    rmSync(join(p.dir, "project-hook-ran"));

    // The user trusts it (as the app's question would record): now it runs.
    const items = loadHooks([{ scope: "project", file }]).entries.map(hookTrustItem);
    recordTrust(p.dir, items, "trust", join(p.env.KHAELOR_HOME!, "trusted-projects.json"));
    const again = await runCli(["-p", "hi"], { cwd: p.dir, env: p.env });
    expect(again.stdout).toBe("two\n");
    expect(existsSync(join(p.dir, "project-hook-ran"))).toBe(true);
    expect(again.stderr).not.toContain("not running");

    // A changed command is new: it asks again.
    p.hooks({ UserPromptSubmit: [{ command: p.script("project2", "exit 0") }] }, "project");
    const changed = await runCli(["-p", "hi"], { cwd: p.dir, env: p.env });
    expect(changed.stderr).toContain("not running a command from this project's files");
  });

  test("SessionStart hears resume and compact, and its output after a compaction reaches the next request", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "text", text: "first answer" }] },
        { content: [{ type: "text", text: "A summary of it all." }] },
        { content: [{ type: "text", text: "after" }], expect: { lastTextMatches: "started from compact" } },
        { content: [{ type: "text", text: "later" }], expect: { lastTextMatches: "started from resume" } },
      ],
    });
    const p = hookProject(server.url);
    p.hooks({ SessionStart: [{ command: p.script("start", `for s in startup resume clear compact; do case "$IN" in *"\\"source\\":\\"$s\\""*) echo "started from $s";; esac; done`) }] });
    // one process (stream-json input): the compaction's SessionStart output goes with the next prompt
    const user = (text: string) => JSON.stringify({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" });
    const r = await runCli(["-p", "--input-format", "stream-json", "--output-format", "stream-json", "--verbose"], { cwd: p.dir, env: p.env, stdin: `${[user("hello"), user("/compact"), user("go on")].join("\n")}\n` });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const again = await runCli(["-p", "again", "--continue"], { cwd: p.dir, env: p.env });
    expect(again.stderr).toBe("");
    expect(server.checkFailures).toEqual([]);
    expect(p.received().map((j) => j.source)).toEqual(["startup", "compact", "resume"]);
    expect(p.received()[0]!.model).toEqual(expect.any(String));
  });

  test("PreCompact runs before /compact with trigger manual and the instructions", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "first answer" }] }, { content: [{ type: "text", text: "A summary of it all." }] }] });
    const p = hookProject(server.url);
    p.hooks({ PreCompact: [{ matcher: "manual", command: p.script("pre-compact", "exit 0") }, { matcher: "auto", command: p.script("never", "exit 0") }] });
    expect((await runCli(["-p", "hello"], { cwd: p.dir, env: p.env })).code).toBe(0);
    const r = await runCli(["-p", "/compact keep the todo list", "--continue"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(p.received()).toEqual([expect.objectContaining({ hook_event_name: "PreCompact", trigger: "manual", custom_instructions: "keep the todo list" })]);
  });
});

// Claude Code: `continue: false` stops Claude after the hook, for every event that has a turn to
// stop; the stopReason is shown to the user and never sent to the model.
describe("continue: false stops the whole turn", () => {
  const stopJson = (why: string) => `echo '{"continue":false,"stopReason":"${why}"}'`;
  const served = (server: { requests: Array<{ outcome: string }> }) => server.requests.filter((q) => q.outcome === "served").length;
  /** Every durable event of the run's session log, as one string. */
  const logOf = (env: Record<string, string>) => {
    const out = Bun.spawnSync(["sh", "-c", `cat $(find "${env.KHAELOR_HOME}" -name '*.jsonl')`]);
    return out.stdout.toString();
  };

  test("PreToolUse: that call and the rest of the message do not run, no request follows, the user reads the reason", async () => {
    const server = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "touch a.txt" } }, { type: "tool_use", name: "bash", input: { command: "touch b.txt" } }] },
        { content: [{ type: "text", text: "never" }] },
      ],
    });
    const p = hookProject(server.url);
    p.hooks({ PreToolUse: [{ matcher: "Bash", command: p.script("freeze", stopJson("deploy freeze until 5pm")) }] });
    const r = await runCli(["-p", "go", "--output-format", "json", ...bypass], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(served(server)).toBe(1);
    expect(existsSync(join(p.dir, "a.txt"))).toBe(false);
    expect(existsSync(join(p.dir, "b.txt"))).toBe(false);
    expect(p.received().length).toBe(1);
    expect(r.stderr).toContain("deploy freeze until 5pm");
    expect(JSON.parse(r.stdout)).toMatchObject({ subtype: "success", is_error: false, stop_reason: "hook_stopped" });
    const log = logOf(p.env);
    expect(log).toContain("Not run: a hook stopped this turn.");
    expect(log).not.toContain("deploy freeze");
  });

  test("PostToolUse: the call ran, its result is kept, and the model is not asked again", async () => {
    const server = await serve({
      turns: [{ content: [{ type: "tool_use", name: "write", input: { file_path: "w.txt", content: "w\n" } }] }, { content: [{ type: "text", text: "never" }] }],
    });
    const p = hookProject(server.url);
    p.hooks({ PostToolUse: [{ matcher: "Write", command: p.script("post", stopJson("review the write first")) }] });
    const r = await runCli(["-p", "go", "--output-format", "json", ...bypass], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(served(server)).toBe(1);
    expect(readFileSync(join(p.dir, "w.txt"), "utf8")).toBe("w\n");
    expect(r.stderr).toContain("review the write first");
    expect(JSON.parse(r.stdout)).toMatchObject({ is_error: false, stop_reason: "hook_stopped" });
    expect(logOf(p.env)).toContain('"type":"tool_result"');
  });

  test("UserPromptSubmit: the prompt is not sent; the user reads the reason", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "never" }] }] });
    const p = hookProject(server.url);
    p.hooks({ UserPromptSubmit: [{ command: p.script("ups", stopJson("out of office")) }] });
    const r = await runCli(["-p", "hello", "--output-format", "json"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(served(server)).toBe(0);
    expect(r.stderr).toContain("out of office");
    expect(JSON.parse(r.stdout)).toMatchObject({ is_error: false, stop_reason: "hook_stopped" });
  });

  test("Stop: continue:false wins over a block: the model is not sent back", async () => {
    const server = await serve({ turns: [{ content: [{ type: "text", text: "Done." }] }, { content: [{ type: "text", text: "never" }] }] });
    const p = hookProject(server.url);
    p.hooks({ Stop: [{ command: p.script("stop", `echo '{"continue":false,"stopReason":"enough for today","decision":"block","reason":"keep going"}'`) }] });
    const r = await runCli(["-p", "finish", "--output-format", "json"], { cwd: p.dir, env: p.env });
    expect(r.code).toBe(0);
    expect(served(server)).toBe(1);
    expect(r.stderr).toContain("enough for today");
    expect(JSON.parse(r.stdout)).toMatchObject({ is_error: false, result: "Done.", stop_reason: "hook_stopped" });
  });
});
