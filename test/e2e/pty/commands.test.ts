// Slash commands in the real CLI, in a pseudo-terminal against the fake Messages API: each test
// checks what the screen shows and what the command did (the request sent, the file on disk).
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import type { FakeApi } from "../../support/fake-api.ts";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { answerPrompt, KEY, type PtySession, idle, ptyFixtures, unwrap } from "./harness.ts";

const fixtures = ptyFixtures();

const api = fixtures.api;

const pty = (args: string[], env: Record<string, string>, cwd: string): PtySession => fixtures.pty(args, { cwd, env });

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });
const bodyOf = (fake: FakeApi, i: number) => JSON.stringify(fake.requests[i]?.body ?? null);

async function command(s: PtySession, line: string, shows: string): Promise<void> {
  s.type(line);
  await s.waitForText(`› ${line}`);
  s.send(KEY.enter);
  await s.waitForText(shows);
}

describe("sessions and models", () => {
  test("/sessions lists this project's sessions; /resume picks one; /model switches, and the next request uses it", async () => {
    const fake = await api({ turns: [text("ANSWER-ONE"), text("ANSWER-TWO")] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();

    const a = pty([], env, dir);
    await a.waitFor(idle, "the composer");
    a.type("first question");
    a.send(KEY.enter);
    await a.waitFor((sc) => sc.includes("ANSWER-ONE") && idle(sc), "the first answer");
    a.send(KEY.ctrlD);
    expect(await a.exited).toBe(0);
    const idA = /khaelor --resume (\S+)/.exec(a.all())?.[1] ?? "";
    expect(idA).not.toBe("");

    const b = pty([], env, dir);
    await b.waitFor(idle, "the composer");
    await command(b, "/sessions", "Sessions of");
    expect(b.screen()).toContain(idA.slice(0, 8));

    await command(b, "/resume", "Resume which session?");
    expect(b.screen()).toContain(idA.slice(0, 8));
    b.send(KEY.enter);
    await b.waitForText(`Resumed session ${idA.slice(0, 8)} (first question)`);
    await b.waitFor(idle, "the resumed session");
    expect(b.all()).toContain("ANSWER-ONE");

    await command(b, "/model", "Model (Enter switches");
    expect(b.screen()).toMatch(/claude-opus-5-5 +1M context/);
    expect(b.screen()).not.toContain("1000k");
    b.send(KEY.down);
    await b.waitForText("❯ claude-opus-5-5");
    b.send(KEY.enter);
    await b.waitForText("Model: claude-opus-5-5");
    await b.waitFor((sc) => sc.split("\n").some((l) => l.startsWith("⏵") && l.includes("claude-opus-5-5")), "the model in the status line");

    b.type("second question");
    b.send(KEY.enter);
    await b.waitFor((sc) => sc.includes("ANSWER-TWO") && idle(sc), "the second answer");
    const last = fake.requests[fake.requests.length - 1]!.body as { model: string; messages: unknown[] };
    expect(last.model).toBe("claude-opus-5-5");
    // The resumed conversation went with it.
    expect(JSON.stringify(last.messages)).toContain("first question");
    b.send(KEY.ctrlD);
    expect(await b.exited).toBe(0);
  }, 60_000);

  test("/compact summarises the conversation with the user's instructions", async () => {
    const fake = await api({ turns: [text("ANSWER-ONE"), text("ANSWER-TWO"), text("SUMMARY: two questions were asked.")] });
    const s = pty([], isolatedEnv(fake.url), tempProject());
    await s.waitFor(idle, "the composer");
    for (const q of ["one", "two"]) {
      s.type(`question ${q}`);
      s.send(KEY.enter);
      await s.waitFor((sc) => sc.includes(`ANSWER-${q.toUpperCase()}`) && idle(sc), `answer ${q}`);
    }
    await command(s, "/compact keep only the numbers", "Conversation compacted (manual)");
    await s.waitFor(idle, "the composer after compacting");
    expect(fake.requests.length).toBe(3);
    expect(bodyOf(fake, 2)).toContain("keep only the numbers");
    expect(bodyOf(fake, 2)).toContain("question one");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("work-tree commands", () => {
  test("/diff shows the agent's edit; /undo puts the file back", async () => {
    const fake = await api({
      turns: [
        { content: [{ type: "tool_use", name: "read", input: { file_path: "notes.txt" } }] },
        { content: [{ type: "tool_use", name: "edit", input: { file_path: "notes.txt", old_string: "beta", new_string: "BETA-EDITED" } }] },
        { content: [{ type: "tool_use", name: "write", input: { file_path: "made.txt", content: "new\n" } }] },
        text("EDIT-DONE"),
      ],
    });
    const dir = tempProject();
    const file = join(dir, "notes.txt");
    writeFileSync(file, "alpha\nbeta\ngamma\n");
    const s = pty(["--permission-mode", "acceptEdits"], isolatedEnv(fake.url), dir);
    await s.waitFor(idle, "the composer");
    s.type("edit it");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("EDIT-DONE") && idle(sc), "the edit");
    expect(readFileSync(file, "utf8")).toBe("alpha\nBETA-EDITED\ngamma\n");

    await command(s, "/diff", "Changes since the session started: 2 files");
    await s.waitForText("BETA-EDITED");
    expect(s.screen()).toContain("notes.txt");
    // The footer names what the pager shows.
    expect(s.screen()).toContain(" changes since the session started ");
    expect(s.screen()).not.toContain(" transcript ");
    s.send(KEY.esc);
    await s.waitFor(idle, "the pager to close");

    await command(s, "/undo", "Undid the last turn: removed made.txt; restored notes.txt");
    expect(readFileSync(file, "utf8")).toBe("alpha\nbeta\ngamma\n");
    expect(existsSync(join(dir, "made.txt"))).toBe(false);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("with snapshots off (the home directory), the notice shows at startup and /undo says why", async () => {
    const fake = await api({ turns: [] });
    const env = isolatedEnv(fake.url);
    const s = pty([], env, env.HOME!);
    await s.waitFor(idle, "the composer");
    expect(s.all()).toContain("/undo and /diff are off:");
    await command(s, "/undo", "/undo is off:");
    expect(s.all()).toContain("too broad to snapshot");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("permissions", () => {
  test("allow always into the user settings file (one key); /permissions lists the rule and removes it from the file", async () => {
    const fake = await api({
      turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "touch allowed.txt" } }] }, text("PERM-DONE")],
    });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const userFile = join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json");
    const s = pty([], env, dir);
    await s.waitFor(idle, "the composer");
    s.type("make a file");
    s.send(KEY.enter);
    await s.waitForText("Permission needed");
    const panel = s.screen();
    expect(panel).toContain("[a] in .khaelor/settings.local.json");
    expect(panel).toContain("[s] for this session only");
    expect(panel).toContain("[u] in ~/config/khaelor/settings.json");
    await answerPrompt(s, "u");
    await s.waitFor((sc) => sc.includes("PERM-DONE") && idle(sc), "the answer after the call");
    expect(existsSync(join(dir, "allowed.txt"))).toBe(true);
    const saved = (JSON.parse(readFileSync(userFile, "utf8")) as { permissions: { allow: string[] } }).permissions.allow;
    expect(saved.length).toBe(1);
    const rule = saved[0]!;
    expect(rule).toStartWith("Bash(");
    expect(existsSync(join(dir, ".khaelor", "settings.local.json"))).toBe(false);

    await command(s, "/permissions", "Remove a rule?");
    expect(unwrap(s.all())).toContain(`allow ${rule}  (user settings: ${userFile})`);
    // The mode is named as the status line names it.
    expect(s.all()).toContain("Permission mode: ask before edits");
    await s.waitForText(`❯ allow ${rule}`);
    s.send(KEY.enter);
    await s.waitForText(`Removed allow rule ${rule}`);
    expect((JSON.parse(readFileSync(userFile, "utf8")) as { permissions: { allow: string[] } }).permissions.allow).toEqual([]);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("a project-local rule is listed with its file and removed from it", async () => {
    const fake = await api({ turns: [] });
    const dir = tempProject();
    mkdirSync(join(dir, ".khaelor"));
    const local = join(dir, ".khaelor", "settings.local.json");
    writeFileSync(local, JSON.stringify({ permissions: { allow: ["Bash(npm test *)"] }, other: 1 }));
    const s = pty([], isolatedEnv(fake.url), dir);
    // A rule in the project's own files holds only once the project is trusted.
    await s.waitForText("runs the shell command `npm test …` without asking");
    s.send(KEY.enter); // "Trust"
    await s.waitFor(idle, "the composer");
    await command(s, "/permissions", "Remove a rule?");
    expect(s.all()).toContain("allow Bash(npm test *)  (project-local settings:");
    s.send(KEY.enter);
    await s.waitForText("Removed allow rule Bash(npm test *)");
    const after = JSON.parse(readFileSync(local, "utf8")) as { permissions: { allow: string[] }; other: number };
    expect(after.permissions.allow).toEqual([]);
    expect(after.other).toBe(1);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("what is and is not a command", () => {
  test("an unknown /word is not sent to the model; a path is; a chooser owns the keyboard; /clear keeps the model", async () => {
    const fake = await api({ turns: [text("PATH-ANSWER"), text("AFTER-CLEAR")] });
    const s = pty([], isolatedEnv(fake.url), tempProject());
    await s.waitFor(idle, "the composer");
    await command(s, "/foo bar", "Unknown command /foo: /help lists them");
    expect(fake.requests.length).toBe(0);
    // The text comes back to be fixed.
    expect(s.screen()).toContain("› /foo bar");
    s.send(KEY.ctrlU);
    await s.waitFor(idle, "the composer cleared");
    s.type("/usr/bin/env fails");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("PATH-ANSWER") && idle(sc), "the answer to the path");
    expect(bodyOf(fake, 0)).toContain("/usr/bin/env fails");

    // Typed ahead of the /model chooser: its keys filter it and never reach the composer.
    s.type("/model");
    await s.waitForText("› /model");
    s.send(KEY.enter);
    s.type("opus");
    await s.waitForText("filter: opus");
    expect(s.screen()).toContain("❯ claude-opus-5-5");
    s.send(KEY.enter);
    await s.waitForText("Model: claude-opus-5-5");
    await s.waitFor(idle, "the chooser closed");
    expect(s.screen()).not.toContain("opus›");
    // Typed ahead: a command after /model runs as a command; nothing reaches the model.
    s.type("/model\r/sessions\r");
    await s.waitForText("Sessions of");
    await s.waitFor(idle, "the composer after /sessions");
    expect(fake.requests.length).toBe(1);

    await command(s, "/clear", "stays resumable with:");
    expect(s.all()).toMatch(/khaelor --resume [0-9a-f-]{8,}/);
    await s.waitFor((sc) => sc.split("\n").some((l) => l.startsWith("⏵") && l.includes("claude-opus-5-5")), "the model kept after /clear");
    s.type("next");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("AFTER-CLEAR") && idle(sc), "the answer after /clear");
    expect((fake.requests[1]!.body as { model: string }).model).toBe("claude-opus-5-5");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("--resume without an id opens a chooser of this project's sessions", async () => {
    const fake = await api({ turns: [text("FIRST-RUN-ANSWER")] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const a = pty([], env, dir);
    await a.waitFor(idle, "the composer");
    a.type("remember this");
    a.send(KEY.enter);
    await a.waitFor((sc) => sc.includes("FIRST-RUN-ANSWER") && idle(sc), "the first answer");
    a.send(KEY.ctrlD);
    expect(await a.exited).toBe(0);

    const b = pty(["--resume"], env, dir);
    await b.waitForText("Resume which session?");
    await b.waitForText("1 turn");
    expect(b.screen()).toContain("no session open yet");
    expect(b.screen()).not.toContain("starting the session");
    // Typing filters the chooser, and the prompt line says so (it does not claim to take the text).
    expect(b.screen()).toContain("› type to filter the list above");
    expect(b.screen()).not.toContain("type ahead");
    let exited = false;
    void b.exited.then(() => (exited = true));
    b.type("zzz");
    await b.waitForText("filter: zzz");
    await b.waitForText("(nothing matches)");
    // Esc undoes the filter first; it leaves only from an empty filter.
    b.send(KEY.esc);
    await b.waitFor((sc) => !sc.includes("filter: zzz") && sc.includes("1 turn"), "the filter cleared");
    expect(exited).toBe(false);
    b.type("remem");
    await b.waitForText("filter: remem");
    b.send(KEY.enter);
    await b.waitFor(idle, "the resumed session");
    expect(b.all()).toContain("FIRST-RUN-ANSWER");
    b.send(KEY.ctrlD);
    expect(await b.exited).toBe(0);

    const c = pty(["--resume"], env, dir);
    await c.waitForText("Resume which session?");
    c.send(KEY.esc);
    expect(await c.exited).toBe(0);
  }, 60_000);
});
