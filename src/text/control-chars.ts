// Content safety, the one control-character policy for whatever reaches a terminal (the TUI, and print mode, notices and listings outside it): nothing the model, a tool or a file
// says may reach the terminal as a control. C0 controls, DEL and C1 controls (0x80-0x9f, which
// some terminals treat as 8-bit CSI/OSC introducers) become visible stand-ins, so an embedded
// "\x1b[2J" shows as "␛[2J" instead of clearing the user's screen; a lone surrogate (half of a
// character, as a cut stream can leave) becomes U+FFFD. Tab becomes one space: the cell grid has no
// tab stops, and a real TAB would move the terminal's cursor to a column we did not plan for.
// Text that is laid out later (markdown) keeps its tabs and newlines for the layout to handle.

const CONTROL = /[\u0000-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const CONTROL_BUT_LINES = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function standIn(ch: string): string {
  const c = ch.charCodeAt(0);
  if (c === 0x09) return " ";
  if (c < 0x20) return String.fromCharCode(0x2400 + c); // ␀ … ␟ (control pictures)
  if (c === 0x7f) return "\u2421"; // ␡
  return "\ufffd"; // C1 and lone surrogates: no picture exists
}

/** Replaces every control character in `text` with a visible, harmless stand-in. */
export function neutralizeControls(text: string): string {
  CONTROL.lastIndex = 0;
  return CONTROL.test(text) ? text.replace(CONTROL, standIn) : text;
}

/** The same, keeping tabs and newlines: for text whose lines and tabs are laid out afterwards. */
export function neutralizeControlsButLines(text: string): string {
  CONTROL_BUT_LINES.lastIndex = 0;
  return CONTROL_BUT_LINES.test(text) ? text.replace(CONTROL_BUT_LINES, standIn) : text;
}

/** A hyperlink target may not carry ESC/BEL/controls: they would end the OSC 8 early. */
export function sanitizeLinkTarget(url: string): string {
  return url.replace(/[\u0000-\u001f\u007f-\u009f]/g, "");
}
