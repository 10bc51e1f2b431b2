// Claude Code's keybindings.json in the real app: ~/.claude/keybindings.json ($CLAUDE_CONFIG_DIR)
// and KHAELOR's own file, KHAELOR's winning where both bind a key; a key rebound to an action, a
// key unbound, a chord; what cannot be used said in a notice naming the file, the key and the
// action; /keybindings writing a skeleton, opening it in $EDITOR and applying what was saved.
import { describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { answerPrompt, idle, KEY, ptyFixtures, submit } from "./harness.ts";

const fixtures = ptyFixtures();
const CTRL_X = "\x18";

function script(dir: string, name: string, body: string): string {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}

function put(file: string, json: object): void {
  mkdirSync(join(file, ".."), { recursive: true });
  writeFileSync(file, JSON.stringify(json));
}

describe("keybindings", () => {
  test("rebound, unbound and chorded keys; KHAELOR's file wins; what cannot be used is said", async () => {
    const api = await fixtures.api({ turns: [] });
    const ccDir = tempProject();
    const env = isolatedEnv(api.url, { VISUAL: "", CLAUDE_CONFIG_DIR: ccDir });
    env.EDITOR = script(env.HOME!, "editor.sh", `printf 'FROM-EDITOR' > "$1"`);
    put(join(ccDir, "keybindings.json"), {
      bindings: [
        { context: "Chat", bindings: { "ctrl+e": "chat:clearInput", "ctrl+u": null, "ctrl+x ctrl+k": "chat:clearInput", "ctrl+s": "chat:stash" } },
        { context: "Chat", bindings: { "ctrl+y": "chat:teleport", "hyper+q": "chat:submit" } },
        { context: "Tabs", bindings: { tab: "tabs:next" } },
      ],
    });
    put(join(env.XDG_CONFIG_HOME!, "khaelor", "keybindings.json"), { bindings: [{ context: "Chat", bindings: { "ctrl+e": "chat:externalEditor" } }] });
    const s = fixtures.pty([], { cwd: tempProject(), env, cols: 160, rows: 40 });
    await s.waitFor(idle, "the composer");
    const shown = s.all().replace(/\s+/g, " ");
    const ccFile = join(ccDir, "keybindings.json");
    expect(shown).toContain(`${ccFile}: ctrl+s → chat:stash (Chat): not available in KHAELOR`);
    expect(shown).toContain(`${ccFile}: ctrl+y → chat:teleport (Chat): unknown action`);
    expect(shown).toContain(`${ccFile}: cannot read the key "hyper+q"`);
    expect(shown).toContain(`${ccFile}: the Tabs context is not available in KHAELOR`);

    // Unbound: Ctrl-U (KHAELOR's kill to the line's start) does nothing.
    s.type("keep this");
    await s.waitForText("› keep this");
    s.send(KEY.ctrlU);
    // Ctrl-E: KHAELOR's file (the editor) beats Claude Code's (clear the input).
    s.send(KEY.ctrlE);
    await s.waitForText("› FROM-EDITOR");
    // The chord: Ctrl-X then Ctrl-K clears the input.
    s.send(CTRL_X);
    await s.waitForText("ctrl+x …");
    s.send(KEY.ctrlK);
    await s.waitFor((screen) => !screen.includes("FROM-EDITOR") && idle(screen), "the input cleared by the chord");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("/keybindings writes a commented skeleton, opens it in $EDITOR, and what is saved applies at once", async () => {
    const api = await fixtures.api({ turns: [] });
    const env = isolatedEnv(api.url, { VISUAL: "" });
    const own = join(env.XDG_CONFIG_HOME!, "khaelor", "keybindings.json");
    const seen = join(env.HOME!, "skeleton.json");
    const binding = JSON.stringify({ bindings: [{ context: "Chat", bindings: { "ctrl+e": "chat:externalEditor" } }] });
    // The first run of the editor is /keybindings (it keeps the skeleton and writes a binding), the second Ctrl-E.
    env.EDITOR = script(env.HOME!, "editor.sh", `if [ -f '${seen}' ]; then printf 'SECOND-EDIT' > "$1"; else cp "$1" '${seen}'; printf '%s' '${binding}' > "$1"; fi`);
    const s = fixtures.pty([], { cwd: tempProject(), env, cols: 160, rows: 40 });
    await submit(s, "/keybindings");
    await s.waitForText("Keybindings: 1 bound");
    const skeleton = readFileSync(seen, "utf8");
    expect(skeleton).toContain('"$schema": "https://www.schemastore.org/claude-code-keybindings.json"');
    expect(skeleton).toContain("// { \"context\": \"Chat\"");
    expect(readFileSync(own, "utf8")).toBe(binding);
    await s.waitFor(idle, "the composer");
    s.send(KEY.ctrlE);
    await s.waitForText("› SECOND-EDIT");
    // Changed while the app runs: the watch applies it (Ctrl-E now opens the model picker).
    writeFileSync(own, JSON.stringify({ bindings: [{ context: "Chat", bindings: { "ctrl+e": "chat:modelPicker", "ctrl+u": null } }] }));
    await s.waitForText("Keybindings: 2 bound (from");
    s.send(KEY.ctrlE);
    await s.waitForText("Model (Enter switches");
    s.send(KEY.esc);
    await s.waitFor((screen) => !screen.includes("Model (Enter switches"), "the chooser closed");
    s.send(KEY.ctrlC);
    await s.waitFor(idle, "the prompt cleared");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("Confirmation: confirm:yes and confirm:no on the user's keys, y unbound; ctrl+x ctrl+e is the editor by default", async () => {
    const dir = tempProject();
    const api = await fixtures.api({
      turns: [
        { content: [{ type: "tool_use", name: "bash", input: { command: "touch yes.txt" } }] },
        { content: [{ type: "tool_use", name: "bash", input: { command: "touch no.txt" } }], expect: { lastHasToolResult: { isError: false } } },
        { content: [{ type: "text", text: "BOTH-ASKED" }], expect: { lastHasToolResult: { isError: true } } },
      ],
    });
    const env = isolatedEnv(api.url, { VISUAL: "" });
    env.EDITOR = script(env.HOME!, "editor.sh", `printf 'FROM-CHORD' > "$1"`);
    put(join(env.HOME!, ".claude", "keybindings.json"), { bindings: [{ context: "Confirmation", bindings: { "ctrl+y": "confirm:yes", "ctrl+n": "confirm:no", y: null } }] });
    const s = fixtures.pty([], { cwd: dir, env, cols: 120, rows: 40 });
    await s.waitFor(idle, "the composer");
    // Claude Code's readline chord for the editor, with no file binding it.
    s.send(CTRL_X);
    s.send(KEY.ctrlE);
    await s.waitForText("› FROM-CHORD");
    s.send(KEY.ctrlU);
    await submit(s, "touch both");
    await s.waitForText("Permission needed");
    await answerPrompt(s, KEY.ctrlY);
    await s.waitFor(() => existsSync(join(dir, "yes.txt")), "yes.txt made after ctrl+y");
    await s.waitForText("command: touch no.txt");
    // y is unbound here (it would allow), then ctrl+n denies.
    await answerPrompt(s, "y");
    s.send("\x0e");
    await s.waitForText("BOTH-ASKED");
    expect(existsSync(join(dir, "no.txt"))).toBe(false);
    expect(api.checkFailures).toEqual([]);
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);

  test("Transcript: transcript:exit and scroll:* on the user's keys in the pager, q unbound", async () => {
    const lines = Array.from({ length: 80 }, (_, i) => `LINE-${String(i + 1).padStart(2, "0")}`).join("\n\n");
    const api = await fixtures.api({ turns: [{ content: [{ type: "text", text: lines }] }] });
    const env = isolatedEnv(api.url);
    put(join(env.XDG_CONFIG_HOME!, "khaelor", "keybindings.json"), { bindings: [{ context: "Transcript", bindings: { x: "transcript:exit", q: null, u: "scroll:top", d: "scroll:bottom" } }] });
    const s = fixtures.pty([], { cwd: tempProject(), env, cols: 100, rows: 24 });
    await submit(s, "lines please");
    await s.waitFor((sc) => sc.includes("LINE-80") && idle(sc), "the answer");
    s.send(KEY.ctrlT);
    await s.waitForText(" transcript ");
    expect(s.screen()).not.toContain("LINE-01");
    s.type("u");
    await s.waitForText("LINE-01");
    s.type("d");
    await s.waitFor((sc) => sc.includes("LINE-80") && !sc.includes("LINE-01"), "the bottom again");
    s.type("q"); // unbound: the pager stays
    s.type("u");
    await s.waitForText("LINE-01");
    expect(s.screen()).toContain(" transcript ");
    s.type("x");
    await s.waitFor((sc) => !sc.includes(" transcript ") && idle(sc), "the pager closed by x");
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 60_000);
});
