// The app's view of terminal input: the terminal layer's events (src/tui/term/decoder.ts) mapped
// to the few shapes the app routes. Decoding itself lives in the terminal layer; this only
// - joins consecutive typed characters into one text event, so a burst (fast typing, a paste the
//   terminal did not bracket) is one composer edit and one frame, not one per character;
// - names keys the way the app's key table spells them ("space", "C-x" built from the flags);
// - keeps the wheel out of the mouse events (the pager scrolls; clicks and motion are not used);
// - passes focus reports on as their own kind (they are no key: only the app's notifications read them);
// - drops what the app never acts on: capability replies, key releases, unknown sequences.
import type { InputEvent as TermEvent } from "../term/decoder.ts";

export type Key = { type: "key"; name: string; ctrl: boolean; alt: boolean; shift: boolean };
export type InputEvent = Key | { type: "text"; text: string } | { type: "paste"; text: string } | { type: "wheel"; delta: -1 | 1 };
export type FocusChange = { type: "focus"; focused: boolean };

export function toAppInput(events: readonly TermEvent[]): Array<InputEvent | FocusChange> {
  const out: Array<InputEvent | FocusChange> = [];
  for (const e of events) {
    if (e.type === "key") {
      if (e.event === "release") continue;
      if (e.text !== undefined && !e.ctrl && !e.alt && !e.meta) {
        const last = out[out.length - 1];
        if (last?.type === "text") last.text += e.text;
        else out.push({ type: "text", text: e.text });
        continue;
      }
      if (e.key.startsWith("kitty-")) continue;
      // Meta (Cmd/Super) has no binding of its own: treated as Alt, which is what macOS users mean.
      out.push({ type: "key", name: e.key === " " ? "space" : e.key, ctrl: e.ctrl, alt: e.alt || e.meta, shift: e.shift });
    } else if (e.type === "paste") out.push({ type: "paste", text: e.text });
    else if (e.type === "mouse" && e.wheel && !e.release) out.push({ type: "wheel", delta: e.button === 0 ? -1 : 1 });
    else if (e.type === "focus") out.push({ type: "focus", focused: e.focused });
  }
  return out;
}
