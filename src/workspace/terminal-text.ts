// What a pseudo-terminal prints, turned into text as it streams: escape sequences removed, the
// terminal's CR LF line ends made LF, backspaces applied, other control characters dropped. A bare
// CR (a progress bar redrawing its line) is kept: cleanOutput collapses such redraws when the text
// is read, as for bash output. A chunk can end inside an escape sequence or between CR and LF; that
// tail waits for the next chunk, so the text is the same however the bytes were split.

// CSI, OSC (ended by BEL or ST), DCS/SOS/PM/APC (ended by ST), and the two-byte escapes.
const COMPLETE = /\x1b\[[0-?]*[ -\/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[PX^_][^\x1b]*\x1b\\|\x1b[ -\/]*[0-~]/y;
// A prefix of one of the above that more characters could complete.
const UNFINISHED = /\x1b(?:\[[0-?]*[ -\/]*|\][^\x07\x1b]*|[PX^_][^\x1b]*\x1b?|[ -\/]*)$/y;
/** "Where is the cursor?" (DSR 6): some REPLs wait for the answer before they draw a prompt. */
const CURSOR_QUERY = "\x1b[6n";
/** An escape sequence that never ends (binary output) is dropped past this many characters. */
const MAX_HELD = 4096;

export class TerminalText {
  private held = "";
  /** Characters of the current line so far, for answering a cursor query. */
  private column = 0;

  /**
   * Clean one decoded chunk. `onCursorQuery` hears the 1-based column the cursor is at when the
   * program asks, so the caller can answer as a terminal would.
   */
  push(chunk: string, onCursorQuery?: (column: number) => void): string {
    const s = this.held + chunk;
    this.held = "";
    let out = "";
    let i = 0;
    while (i < s.length) {
      const c = s.charCodeAt(i);
      if (c >= 0x20 && c !== 0x7f) {
        // A run of printable text (tabs and newlines are handled below, one by one).
        let j = i + 1;
        while (j < s.length) {
          const d = s.charCodeAt(j);
          if (d < 0x20 || d === 0x7f) break;
          j++;
        }
        out += s.slice(i, j);
        this.column += j - i;
        i = j;
        continue;
      }
      if (c === 0x0a) {
        out += "\n";
        this.column = 0;
        i++;
      } else if (c === 0x09) {
        out += "\t";
        this.column += 1;
        i++;
      } else if (c === 0x0d) {
        if (i + 1 === s.length) {
          this.held = "\r";
          break;
        }
        out += s[i + 1] === "\n" ? "\n" : "\r";
        i += s[i + 1] === "\n" ? 2 : 1;
        this.column = 0;
      } else if (c === 0x08) {
        // Backspace: the echo of an erased character is "\b \b".
        const last = out.charCodeAt(out.length - 1);
        if (out.length > 0 && last !== 0x0a && last !== 0x0d) out = out.slice(0, -1);
        this.column = Math.max(0, this.column - 1);
        i++;
      } else if (c === 0x1b) {
        COMPLETE.lastIndex = i;
        const m = COMPLETE.exec(s);
        if (m) {
          if (m[0] === CURSOR_QUERY) onCursorQuery?.(this.column + 1);
          i += m[0].length;
          continue;
        }
        UNFINISHED.lastIndex = i;
        if (UNFINISHED.test(s) && s.length - i < MAX_HELD) {
          this.held = s.slice(i);
          break;
        }
        i++; // a lone ESC that no sequence follows
      } else {
        i++; // BEL, NUL and the other controls mean nothing in text
      }
    }
    return out;
  }

  /** The stream ended: whatever was held back (an unfinished escape, a final CR) is dropped. */
  end(): void {
    this.held = "";
  }
}

/** Each line as it ends up on screen after CR redraws: what follows the line's last CR. */
export function collapseRedraws(text: string): string {
  if (!text.includes("\r")) return text;
  return text
    .split("\n")
    .map((line) => {
      const l = line.endsWith("\r") ? line.slice(0, -1) : line;
      const i = l.lastIndexOf("\r");
      return i === -1 ? l : l.slice(i + 1);
    })
    .join("\n");
}
