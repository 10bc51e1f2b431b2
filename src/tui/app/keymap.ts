// The user's keybindings in force (./keybindings.ts reads the files) and a key looked up in them,
// chords included. A key handler asks `boundKey` first: the user's binding wins over KHAELOR's own
// key for it, null makes the key do nothing, and a key no file binds keeps KHAELOR's default.
import type { InputEvent } from "./app-input.ts";
import type { Binding, KeyAction, KeyContext } from "./keybindings.ts";

export type Keymap = {
  /** Per context, a chord's key ids joined by spaces → its action (null: unbound). */
  byContext: Map<KeyContext, Map<string, KeyAction | null>>;
  /** Per context, every proper start of a chord ("C-x" of "C-x C-e"). */
  prefixes: Map<KeyContext, Set<string>>;
};

/**
 * The keys typed so far of a chord, and the map they are read in. `since`: when the chord's last
 * key came; `now`: the clock (tests inject one).
 */
export type KeyState = { map: Keymap; pending: string; since?: number; now?: () => number };

/**
 * How long a chord's first keys wait for the next: past it they are forgotten and the next key is
 * read alone, so a stray Ctrl-X does not swallow a key typed much later. Claude Code's resolver
 * has such a timeout without a documented figure; readline and Emacs wait forever, VS Code 5 s.
 */
export const CHORD_TIMEOUT_MS = 1000;

/** Later bindings win where two bind the same chord in the same context (KHAELOR's file is read after Claude Code's). */
export function buildKeymap(bindings: readonly Binding[]): Keymap {
  const byContext = new Map<KeyContext, Map<string, KeyAction | null>>();
  const prefixes = new Map<KeyContext, Set<string>>();
  for (const b of bindings) {
    let m = byContext.get(b.context);
    if (!m) byContext.set(b.context, (m = new Map()));
    m.set(b.chord, b.action);
    const keys = b.chord.split(" ");
    let p = prefixes.get(b.context);
    if (!p) prefixes.set(b.context, (p = new Set()));
    for (let i = 1; i < keys.length; i++) p.add(keys.slice(0, i).join(" "));
  }
  return { byContext, prefixes };
}

/** A key event as the bindings name it; null for what no binding names (a burst of typed text, a paste, the wheel). */
export function eventKeyId(ev: InputEvent): string | null {
  if (ev.type === "key") return `${ev.ctrl ? "C-" : ""}${ev.alt ? "M-" : ""}${ev.shift ? "S-" : ""}${ev.name}`;
  if (ev.type === "text" && [...ev.text].length === 1) return ev.text === " " ? "space" : ev.text;
  return null;
}

export type KeyPress =
  | { kind: "action"; action: KeyAction }
  /** Bound to null: the key does nothing here. */
  | { kind: "unbound" }
  /** The start of a chord: the key is taken, the next one completes it. */
  | { kind: "pending"; typed: string }
  /** A chord begun and not finished by this key: both are dropped. */
  | { kind: "broken"; typed: string }
  /** No binding: KHAELOR's own key. */
  | { kind: "default" };

/** Looks `ev` up in `contexts`, the first that binds it winning; a chord's first keys wait in `keys.pending`. */
export function boundKey(keys: KeyState | null | undefined, contexts: readonly KeyContext[], ev: InputEvent): KeyPress {
  if (!keys) return { kind: "default" };
  const now = (keys.now ?? Date.now)();
  if (keys.pending && now - (keys.since ?? now) > CHORD_TIMEOUT_MS) keys.pending = "";
  const id = eventKeyId(ev);
  if (id === null) {
    if (!keys.pending) return { kind: "default" };
    const typed = keys.pending;
    keys.pending = "";
    return { kind: "broken", typed };
  }
  const seq = keys.pending ? `${keys.pending} ${id}` : id;
  for (const c of contexts) {
    const action = keys.map.byContext.get(c)?.get(seq);
    if (action === undefined) continue;
    keys.pending = "";
    return action === null ? { kind: "unbound" } : { kind: "action", action };
  }
  if (contexts.some((c) => keys.map.prefixes.get(c)?.has(seq))) {
    keys.pending = seq;
    keys.since = now;
    return { kind: "pending", typed: seq };
  }
  if (!keys.pending) return { kind: "default" };
  keys.pending = "";
  return { kind: "broken", typed: seq };
}

/** A chord as the user wrote it ("C-x C-e" → "ctrl+x ctrl+e"), for the status line. */
export function chordLabel(seq: string): string {
  return seq
    .split(" ")
    .map((k) => k.replace(/C-/g, "ctrl+").replace(/M-/g, "meta+").replace(/S-/g, "shift+"))
    .join(" ");
}

/**
 * A key handler's first step: the user's binding for `ev` in `contexts` run by `run`; true when the
 * key was the bindings' (run, unbound, or a chord begun or broken), false when KHAELOR's own key applies.
 */
export function runBound(keys: KeyState | null | undefined, contexts: readonly KeyContext[], ev: InputEvent, actions: { flash(text: string): void }, run: (action: KeyAction) => void): boolean {
  const r = boundKey(keys, contexts, ev);
  switch (r.kind) {
    case "default":
      return false;
    case "action":
      run(r.action);
      return true;
    case "unbound":
      return true;
    case "pending":
      actions.flash(`${chordLabel(r.typed)} …`);
      return true;
    case "broken":
      actions.flash(`${chordLabel(r.typed)} is not bound`);
      return true;
  }
}
