// The composer's everyday keys in the real CLI, in a pseudo-terminal against the fake Messages API:
// `!command` and shell mode (the output on screen, in the log, and before the next message in the
// request the model gets), Ctrl-R through the prompt history.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { idle, KEY, ptyFixtures } from "./harness.ts";

const fixtures = ptyFixtures();
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const shellIdle = (sc: string) => sc.includes("shell command") && !/[⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏]/.test(sc);

describe("! and shell mode", () => {
  test("`!` toggles shell mode; a command's output shows, and the model reads it with the next message; resume shows it", async () => {
    const fake = await fixtures.api({ turns: [text("ANSWER-ONE")] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitFor(idle, "the composer");
    s.type("!");
    await s.waitFor((sc) => sc.includes("! shell command"), "shell mode's marker and hint");
    s.type("echo SHELL-OUT-$((40+2))");
    await s.waitForText("! echo SHELL-OUT-$((40+2))");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("SHELL-OUT-42") && shellIdle(sc), "the command's output, shell mode still on");
    expect(s.all()).toContain("✓ ! echo SHELL-OUT-$((40+2))");
    // Nothing went to the model for it.
    expect(fake.requests.length).toBe(0);

    s.type("!");
    await s.waitFor(idle, "shell mode off again");
    s.type("what did it print?");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("ANSWER-ONE") && idle(sc), "the answer");
    const body = JSON.stringify(fake.requests[0]?.body);
    expect(body).toContain("<bash-input>echo SHELL-OUT-$((40+2))</bash-input>");
    expect(body).toContain("<bash-stdout>SHELL-OUT-42</bash-stdout>");
    expect(body.indexOf("SHELL-OUT-42")).toBeLessThan(body.indexOf("what did it print?"));
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    const id = /khaelor --resume (\S+)/.exec(s.all())?.[1] ?? "";

    const r = fixtures.pty(["--resume", id], { cwd: dir, env });
    await r.waitFor(idle, "the resumed session");
    expect(r.all()).toContain("! echo SHELL-OUT-$((40+2))");
    expect(r.all()).toContain("SHELL-OUT-42");
    r.send(KEY.ctrlD);
    expect(await r.exited).toBe(0);
  }, 60_000);

  test("Esc stops a command that runs forever; the floor refuses `rm -rf .`; Backspace leaves shell mode", async () => {
    const fake = await fixtures.api({ turns: [] });
    const dir = tempProject();
    writeFileSync(join(dir, "keep.txt"), "x");
    const s = fixtures.pty([], { cwd: dir, env: isolatedEnv(fake.url) });
    await s.waitFor(idle, "the composer");
    s.type("!echo STARTED; sleep 1000");
    await s.waitForText("! echo STARTED; sleep 1000");
    s.send(KEY.enter);
    await s.waitForText("│ STARTED");
    s.send(KEY.esc);
    await s.waitFor((sc) => /! echo STARTED; sleep 1000 .*interrupted/.test(sc) && shellIdle(sc), "the command stopped");
    s.type("rm -rf .");
    s.send(KEY.enter);
    await s.waitForText("Not run: hardline floor");
    expect(Bun.file(join(dir, "keep.txt")).size).toBe(1);
    s.send(KEY.backspace);
    await s.waitFor(idle, "shell mode left with Backspace");
    expect(fake.requests.length).toBe(0);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("Ctrl-R", () => {
  test("searches this project's prompts, then other projects'; Ctrl-R again goes older; Enter takes; Esc gives the draft back", async () => {
    const fake = await fixtures.api({ turns: [] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    // The prompt history as earlier sessions left it: this project's file and another project's.
    const histDir = join(env.KHAELOR_HOME!, "history");
    mkdirSync(histDir, { recursive: true });
    const { historyPath } = await import("../../../src/tui/app/history.ts");
    writeFileSync(historyPath(dir, env), ["deploy the alpha build", "fix the login bug", "deploy the beta build"].map((x) => JSON.stringify(x)).join("\n") + "\n");
    writeFileSync(join(histDir, "elsewhere.jsonl"), JSON.stringify("deploy from another project") + "\n");
    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitFor(idle, "the composer");
    s.type("my draft");
    await s.waitForText("› my draft");
    s.send("\x12");
    await s.waitForText("history search:");
    s.type("deploy");
    await s.waitForText("› deploy the beta build");
    s.send("\x12");
    await s.waitForText("› deploy the alpha build");
    s.send("\x12");
    await s.waitFor((sc) => sc.includes("› deploy from another project") && sc.includes("from another project  ·"), "the other project's prompt");
    s.send(KEY.esc);
    await s.waitFor((sc) => sc.includes("› my draft") && !sc.includes("history search:"), "the draft back");
    s.send("\x12");
    s.type("login");
    await s.waitForText("› fix the login bug");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("› fix the login bug") && !sc.includes("history search:"), "the match taken into the composer");
    expect(fake.requests.length).toBe(0);
    s.send(KEY.ctrlC);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("/init and /review", () => {
  test("/review sends the work tree's diff; /init its prompt (updating the CLAUDE.md there); in an empty directory /init says so", async () => {
    const fake = await fixtures.api({ turns: [text("REVIEWED"), text("INITED")] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const git = (...args: string[]) => Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@t", ...args], { cwd: dir });
    git("init", "-q");
    writeFileSync(join(dir, "CLAUDE.md"), "# notes\n");
    writeFileSync(join(dir, "calc.py"), "def add(a, b):\n    return a + b\n");
    git("add", ".");
    git("commit", "-qm", "first");
    writeFileSync(join(dir, "calc.py"), "def add(a, b):\n    return a - b\n");
    const s = fixtures.pty([], { cwd: dir, env });
    await s.waitFor(idle, "the composer");
    s.type("/review");
    await s.waitForText("› /review");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("REVIEWED") && idle(sc), "the review");
    const review = JSON.stringify(fake.requests[0]?.body);
    expect(review).toContain("/review: review the uncommitted changes");
    expect(review).toContain("-    return a + b\\n+    return a - b");
    s.type("/init");
    await s.waitForText("› /init");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("INITED") && idle(sc), "/init's answer");
    const init = JSON.stringify(fake.requests[1]?.body);
    expect(init).toContain("/init: study this repository and update its CLAUDE.md");
    // The transcript shows the commands as typed, not the prompts made from them.
    expect(s.all()).not.toContain("review the uncommitted changes");
    expect(s.all()).not.toContain("study this repository");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    // And so does the session resumed.
    const resumed = fixtures.pty(["--continue"], { cwd: dir, env });
    await resumed.waitFor((sc) => sc.includes("INITED") && idle(sc), "the resumed session");
    expect(resumed.all()).toMatch(/\/review\b/);
    expect(resumed.all()).toMatch(/\/init\b/);
    expect(resumed.all()).not.toContain("study this repository");
    expect(resumed.all()).not.toContain("review the uncommitted changes");
    resumed.send(KEY.ctrlD);
    expect(await resumed.exited).toBe(0);

    const empty = fixtures.pty([], { cwd: tempProject(), env });
    await empty.waitFor(idle, "the composer");
    empty.type("/init");
    await empty.waitForText("› /init");
    empty.send(KEY.enter);
    // (Joined: the notice may wrap onto rows of its own.)
    await empty.waitFor((sc) => sc.replace(/ *\n */g, " ").includes("there is nothing to study"), "the empty directory's message");
    expect(fake.requests.length).toBe(2);
    empty.send(KEY.ctrlD);
    expect(await empty.exited).toBe(0);
  }, 60_000);
});

describe("/context", () => {
  test("shows the window by category, counted by the API's token counting endpoint", async () => {
    const fake = await fixtures.api({ turns: [text("ANSWER-ONE")] });
    const dir = tempProject();
    writeFileSync(join(dir, "AGENTS.md"), "Use tabs. Run `make test` before finishing.\n");
    const s = fixtures.pty([], { cwd: dir, env: isolatedEnv(fake.url), cols: 120 });
    await s.waitFor(idle, "the composer");
    s.type("hello");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("ANSWER-ONE") && idle(sc), "the answer");
    s.type("/context");
    await s.waitForText("› /context");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("Compaction reserve") && idle(sc), "the report");
    const screen = s.screen();
    expect(screen).toMatch(/Context: [\d,]+ of [\d,]+ tokens \([\d.<]+%\)/);
    expect(screen).toContain("Counted now by the API's token counting endpoint");
    expect(screen).toMatch(/System prompt +[\d,]+/);
    expect(screen).toMatch(/Built-in tools +[\d,]+ .*9 tools/);
    // The file's path follows on its own row when it is too long for this one.
    expect(screen).toMatch(/Instruction files +[\d,]+ [^\n]*(\n +\S*)?AGENTS\.md/);
    expect(screen).toMatch(/Messages +[\d,]+/);
    expect(screen).toMatch(/Free space +[\d,]+/);
    expect(fake.requests.filter((r) => r.path === "/v1/messages/count_tokens").length).toBeGreaterThanOrEqual(5);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});
