// The permission prompt in the real CLI, in a pseudo-terminal against the fake Messages API: keys
// typed before it appeared never answer it; on a short terminal its keys stay visible and Ctrl-T
// shows all of what is asked; invisible characters in a diff show as markers; Esc denies and stops the turn.
import { describe, expect, test } from "bun:test";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { SPINNER, answerPrompt, KEY, promptArmed, type PtySession, idle, ptyFixtures } from "./harness.ts";

const fixtures = ptyFixtures();

const api = fixtures.api;
const pty = (args: string[], env: Record<string, string>, cwd: string, cols = 100, rows = 30): PtySession => fixtures.pty(args, { cwd, env, cols, rows });

const text = (t: string) => ({ content: [{ type: "text" as const, text: t }] });

describe("keys typed ahead", () => {
  test("a burst of typing that runs into the prompt goes to the composer, not to the prompt's keys", async () => {
    const fake = await api({
      turns: [
        {
          pacing: { textChunk: 4, delayMs: 20 },
          content: [{ type: "text", text: `STREAMING ${"words ".repeat(25)}` }, { type: "tool_use", name: "bash", input: { command: "touch typed.txt" } }],
        },
        text("AFTER-DENIAL"),
      ],
    });
    const env = isolatedEnv(fake.url);
    const dir = tempProject();
    const s = pty([], env, dir);
    await s.waitFor(idle, "the composer");
    s.type("go");
    s.send(KEY.enter);
    await s.waitForText("STREAMING");
    for (const ch of "also please keep it ") s.type(ch);
    await s.waitForText("Permission needed");
    // The rest of the sentence, key by key, as the prompt appears: "s" is also "for this session
    // only", "a" and "u" save rules to files, "n" denies, "y" allows.
    for (const ch of "short and safe, yes") s.type(ch);
    await s.waitFor(() => promptArmed(s), "the prompt to take keys");
    expect(s.screen()).toContain("Permission needed");
    expect(s.screen()).toContain("What you typed meanwhile went to your message");
    expect(existsSync(join(dir, "typed.txt"))).toBe(false);
    await answerPrompt(s, "n");
    // The turn's end, not only its answer: the composer's mark turns from » (queued) back to ›.
    await s.waitFor((sc) => sc.includes("AFTER-DENIAL") && !SPINNER.test(sc) && sc.includes("› also please"), "the turn's end after the denial");
    expect(s.screen()).toContain("› also please keep it short and safe, yes");
    expect(s.all()).not.toContain("Saved rule");
    expect(existsSync(join(dir, "typed.txt"))).toBe(false);
    expect(existsSync(join(dir, ".khaelor", "settings.local.json"))).toBe(false);
    const toolResult = JSON.stringify(fake.requests[1]?.body ?? null);
    expect(toolResult).toContain("denied");
    s.send(KEY.ctrlC);
    await s.waitFor((sc) => !sc.includes("also please"), "the composer cleared");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("the prompt on a short terminal", () => {
  test("at 80×10 an edit shows part of its diff, the keys, and Ctrl-T shows the whole diff", async () => {
    const dir = tempProject();
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
    await Bun.write(join(dir, "a.txt"), `${lines.join("\n")}\n`);
    const fake = await api({
      turns: [
        // Read first: an edit of a file not read fails before anyone is asked.
        { content: [{ type: "tool_use", name: "read", input: { file_path: "a.txt" } }] },
        { content: [{ type: "tool_use", name: "edit", input: { file_path: "a.txt", old_string: lines.slice(5, 25).join("\n"), new_string: lines.slice(5, 25).map((l) => `${l} CHANGED`).join("\n") } }] },
        text("EDIT-DONE"),
      ],
    });
    const s = pty([], isolatedEnv(fake.url), dir, 80, 10);
    await s.waitFor((sc) => sc.includes("› "), "the composer");
    s.type("change it");
    s.send(KEY.enter);
    await s.waitForText("[y] allow once");
    const panel = s.screen();
    expect(panel).toMatch(/… \d+ more rows · Ctrl-T shows it all/);
    expect(panel).toContain("[n] deny");
    expect(panel).toContain("line 3");
    s.send(KEY.ctrlT);
    await s.waitForText(" permission prompt ");
    s.send(KEY.end);
    await s.waitForText("line 25 CHANGED");
    s.send(KEY.esc);
    await s.waitFor((sc) => !sc.includes(" permission prompt ") && sc.includes("[y] allow once"), "the prompt again");
    await answerPrompt(s, "y");
    await s.waitFor((sc) => sc.includes("EDIT-DONE"), "the answer after the edit");
    expect(s.all()).toContain("✓ edit a.txt");
    expect(s.all()).not.toContain("denied");
    expect(await Bun.file(join(dir, "a.txt")).text()).toContain("line 25 CHANGED");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("at 20×6 the allow and deny keys are on screen", async () => {
    const fake = await api({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "touch tiny.txt" } }] }, text("OK")] });
    const dir = tempProject();
    const s = pty([], isolatedEnv(fake.url), dir, 20, 6);
    await s.waitFor((sc) => sc.includes("› "), "the composer");
    s.type("x");
    s.send(KEY.enter);
    await s.waitFor((sc) => sc.includes("[y] allow") && sc.includes("[n] deny"), "the keys");
    await answerPrompt(s, "y");
    await s.waitFor(() => existsSync(join(dir, "tiny.txt")), "the command to run");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("the diff you approve is the diff that lands", () => {
  // The model's old_string uses 2 spaces where the file uses 4: the edit matches with flexible
  // indentation and re-indents new_string. The panel once rebuilt the diff itself from the model's
  // text ("approximate match") and showed a line that never landed.
  test("an edit with indentation the model got wrong shows, before it is allowed, exactly the lines it writes", async () => {
    const dir = tempProject();
    const file = ["export function size(n) {", "    if (n < 0) {", '        throw new Error("bad");', "    }", "    return n;", "}", ""].join("\n");
    await Bun.write(join(dir, "size.js"), file);
    const fake = await api({
      turns: [
        { content: [{ type: "tool_use", name: "read", input: { file_path: "size.js" } }] },
        {
          content: [
            {
              type: "tool_use",
              name: "edit",
              input: { file_path: "size.js", old_string: '  if (n < 0) {\n    throw new Error("bad");\n  }', new_string: '  if (n < 0) {\n    throw new RangeError("negative size");\n  }' },
            },
          ],
        },
        text("EDIT-DONE"),
      ],
    });
    const s = pty([], isolatedEnv(fake.url), dir, 100, 30);
    await s.waitFor(idle, "the composer");
    s.type("fix it");
    s.send(KEY.enter);
    await s.waitForText("[y] allow once");
    const panel = s.screen();
    expect(panel).not.toContain("approximate");
    // The panel's rows for the changed lines: the gutter ends in "+ " or "- ", then the line as it is.
    const row = (text: string) => panel.split("\n").find((l) => l.includes(text)) ?? "";
    expect(row('Error("bad")')).toContain('- ' + '        throw new Error("bad");');
    const added = row("RangeError");
    await answerPrompt(s, "y");
    await s.waitFor((sc) => sc.includes("EDIT-DONE"), "the answer after the edit");
    const landed = await Bun.file(join(dir, "size.js")).text();
    expect(landed).toBe(file.replace('throw new Error("bad")', 'throw new RangeError("negative size")'));
    // The line that landed is the line the panel showed, indentation included.
    const landedLine = landed.split("\n").find((l) => l.includes("RangeError"))!;
    expect(landedLine).toBe('        throw new RangeError("negative size");');
    expect(added).toContain(`+ ${landedLine}`);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("invisible characters in what you approve", () => {
  // Trojan Source (CVE-2021-42574): a right-to-left override makes the code read differently from
  // what runs, a zero-width space splits an identifier unseen. The terminal draws neither, so the
  // panel shows them as markers in the warning colour and says how many the change contains.
  test("an edit carrying bidi and zero-width characters shows each as a marker, with the count, and lands byte for byte", async () => {
    const dir = tempProject();
    const file = 'const role = "user";\nif (role === "admin") grant();\n';
    await Bun.write(join(dir, "auth.ts"), file);
    const payload = 'if (role === "admin\u202e ") grant\u200b();';
    const fake = await api({
      turns: [
        { content: [{ type: "tool_use", name: "read", input: { file_path: "auth.ts" } }] },
        { content: [{ type: "tool_use", name: "edit", input: { file_path: "auth.ts", old_string: 'if (role === "admin") grant();', new_string: payload } }] },
        text("EDIT-DONE"),
      ],
    });
    const s = pty([], isolatedEnv(fake.url), dir, 100, 30);
    await s.waitFor(idle, "the composer");
    s.type("tidy it");
    s.send(KEY.enter);
    await s.waitForText("[y] allow once");
    const panel = s.screen();
    expect(panel).toContain("this change contains 2 invisible characters (bidi controls, zero-width)");
    const added = panel.split("\n").find((l) => l.includes("+ if")) ?? "";
    expect(added).toContain('+ if (role === "admin⟨RLO⟩ ") grant⟨ZWSP⟩();');
    // The marker is drawn in the warning colour, at the column the layout measured.
    const lines = s.term.lines();
    const y = lines.findIndex((l) => l.includes("⟨RLO⟩"));
    const x = lines[y]!.indexOf("⟨RLO⟩");
    expect(s.term.cellStyle(y, x)?.fg).toBe("index:3");
    expect(s.term.cellText(y, x + 5)).toBe(" ");
    await answerPrompt(s, "y");
    await s.waitFor((sc) => sc.includes("EDIT-DONE"), "the answer after the edit");
    // What was approved is what landed: the file keeps the characters the markers stood for.
    expect(await Bun.file(join(dir, "auth.ts")).text()).toBe(file.replace('if (role === "admin") grant();', payload));
    // The transcript's diff of the applied edit shows them too.
    const all = s.all();
    const row = all.indexOf("✓ edit auth.ts");
    expect(row).toBeGreaterThan(-1);
    expect(all.indexOf("this change contains 2 invisible characters", row)).toBeGreaterThan(row);
    expect(all.indexOf("grant⟨ZWSP⟩();", row)).toBeGreaterThan(row);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});

describe("leaving the prompt", () => {
  test("Esc denies and stops the turn: the model is not asked again", async () => {
    const fake = await api({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "touch esc.txt" } }] }, text("SHOULD-NOT-RUN")] });
    const dir = tempProject();
    const s = pty([], isolatedEnv(fake.url), dir);
    await s.waitFor(idle, "the composer");
    s.type("do it");
    s.send(KEY.enter);
    await s.waitFor(() => promptArmed(s), "the prompt");
    s.send(KEY.esc);
    await s.waitFor((sc) => idle(sc) && !sc.includes("Permission needed"), "the turn to end");
    expect(fake.requests.length).toBe(1);
    expect(s.all()).not.toContain("SHOULD-NOT-RUN");
    expect(existsSync(join(dir, "esc.txt"))).toBe(false);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("Ctrl-C at the prompt denies and stops the turn without arming the exit; idle, twice exits", async () => {
    const fake = await api({ turns: [{ content: [{ type: "tool_use", name: "bash", input: { command: "touch cc.txt" } }] }, text("SHOULD-NOT-RUN")] });
    const s = pty([], isolatedEnv(fake.url), tempProject());
    await s.waitFor(idle, "the composer");
    s.type("do it");
    s.send(KEY.enter);
    await s.waitFor(() => promptArmed(s), "the prompt");
    s.send(KEY.ctrlC);
    await s.waitFor((sc) => idle(sc) && !sc.includes("Permission needed"), "the turn to end");
    expect(s.screen()).not.toContain("press Ctrl-C again");
    s.send(KEY.ctrlC);
    await s.waitForText("press Ctrl-C again");
    s.send(KEY.ctrlC);
    expect(await s.exited).toBe(0);
    expect(fake.requests.length).toBe(1);
  }, 60_000);
});
