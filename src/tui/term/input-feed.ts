// Bytes from the tty to the app's listeners, as decoded events: a lone Esc waits ESC_TIMEOUT_MS
// for the rest of a sequence, keys that arrive before the app listens are held for it, and the
// DA1 answers among them are counted off the terminal's pending answers.
import { createInputDecoder, ESC_TIMEOUT_MS, type InputEvent } from "./decoder.ts";

export type InputFeed = {
  /** A chunk read from the tty. */
  data(chunk: Buffer | string): void;
  /**
   * The app's listener. Keys that arrived before the app listened (while the capabilities were
   * probed, on a busy machine easily the user's first words) are handed to the first one, never dropped.
   */
  listen(listener: (events: InputEvent[]) => void): () => void;
  /** A listener for replies only (the capability probe): it does not take the held keys. */
  listenReplies(listener: (events: InputEvent[]) => void): () => void;
  expectCursorReports(n: number): void;
  /** Closing: keys are not for the app any more (replies still are: the link gauge). */
  keysOff(): void;
  /** The tty leaves raw mode: a half sequence waiting for its end is dropped. */
  cancelPending(): void;
};

export function createInputFeed(onDeviceAttributes: (answers: number) => void): InputFeed {
  const decoder = createInputDecoder();
  const listeners = new Set<(e: InputEvent[]) => void>();
  let held: InputEvent[] | null = [];
  let keysOff = false;
  let escTimer: ReturnType<typeof setTimeout> | null = null;
  const cancelPending = () => {
    if (escTimer) clearTimeout(escTimer);
    escTimer = null;
  };
  const dispatch = (events: InputEvent[]) => {
    if (events.length === 0) return;
    const da1 = events.filter((e) => e.type === "reply" && e.kind === "device-attributes").length;
    if (keysOff) events = events.filter((e) => e.type === "reply");
    if (held) held.push(...events.filter((e) => e.type !== "reply"));
    for (const l of listeners) l(events);
    onDeviceAttributes(da1);
  };
  const add = (l: (e: InputEvent[]) => void) => {
    listeners.add(l);
    return () => void listeners.delete(l);
  };
  return {
    data(chunk) {
      cancelPending();
      dispatch(decoder.feed(typeof chunk === "string" ? chunk : new Uint8Array(chunk)));
      if (decoder.pending) escTimer = setTimeout(() => { escTimer = null; dispatch(decoder.flush()); }, ESC_TIMEOUT_MS);
    },
    listen(l) {
      const off = add(l);
      if (held) {
        const early = held;
        held = null;
        if (early.length > 0) queueMicrotask(() => l(early));
      }
      return off;
    },
    listenReplies: add,
    expectCursorReports: (n) => decoder.expectCursorReports(n),
    keysOff() {
      keysOff = true;
    },
    cancelPending,
  };
}
