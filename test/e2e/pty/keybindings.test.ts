// Claude Code's keybindings.json in the real app: ~/.claude/keybindings.json ($CLAUDE_CONFIG_DIR)
// and KHAELOR's own file, KHAELOR's winning where both bind a key; a key rebound to an action, a
// key unbound, a chord; what cannot be used said in a notice naming the file, the key and the
// action; /keybindings writing a skeleton, opening it in $EDITOR and applying what was saved.
import { describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { idle, KEY, ptyFixtures, submit } from "./harness.ts";

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
});
