// Leaving a session and stopping work: what /clear and exit say about the processes they stop,
// and Ctrl-C while a command runs (it interrupts; it never arms the exit while work is running).
// The real CLI in a pty against the fake Messages API; every wait is on the screen.
import { describe, expect, test } from "bun:test";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { KEY, SPINNER, idle, ptyFixtures, submit as ask } from "./harness.ts";

const fixtures = ptyFixtures();


const startProcess = (name: string, command: string) => ({ content: [{ type: "tool_use" as const, name: "process", input: { action: "start", name, command } }] });
const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

describe("processes stopped with their session", () => {
  test("/clear names each process it stopped; exit names them before the resume line; ids are short", async () => {
    const fake = await fixtures.api({
      turns: [startProcess("ticker", "sleep 300"), text("STARTED-ONE"), startProcess("ticker2", "sleep 301"), text("STARTED-TWO")],
    });
    const s = fixtures.pty(["--allowedTools", "Process"], { env: isolatedEnv(fake.url), cwd: tempProject() });
    await ask(s, "start it");
    await s.waitFor((sc) => sc.includes("STARTED-ONE") && idle(sc) && sc.includes("1 process"), "the process running");

    await ask(s, "/clear");
    await s.waitForText("stopped process ticker (sleep 300)");
    await s.waitFor(idle, "the new session");
    const all = s.all();
    expect(all).toMatch(/New session [0-9a-f]{8}\. The previous one, [0-9a-f]{8} \(start it\), stays resumable with:\nkhaelor --resume [0-9a-f]{8}\n/);
    expect(all.indexOf("stopped process ticker")).toBeLessThan(all.indexOf("New session"));
    expect(s.screen()).not.toContain("1 process");

    await ask(s, "start another");
    await s.waitFor((sc) => sc.includes("STARTED-TWO") && idle(sc) && sc.includes("1 process"), "the second process running");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    const out = s.all();
    expect(out).toMatch(/stopped process ticker2 \(sleep 301\)\nResume this session with: khaelor --resume /);
    expect(out.split("stopped process ticker (sleep 300)").length).toBe(2);
  }, 60_000);
});

describe("a session nobody spoke in", () => {
  test("is not offered for resuming, by /clear or on exit (closing it removed it)", async () => {
    const fake = await fixtures.api({ turns: [] });
    const s = fixtures.pty([], { env: isolatedEnv(fake.url), cwd: tempProject() });
    await ask(s, "/clear");
    await s.waitForText("Nothing was said in the previous one, so it was not kept.");
    await s.waitFor(idle, "the new session");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
    expect(s.all()).toContain("Nothing was said in this session, so it was not kept.");
    expect(s.all()).not.toContain("khaelor --resume");
  }, 60_000);
});

describe("Ctrl-C", () => {
  test("while a command runs it only interrupts, however often it is pressed; idle, twice exits", async () => {
    const fake = await fixtures.api({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "sleep 30" } }] }] });
    const s = fixtures.pty(["--allowedTools", "Bash"], { env: isolatedEnv(fake.url), cwd: tempProject() });
    let exited = false;
    void s.exited.then(() => (exited = true));
    await ask(s, "run it");
    await s.waitFor((sc) => sc.includes("sleep 30") && SPINNER.test(sc), "the command running");
    // Two presses in a row, as at a command that seems stuck.
    s.send(KEY.ctrlC + KEY.ctrlC);
    await s.waitFor((sc) => sc.includes("interrupted") && idle(sc), "the interruption");
    expect(exited).toBe(false);
    expect(s.screen()).not.toContain("press Ctrl-C again");

    s.send(KEY.ctrlC);
    await s.waitForText("press Ctrl-C again to exit");
    s.send(KEY.ctrlC);
    expect(await s.exited).toBe(0);
  }, 60_000);
});
