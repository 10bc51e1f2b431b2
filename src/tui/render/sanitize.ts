// Content safety: nothing the model, a tool or a file says may reach the terminal as a control.
// C0 controls, DEL and C1 controls (0x80-0x9f, which some terminals treat as 8-bit CSI/OSC
// introducers) become visible stand-ins, so an embedded "\x1b[2J" shows as "␛[2J" instead of
// clearing the user's screen. Tab becomes one space: the cell grid has no tab stops, and a real
// TAB would move the terminal's cursor to a column we did not plan for.

const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

function standIn(ch: string): string {
  const c = ch.charCodeAt(0);
  if (c === 0x09) return " ";
  if (c < 0x20) return String.fromCharCode(0x2400 + c); // ␀ … ␟ (control pictures)
  if (c === 0x7f) return "\u2421"; // ␡
  return "\ufffd"; // C1: no picture exists
}

/** Replaces every control character in `text` with a visible, harmless stand-in. */
export function neutralizeControls(text: string): string {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, standIn) : text;
}

/** True for a UTF-16 code unit that must never be written raw. */
export function isControlCode(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c <= 0x9f);
}

/** A hyperlink target may not carry ESC/BEL/controls: they would end the OSC 8 early. */
export function sanitizeLinkTarget(url: string): string {
  return url.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}
