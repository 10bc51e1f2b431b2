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

// Invisible characters, revealed where the user decides (the permission panel, the diff view, the
// trust question). A format character (Unicode Cf: bidi controls, zero-width characters, the BOM,
// the soft hyphen, tag characters) has no cell of its own, so the cell grid draws nothing for it,
// yet the file that is written keeps it: a right-to-left override makes code read otherwise than it
// runs (Trojan Source, CVE-2021-42574), a zero-width space splits an identifier unseen, tag
// characters carry hidden text. On a decision screen each becomes a named marker ("⟨RLO⟩"); a run
// of tags reads as the ASCII it hides ("⟨TAG run rm⟩"). Hangul fillers, letters drawn as blank
// space (the "invisible backdoor" identifier), are revealed as well. Two sequences are left alone
// because they are visible and need the characters: a ZWJ between two emoji (👨‍👩‍👧) and the tag
// spelling of a subdivision flag after 🏴. Everywhere else (streamed answers, tool output) the grid
// keeps dropping them: there the user approves nothing, and ZWJ/ZWNJ and soft hyphens are ordinary
// in prose (Persian, Indic scripts), where markers would only be noise.

export type InvisibleKind = "bidi" | "zero-width" | "tag" | "format" | "blank";
/** Text as a decision screen shows it: plain text, or a marker standing for `hidden`. */
export type TextPiece = { text: string } | { text: string; hidden: string; kind: InvisibleKind };
export type InvisibleCount = { total: number; kinds: InvisibleKind[] };

const HAS_INVISIBLE = /[\p{Cf}\u{e0000}-\u{e007f}\u115f\u1160\u3164\uffa0]/u;
const KIND_ORDER: InvisibleKind[] = ["bidi", "zero-width", "tag", "format", "blank"];
const KIND_LABEL: Record<InvisibleKind, string> = { bidi: "bidi controls", "zero-width": "zero-width", tag: "tag characters", format: "format characters", blank: "blank letters" };
const NAMES: Record<number, string> = {
  0x00ad: "SHY", 0x061c: "ALM", 0x180e: "MVS", 0x200b: "ZWSP", 0x200c: "ZWNJ", 0x200d: "ZWJ", 0x200e: "LRM", 0x200f: "RLM",
  0x202a: "LRE", 0x202b: "RLE", 0x202c: "PDF", 0x202d: "LRO", 0x202e: "RLO", 0x2060: "WJ",
  0x2066: "LRI", 0x2067: "RLI", 0x2068: "FSI", 0x2069: "PDI", 0xfeff: "BOM",
};
const BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;
const EMOJI = /\p{Extended_Pictographic}/u;
const EMOJI_TRAIL = /[\ufe0f\u{1f3fb}-\u{1f3ff}]/u; // VS16, skin tones: part of the emoji before a ZWJ

function isInvisible(ch: string): boolean {
  return HAS_INVISIBLE.test(ch);
}

function kindOf(cp: number): InvisibleKind {
  if (cp >= 0xe0000 && cp <= 0xe007f) return "tag";
  if (cp === 0x061c || cp === 0x200e || cp === 0x200f || (cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return "bidi";
  if (cp === 0x00ad || cp === 0x180e || cp === 0xfeff || (cp >= 0x200b && cp <= 0x200d) || (cp >= 0x2060 && cp <= 0x2064)) return "zero-width";
  if (cp === 0x115f || cp === 0x1160 || cp === 0x3164 || cp === 0xffa0) return "blank";
  return "format";
}

const isAsciiTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007e;
const marker = (cp: number) => `⟨${NAMES[cp] ?? `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`}⟩`;

/** A ZWJ joining two emoji: the sequence is drawn as one picture (or two), never as nothing. */
function joinsEmoji(cps: string[], i: number): boolean {
  let p = i - 1;
  while (p >= 0 && EMOJI_TRAIL.test(cps[p]!)) p--;
  return p >= 0 && EMOJI.test(cps[p]!) && i + 1 < cps.length && EMOJI.test(cps[i + 1]!);
}

/** Splits `text` into plain runs and markers for its invisible characters (see above). */
export function splitInvisibles(text: string): TextPiece[] {
  if (text === "") return [];
  if (!HAS_INVISIBLE.test(text)) return [{ text }];
  const cps = Array.from(text);
  const out: TextPiece[] = [];
  let plain = "";
  const flush = () => {
    if (plain) out.push({ text: plain });
    plain = "";
  };
  for (let i = 0; i < cps.length; i++) {
    const ch = cps[i]!;
    const cp = ch.codePointAt(0)!;
    if (!isInvisible(ch) || (cp === 0x200d && joinsEmoji(cps, i))) {
      plain += ch;
      continue;
    }
    if (isAsciiTag(cp)) {
      let j = i;
      while (j < cps.length && isAsciiTag(cps[j]!.codePointAt(0)!)) j++;
      const run = cps.slice(i, j);
      if (i > 0 && cps[i - 1]!.codePointAt(0) === BLACK_FLAG && cps[j]?.codePointAt(0) === CANCEL_TAG) {
        plain += run.join("") + cps[j]!; // a subdivision flag: 🏴 + its region code in tags + cancel
        i = j;
        continue;
      }
      flush();
      out.push({ text: `⟨TAG ${run.map((c) => String.fromCharCode(c.codePointAt(0)! - 0xe0000)).join("")}⟩`, hidden: run.join(""), kind: "tag" });
      i = j - 1;
      continue;
    }
    flush();
    out.push({ text: marker(cp), hidden: ch, kind: kindOf(cp) });
  }
  flush();
  return out;
}

/** `text` with its invisible characters as markers: for plain-text places (a notice). */
export function revealInvisibles(text: string): string {
  if (!HAS_INVISIBLE.test(text)) return text;
  return splitInvisibles(text).map((p) => p.text).join("");
}

/** How many invisible characters (code points) the texts hold, and of which kinds. */
export function countInvisibles(texts: string | Iterable<string>): InvisibleCount {
  let total = 0;
  const kinds = new Set<InvisibleKind>();
  for (const text of typeof texts === "string" ? [texts] : texts) {
    if (!HAS_INVISIBLE.test(text)) continue;
    for (const p of splitInvisibles(text)) {
      if (!("hidden" in p)) continue;
      total += Array.from(p.hidden).length;
      kinds.add(p.kind);
    }
  }
  return { total, kinds: KIND_ORDER.filter((k) => kinds.has(k)) };
}

/** "this change contains 3 invisible characters (bidi controls, zero-width)", or "" when there are none. */
export function invisiblesLine(c: InvisibleCount, what: string): string {
  if (c.total === 0) return "";
  return `${what} contains ${c.total} invisible character${c.total === 1 ? "" : "s"} (${c.kinds.map((k) => KIND_LABEL[k]).join(", ")})`;
}
