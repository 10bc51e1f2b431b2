// What a pseudo-terminal prints, turned into text as it streams: escape sequences removed, the
// terminal's CR LF line ends made LF, other control characters dropped. A bare CR (a progress bar
// redrawing its line) and backspaces (the echo of an erased character) are kept: collapseRedraws
// applies them when the text is read, as cleanOutput does for bash output. A chunk can end inside
// an escape sequence or between CR and LF; that tail waits for the next chunk, so the text is the
// same however the bytes were split.

/** "Where is the cursor?" (DSR 6): some REPLs wait for the answer before they draw a prompt. */
const CURSOR_QUERY = "\x1b[6n";
/** An escape sequence that never ends (binary output) is given up past this many characters. */
const MAX_HELD = 4096;

const CSI = /\x1b\[[0-?]*[ -\/]*[@-~]/y;
const CSI_SO_FAR = /\x1b\[[0-?]*[ -\/]*$/y;
// OSC ends with BEL or ST (ESC \\); DCS, SOS, PM and APC with ST. Another ESC aborts them.
const OSC = /\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?/y;
const STRING = /\x1b[PX^_][^\x1b]*(?:\x1b\\)?/y;
const SHORT = /\x1b[ -\/]*[0-~]/y;
const SHORT_SO_FAR = /\x1b[ -\/]*$/y;

/**
 * How many characters the escape sequence at `i` takes, or "more" when the text ends before it
 * does. A malformed sequence takes its introducer, as a terminal would discard it.
 */
function escapeLength(s: string, i: number): number | "more" {
  const next = s[i + 1];
  if (next === undefined) return "more";
  const match = (re: RegExp) => {
    re.lastIndex = i;
    const m = re.exec(s);
    return m ? m[0].length : 0;
  };
  if (next === "[") {
    const n = match(CSI);
    if (n > 0) return n;
    return match(CSI_SO_FAR) > 0 ? "more" : 2;
  }
  if (next === "]" || next === "P" || next === "X" || next === "^" || next === "_") {
    const n = match(next === "]" ? OSC : STRING);
    const body = s.slice(i, i + n);
    const ended = body.endsWith("\x1b\\") || body.endsWith("\x07");
    // Not ended: either the text ran out (wait for more) or an ESC aborted it (drop what came).
    return ended || i + n < s.length ? n : "more";
  }
  const n = match(SHORT);
  if (n > 0) return n;
  return match(SHORT_SO_FAR) > 0 ? "more" : 1;
}

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
        // Kept like CR: the character it erases may have come in an earlier chunk.
        out += "\b";
        this.column = Math.max(0, this.column - 1);
        i++;
      } else if (c === 0x1b) {
        const n = escapeLength(s, i);
        if (n === "more") {
          if (s.length - i < MAX_HELD) {
            this.held = s.slice(i);
            break;
          }
          i++; // given up: what follows the ESC is shown as text
          continue;
        }
        if (n === CURSOR_QUERY.length && s.startsWith(CURSOR_QUERY, i)) onCursorQuery?.(this.column + 1);
        i += n;
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

/** Each line as it ends up on screen: what follows its last CR, with backspaces applied. */
export function collapseRedraws(text: string): string {
  if (!text.includes("\r") && !text.includes("\b")) return text;
  return text.split("\n").map(collapseLine).join("\n");
}

function collapseLine(line: string): string {
  let l = line.endsWith("\r") ? line.slice(0, -1) : line;
  const cr = l.lastIndexOf("\r");
  if (cr !== -1) l = l.slice(cr + 1);
  if (!l.includes("\b")) return l;
  let out = "";
  for (const ch of l) out = ch === "\b" ? out.slice(0, -1) : out + ch;
  return out;
}
