// Typing in /resume searches what was said in the sessions (not only their titles), in the real
// app in a pseudo-terminal: the hit shows its matching line, Ctrl-A switches to every project and
// back, a corrupt log line is skipped and said, and Enter resumes the session found.
import { describe, expect, test } from "bun:test";
import { appendFileSync } from "node:fs";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { assistant, text, user } from "../../session/make-events.ts";
import { writeSession } from "../../export/support.ts";
import { idle, KEY, ptyFixtures } from "./harness.ts";

const fixtures = ptyFixtures();

describe("/resume search", () => {
  test("finds a session by a word of an answer, shows the line, switches projects with Ctrl-A, resumes it", async () => {
    const fake = await fixtures.api({ turns: [] });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const other = tempProject("khaelor-other-");
    const store = { KHAELOR_HOME: env.KHAELOR_HOME! };
    const hit = writeSession(dir, store, [user("Fix the build"), assistant([text("Checked the lockfile.\nThe kumquat cache was stale, so I cleared it.")])]);
    writeSession(dir, store, [user("Rename the module"), assistant([text("Renamed it.")])]);
    const far = writeSession(other, store, [user("Plant trees"), assistant([text("A kumquat tree, then.")])]);
    appendFileSync(hit.path, "this line is not an event\n");

    // Wide enough for a row of another project, its path and its matching line.
    const s = fixtures.pty([], { cwd: dir, env, cols: 160 });
    await s.waitFor(idle, "the composer");
    s.type("/resume");
    await s.waitForText("› /resume");
    s.send(KEY.enter);
    await s.waitForText("Ctrl-A all projects");
    // Said once the logs are read (between keys, after the chooser opened).
    await s.waitForText("1 unreadable line in 1 session log of this project was skipped");
    expect(s.screen()).toContain("Rename the module");
    s.type("KUMQUAT");
    await s.waitForText("filter: KUMQUAT");
    // The title says nothing of kumquats: the answer does, and its line is shown.
    await s.waitForText("› The kumquat cache was stale, so I cleared it.");
    expect(s.screen()).toContain("Fix the build");
    expect(s.screen()).not.toContain("Rename the module");
    expect(s.screen()).not.toContain("Plant trees");
    s.send(KEY.ctrlA);
    await s.waitForText("Resume from any project?");
    await s.waitForText("› A kumquat tree, then.");
    expect(s.screen()).toContain(other);
    expect(s.screen()).toContain("filter: KUMQUAT");
    s.send(KEY.ctrlA);
    await s.waitFor((sc) => !sc.includes("Plant trees") && sc.includes("Ctrl-A all projects"), "this project only again");
    s.send(KEY.enter);
    await s.waitForText(`Resumed session ${hit.id.slice(0, 8)}`);
    await s.waitFor(idle, "the resumed session");
    expect(s.all()).toContain("The kumquat cache was stale");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    expect(far.id).not.toBe(hit.id);
  }, 60_000);
});
