// What KHAELOR writes to a terminal outside the TUI (print mode's answer, notices quoting a
// repository's settings, --verbose lines, `khaelor sessions`) goes through the same control-
// character policy as the TUI: a prompt injection must not set the clipboard (OSC 52), retitle the
// window or clear the screen. Only a terminal gets stand-ins; piped output stays byte-exact.
import { neutralizeControlsButLines } from "./control-chars.ts";

type Stream = { isTTY?: boolean; write(s: string): unknown };

/** `text` as it may reach `stream`: controls made visible on a terminal, unchanged otherwise. */
export function forTerminal(stream: { isTTY?: boolean }, text: string): string {
  return stream.isTTY ? neutralizeControlsButLines(text) : text;
}

/** A writer for `stream` that applies forTerminal to everything. */
export function terminalWriter(stream: Stream): { write(s: string): void } {
  return { write: (s) => void stream.write(forTerminal(stream, s)) };
}
