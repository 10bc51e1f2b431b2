// Keybindings files read (Claude Code's key notation, contexts and actions) and run by the key
// handlers of each context: the composer's picker (Autocomplete), the Ctrl-R search, the pager.
import { describe, expect, test } from "bun:test";
import { composerInput } from "../../../src/tui/app/composer-keys.ts";
import { chordId, keyId, parseKeybindings } from "../../../src/tui/app/keybindings.ts";
import { buildKeymap } from "../../../src/tui/app/keymap.ts";
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
