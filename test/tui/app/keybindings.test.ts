// Keybindings files read (Claude Code's key notation, contexts and actions) and run by the key
// handlers of each context: the composer's picker (Autocomplete), the Ctrl-R search, the pager.
import { describe, expect, test } from "bun:test";
import { composerInput } from "../../../src/tui/app/composer-keys.ts";
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chordId, keyId, parseKeybindings, stripJsonComments } from "../../../src/tui/app/keybindings.ts";
import { applyKeybindings, keybindingsSource } from "../../../src/tui/app/keybinding-files.ts";
import { buildKeymap, CHORD_TIMEOUT_MS } from "../../../src/tui/app/keymap.ts";
import type { InputEvent } from "../../../src/tui/app/app-input.ts";
import { fakeActions, makeState } from "../support/app-state.ts";

const key = (name: string, mods: { ctrl?: boolean; alt?: boolean; shift?: boolean } = {}): InputEvent => ({ type: "key", name, ctrl: !!mods.ctrl, alt: !!mods.alt, shift: !!mods.shift });

function stateWith(context: string, bindings: Record<string, string | null>) {
  const r = parseKeybindings(JSON.stringify({ bindings: [{ context, bindings }] }), "kb.json");
  expect(r.problems).toEqual([]);
  const st = makeState();
  st.keys = { map: buildKeymap(r.bindings), pending: "" };
  return st;
}

describe("key notation", () => {
  test("Claude Code's keys as the app's key tables name them", () => {
    expect(keyId("ctrl+e")).toBe("C-e");
    expect(keyId("shift+tab")).toBe("S-tab");
    expect(keyId("meta+p")).toBe("M-p");
    expect(keyId("Esc")).toBe("escape");
    expect(keyId("shift+g")).toBe("G");
    expect(keyId("q")).toBe("q");
    expect(keyId("ctrl+_")).toBe("C-_");
    expect(keyId("hyper+x")).toBeNull();
    expect(keyId("ctrl+banana")).toBeNull();
    expect(chordId("ctrl+x  ctrl+e")).toBe("C-x C-e");
  });

  test("JSON with comments and trailing commas, as the skeleton is", () => {
    const r = parseKeybindings('{\n  // mine\n  "bindings": [{"context": "Chat", "bindings": {"ctrl+e": "chat:externalEditor",},},],\n}', "kb.json");
    expect(r.problems).toEqual([]);
    expect(r.bindings.map((b) => b.chord)).toEqual(["C-e"]);
  });

  test("an action of another context is said to be so", () => {
    const r = parseKeybindings(JSON.stringify({ bindings: [{ context: "Transcript", bindings: { x: "chat:submit" } }] }), "kb.json");
    expect(r.problems[0]).toContain("kb.json: x → chat:submit (Transcript): not available in the Transcript context in KHAELOR");
  });
});

describe("bindings in each context", () => {
  test("Autocomplete: the slash picker's next on ctrl+j", () => {
    const st = stateWith("Autocomplete", { "ctrl+j": "autocomplete:next" });
    const a = fakeActions({ t: 0 });
    composerInput(st, a, { type: "text", text: "/" });
    expect(st.picker?.selected).toBe(0);
    composerInput(st, a, key("j", { ctrl: true }));
    expect(st.picker?.selected).toBe(1);
    // Outside the picker ctrl+j is KHAELOR's newline again.
    composerInput(st, a, key("escape"));
    composerInput(st, a, key("j", { ctrl: true }));
    expect(st.composer.text).toBe("/\n");
  });

  test("HistorySearch: cancel on ctrl+q leaves with the draft", () => {
    const st = stateWith("HistorySearch", { "ctrl+q": "historySearch:cancel" });
    const a = fakeActions({ t: 0 });
    composerInput(st, a, { type: "text", text: "draft" });
    composerInput(st, a, key("r", { ctrl: true }));
    composerInput(st, a, { type: "text", text: "first" });
    expect(st.composer.text).toBe("first prompt");
    composerInput(st, a, key("q", { ctrl: true }));
    expect(st.historySearch).toBeNull();
    expect(st.composer.text).toBe("draft");
  });

  test("Global: app:toggleTranscript on ctrl+o; a broken chord drops its keys", () => {
    const st = stateWith("Global", { "ctrl+o": "app:toggleTranscript", "ctrl+x ctrl+s": "chat:submit" });
    const a = fakeActions({ t: 0 });
    composerInput(st, a, key("o", { ctrl: true }));
    expect(a.pagers.length).toBe(1);
    composerInput(st, a, key("x", { ctrl: true }));
    composerInput(st, a, { type: "text", text: "z" });
    expect(a.flashes.at(-1)).toBe("ctrl+x z is not bound");
    expect(st.composer.text).toBe("");
  });
});

describe("the file's JSON with comments", () => {
  test("a string holding ,] or // is read as written; comments and trailing commas outside strings go", () => {
    const text = '{\n  "$docs": "https://code.claude.com/docs//keybindings,]", // a comment, ]\n  "note": "a, }",\n  /* block, ] */ "bindings": [{"context": "Chat", "bindings": {"ctrl+e": "chat:externalEditor", }, }, ],\n}';
    const json = JSON.parse(stripJsonComments(text)) as Record<string, unknown>;
    expect(json.$docs).toBe("https://code.claude.com/docs//keybindings,]");
    expect(json.note).toBe("a, }");
    expect(parseKeybindings(text, "kb.json").bindings.map((b) => b.chord)).toEqual(["C-e"]);
  });
});

describe("chords", () => {
  test("a chord's first key is forgotten after CHORD_TIMEOUT_MS: the next key is read alone", () => {
    const st = stateWith("Chat", { "ctrl+x ctrl+k": "chat:clearInput" });
    let now = 0;
    st.keys!.now = () => now;
    const a = fakeActions({ t: 0 });
    composerInput(st, a, { type: "text", text: "keep" });
    composerInput(st, a, key("x", { ctrl: true }));
    now = CHORD_TIMEOUT_MS - 1;
    composerInput(st, a, key("k", { ctrl: true }));
    expect(st.composer.text).toBe("");
    composerInput(st, a, { type: "text", text: "keep" });
    composerInput(st, a, key("x", { ctrl: true }));
    now += CHORD_TIMEOUT_MS + 1;
    // Too late for the chord: ctrl+k is KHAELOR's own key (kill to the end of the line) on its own.
    composerInput(st, a, key("a", { ctrl: true }));
    composerInput(st, a, key("k", { ctrl: true }));
    expect(st.composer.text).toBe("");
    expect(a.flashes.at(-1)).not.toContain("is not bound");
  });

  test("ctrl+x ctrl+e opens the external editor by default, as in Claude Code; a file may unbind it", () => {
    const st = makeState();
    applyKeybindings(st, { files: [], own: "", read: () => ({ bindings: [], problems: [], text: "" }), watch: () => () => {} }, null);
    const a = fakeActions({ t: 0 });
    composerInput(st, a, key("x", { ctrl: true }));
    composerInput(st, a, key("e", { ctrl: true }));
    expect(a.edits).toBe(1);
    const unbound = parseKeybindings(JSON.stringify({ bindings: [{ context: "Chat", bindings: { "ctrl+x ctrl+e": null } }] }), "kb.json");
    applyKeybindings(st, { files: [], own: "", read: () => ({ ...unbound, text: "x" }), watch: () => () => {} }, null);
    composerInput(st, a, key("x", { ctrl: true }));
    composerInput(st, a, key("e", { ctrl: true }));
    expect(a.edits).toBe(1);
  });
});

describe("the files' folders", () => {
  test("a folder that does not exist at start is watched once it is created", async () => {
    const home = mkdtempSync(join(tmpdir(), "khaelor-kb-"));
    const ccDir = join(home, "not-yet", ".claude");
    const src = keybindingsSource(home, { CLAUDE_CONFIG_DIR: ccDir, XDG_CONFIG_HOME: join(home, "config") });
    let changed!: () => void;
    const seen = new Promise<void>((r) => (changed = r));
    const stop = src.watch(() => {
      if (src.read().bindings.length > 0) changed();
    });
    try {
      mkdirSync(ccDir, { recursive: true });
      writeFileSync(join(ccDir, "keybindings.json"), JSON.stringify({ bindings: [{ context: "Chat", bindings: { "ctrl+e": "chat:externalEditor" } }] }));
      await seen;
      expect(src.read().bindings.map((b) => b.file)).toEqual([join(ccDir, "keybindings.json")]);
    } finally {
      stop();
    }
  });
});
