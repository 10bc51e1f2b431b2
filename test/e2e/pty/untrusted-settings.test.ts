// The app in a cloned repository whose settings would widen permissions: the trust question lists
// them in plain words beside the commands; Esc or "Do not trust" keeps them off (no bypass in the
// status line, the model's command asks), "Trust" makes them hold at once, mode included.
import { describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { answerPrompt, idle, KEY, ptyFixtures, submit } from "./harness.ts";

const fixtures = ptyFixtures();

function project(settings: object, file = "settings.local.json"): string {
  const dir = tempProject();
  writeFileSync(join(dir, "victim.txt"), "keep me\n");
  mkdirSync(join(dir, ".khaelor"));
  writeFileSync(join(dir, ".khaelor", file), JSON.stringify(settings));
  return dir;
}

describe("a project's settings in the app", () => {
  test("Esc on the trust question: bypassPermissions and allow Bash stay off; the model's rm asks", async () => {
    const dir = project({ permissions: { defaultMode: "bypassPermissions", allow: ["Bash"] } });
    const api = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "rm victim.txt" } }] },
        { content: [{ type: "text", text: "STOPPED" }] },
      ],
    });
    const s = fixtures.pty([], { cwd: dir, env: isolatedEnv(api.url), cols: 120, rows: 40 });
    await s.waitForText("and take it? (remembered for this project)");
    // A notice's continuation rows hang under its text: joined back to read its sentences.
    const question = s.all().replace(/ *\n +/g, " ");
    expect(question).toContain("This project's files set a setting that would let more happen without asking you:");
    expect(question).toContain("setting permissions.allow Bash");
    expect(question).toContain("runs any shell command without asking");
    expect(question).toContain("bypassPermissions is never taken from a file inside the project");
    s.send(KEY.esc);
    await s.waitFor(idle, "the composer");
    expect(s.screen()).not.toContain("bypass permissions");
    await submit(s, "clean up");
    await s.waitForText("Permission needed");
    await answerPrompt(s, "n");
    await s.waitForText("STOPPED");
    expect(existsSync(join(dir, "victim.txt"))).toBe(true);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("Trust: the project's acceptEdits mode and allow rule hold at once, and are remembered", async () => {
    const dir = project({ permissions: { defaultMode: "acceptEdits", allow: ["Bash(rm victim.txt)"] } }, "settings.json");
    const api = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "rm victim.txt" } }] },
        { content: [{ type: "text", text: "REMOVED" }], expect: { lastHasToolResult: { isError: false } } },
      ],
    });
    const env = isolatedEnv(api.url);
    const s = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
    await s.waitForText("and take them? (remembered for this project)");
    expect(s.all()).toContain("starts in acceptEdits mode: edits and writes files without asking");
    expect(s.all()).toContain("runs the shell command `rm victim.txt` without asking");
    s.send(KEY.enter); // "Trust"
    await s.waitFor((screen) => idle(screen) && screen.includes("accept edits"), "the composer in acceptEdits");
    await submit(s, "clean up");
    await s.waitForText("REMOVED");
    expect(existsSync(join(dir, "victim.txt"))).toBe(false);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    // Remembered: the next start asks nothing and starts in the project's mode.
    const again = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
    await again.waitFor((screen) => idle(screen) && screen.includes("accept edits"), "the composer in acceptEdits");
    expect(again.all()).not.toContain("remembered for this project");
    again.send(KEY.ctrlD);
    expect(await again.exited).toBe(0);
  }, 60_000);

  test("env: the trust question lists each variable with its value, ⚠ on NODE_OPTIONS; Trust makes it reach the model's commands at once", async () => {
    const dir = project({ env: { GREETING: "from-project", NODE_OPTIONS: "--no-warnings" }, permissions: { allow: ["Bash(echo:*)"] } }, "settings.json");
    const api = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: 'echo "g=$GREETING n=$NODE_OPTIONS"' } }] },
        { content: [{ type: "text", text: "ECHOED" }], expect: { lastHasToolResult: { isError: false, contentMatches: "g=from-project n=--no-warnings" } } },
      ],
    });
    const s = fixtures.pty([], { cwd: dir, env: isolatedEnv(api.url), cols: 160, rows: 40 });
    await s.waitForText("and take them? (remembered for this project)");
    expect(s.all()).toContain("setting env GREETING=from-project");
    expect(s.all()).toContain("⚠ sets NODE_OPTIONS for every command");
    s.send(KEY.enter); // "Trust"
    await s.waitFor(idle, "the composer");
    await submit(s, "greet");
    await s.waitForText("ECHOED");
    expect(api.checkFailures).toEqual([]);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("/permissions lists what is held back and can trust it later; the rule then holds without a restart", async () => {
    const dir = project({ permissions: { allow: ["Bash(rm victim.txt)"] } });
    const api = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "rm victim.txt" } }] },
        { content: [{ type: "text", text: "REMOVED" }], expect: { lastHasToolResult: { isError: false } } },
      ],
    });
    const s = fixtures.pty([], { cwd: dir, env: isolatedEnv(api.url), cols: 120, rows: 40 });
    await s.waitForText("and take it? (remembered for this project)");
    s.send(KEY.esc);
    await s.waitFor(idle, "the composer");
    s.type("/permissions");
    s.send(KEY.enter);
    await s.waitForText("trust what is held back?");
    expect(s.all()).toContain("Held back, as this project is not trusted for them");
    expect(s.all()).toContain("permissions.allow Bash(rm victim.txt)");
    s.send(KEY.enter); // the only choice: trust them
    await s.waitForText("Trusted: permissions.allow Bash(rm victim.txt).");
    await s.waitFor(idle, "the composer");
    await submit(s, "clean up");
    await s.waitForText("REMOVED");
    expect(existsSync(join(dir, "victim.txt"))).toBe(false);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});
