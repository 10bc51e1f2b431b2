// The composer's editing model: text, cursor, kill ring, undo, and collapsed pastes. Pure data and
// no I/O, so every editing feature is tested without a terminal. The cursor is a UTF-16 index that
// always sits on a grapheme boundary (an emoji or a CJK character moves as one), and a collapsed
// paste "[pasted N lines #k]" and an image chip "[image 1: shot.png, 24 KB]" each behave as one
// character: the cursor never lands inside it, and one Backspace removes it (an image chip deleted
// is an image not sent).
import type { ImageData } from "../../model/images.ts";
import { formatBytes } from "../../workspace/safe-read.ts";
import { unicodeGraphemes } from "../render/width.ts";


/** Pastes with at least this many lines, or this many characters, are shown collapsed. */
export const PASTE_COLLAPSE_LINES = 8;
export const PASTE_COLLAPSE_CHARS = 1500;
const UNDO_LIMIT = 200;

const PLACEHOLDER = /\[pasted \d+ lines? #\d+\]|\[image \d+: [^\]\n]*\]/g;
const CHIP = /\[image (\d+): [^\]\n]*\]/g;

type Snapshot = { text: string; cursor: number };
type EditKind = "insert" | "delete" | "other";

export class Composer {
  text = "";
  cursor = 0;
  private readonly pastes = new Map<string, string>();
  private pasteSeq = 0;
  /** Image chips by their text; only those still in the text are sent. */
  private readonly images = new Map<string, ImageData>();
  private killRing = "";
  private lastWasKill = false;
  private undoStack: Snapshot[] = [];
  private lastEdit: EditKind = "other";

  isEmpty(): boolean {
    return this.text.length === 0;
  }

  /** Typed text (one key or a burst). Newlines in it are kept. */
  insert(s: string): void {
    if (s === "") return;
    this.checkpoint("insert", /\s/.test(s));
    this.splice(this.cursor, this.cursor, s);
    this.lastWasKill = false;
  }

  newline(): void {
    this.checkpoint("other");
    this.splice(this.cursor, this.cursor, "\n");
  }

  /** Bracketed paste: inserted as one edit; a big one is collapsed to a placeholder but sent in full. */
  paste(raw: string): void {
    const s = raw.replace(/\r\n?/g, "\n");
    if (s === "") return;
    this.checkpoint("other");
    // Lines as the user counts them: a final newline ends the last line, it does not start another.
    const lines = s.replace(/\n$/, "").split("\n").length;
    if (lines >= PASTE_COLLAPSE_LINES || s.length >= PASTE_COLLAPSE_CHARS) {
      const token = `[pasted ${lines} line${lines === 1 ? "" : "s"} #${++this.pasteSeq}]`;
      this.pastes.set(token, s);
      this.splice(this.cursor, this.cursor, token);
    } else {
      this.splice(this.cursor, this.cursor, s);
    }
    this.lastEdit = "other";
  }

  /**
   * An image as a chip at the cursor, numbered after the chips already in the text. The chip
   * stays in the text sent, so the model can tell "image 2" from "image 1".
   */
  attachImage(image: ImageData): string {
    const taken = new Set(this.chipsInText().map((c) => c.n));
    let n = 1;
    while (taken.has(n)) n++;
    const name = image.name.replace(/[\]\[\u0000-\u001f\u007f-\u009f]/g, "_").slice(0, 60);
    const token = `[image ${n}: ${name}, ${formatBytes(image.bytes.length)}]`;
    // Images no text can bring back (not in the text, nor in an undo step) are let go.
    for (const t of this.images.keys()) if (!this.text.includes(t) && !this.undoStack.some((u) => u.text.includes(t))) this.images.delete(t);
    this.images.set(token, image);
    this.checkpoint("other");
    this.splice(this.cursor, this.cursor, token);
    this.lastEdit = "other";
    this.lastWasKill = false;
    return token;
  }

  /** The images whose chips are in the text, in the order they appear. */
  attachedImages(): ImageData[] {
    return this.chipsInText().map((c) => c.image);
  }

  private chipsInText(): Array<{ n: number; image: ImageData }> {
    if (this.images.size === 0) return [];
    const out: Array<{ n: number; image: ImageData }> = [];
    CHIP.lastIndex = 0;
    for (let m = CHIP.exec(this.text); m; m = CHIP.exec(this.text)) {
      const image = this.images.get(m[0]);
      if (image) out.push({ n: Number(m[1]), image });
    }
    return out;
  }

  /** The text to send: placeholders expanded to what was pasted (image chips stay). */
  submitText(): string {
    if (this.pastes.size === 0) return this.text;
    return this.text.replace(PLACEHOLDER, (m) => this.pastes.get(m) ?? m);
  }

  /** Replace everything (history recall, clear). Undoable. */
  setText(text: string, cursor = text.length): void {
    this.checkpoint("other");
    this.text = text;
    this.cursor = Math.min(cursor, text.length);
    this.lastWasKill = false;
  }

  clear(): void {
    if (this.text === "") return;
    this.setText("");
    this.pastes.clear();
    this.images.clear();
  }

  // ── movement ────────────────────────────────────────────────────────────────────────────────

  left(): void {
    this.cursor = this.prevBoundary(this.cursor);
    this.lastWasKill = false;
  }

  right(): void {
    this.cursor = this.nextBoundary(this.cursor);
    this.lastWasKill = false;
  }

  wordLeft(): void {
    this.cursor = this.wordStartBefore(this.cursor);
  }

  wordRight(): void {
    this.cursor = this.wordEndAfter(this.cursor);
  }

  lineStart(): void {
    this.cursor = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
  }

  lineEnd(): void {
    const nl = this.text.indexOf("\n", this.cursor);
    this.cursor = nl < 0 ? this.text.length : nl;
  }

  textStart(): void {
    this.cursor = 0;
  }

  textEnd(): void {
    this.cursor = this.text.length;
  }

  /** Up one line, keeping the column; false when already on the first line (history's turn). */
  up(): boolean {
    const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    if (start === 0) return false;
    const col = this.cursor - start;
    const prevStart = this.text.lastIndexOf("\n", start - 2) + 1;
    this.cursor = this.snap(Math.min(prevStart + col, start - 1));
    return true;
  }

  /** Down one line; false when already on the last line. */
  down(): boolean {
    const nl = this.text.indexOf("\n", this.cursor);
    if (nl < 0) return false;
    const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    const col = this.cursor - start;
    const nextEnd = this.text.indexOf("\n", nl + 1);
    this.cursor = this.snap(Math.min(nl + 1 + col, nextEnd < 0 ? this.text.length : nextEnd));
    return true;
  }

  onFirstLine(): boolean {
    return this.text.lastIndexOf("\n", this.cursor - 1) < 0;
  }

  onLastLine(): boolean {
    return this.text.indexOf("\n", this.cursor) < 0;
  }

  // ── deletion, kill and yank ──────────────────────────────────────────────────────────────────

  backspace(): void {
    if (this.cursor === 0) return;
    this.checkpoint("delete");
    this.splice(this.prevBoundary(this.cursor), this.cursor, "");
    this.lastWasKill = false;
  }

  deleteForward(): void {
    if (this.cursor >= this.text.length) return;
    this.checkpoint("delete");
    this.splice(this.cursor, this.nextBoundary(this.cursor), "");
    this.lastWasKill = false;
  }

  /** Ctrl-K: to the end of the line; at the end of a line, the newline itself. */
  killToLineEnd(): void {
    const nl = this.text.indexOf("\n", this.cursor);
    const end = nl < 0 ? this.text.length : nl === this.cursor ? nl + 1 : nl;
    this.kill(this.cursor, end, false);
  }

  /** Ctrl-U: to the start of the line. */
  killToLineStart(): void {
    const start = this.text.lastIndexOf("\n", this.cursor - 1) + 1;
    this.kill(start === this.cursor && start > 0 ? start - 1 : start, this.cursor, true);
  }

  /** Ctrl-W / Alt-Backspace: the word before the cursor. */
  killWordBack(): void {
    this.kill(this.wordStartBefore(this.cursor), this.cursor, true);
  }

  /** Alt-D: the word after the cursor. */
  killWordForward(): void {
    this.kill(this.cursor, this.wordEndAfter(this.cursor), false);
  }

  /** Ctrl-Y: insert the last killed text. */
  yank(): void {
    if (!this.killRing) return;
    this.checkpoint("other");
    this.splice(this.cursor, this.cursor, this.killRing);
    this.lastWasKill = false;
  }

  /** Ctrl-_: back to the state before the last edit (typing undoes a word at a time). */
  undo(): boolean {
    const s = this.undoStack.pop();
    if (!s) return false;
    this.text = s.text;
    this.cursor = s.cursor;
    this.lastEdit = "other";
    this.lastWasKill = false;
    return true;
  }

  // ── vim's primitives (./vim-keys.ts) ─────────────────────────────────────────────────────────

  /** The cursor to `i`, never inside a chip or a grapheme's middle run of a placeholder. */
  moveTo(i: number): void {
    this.cursor = this.snapBack(Math.max(0, Math.min(i, this.text.length)));
    this.lastWasKill = false;
  }

  /** Deletes [from, to) as one undo step; the deleted text goes to the kill ring (vim's register). */
  deleteRange(from: number, to: number): void {
    const a = this.snapBack(Math.max(0, from));
    const b = this.snap(Math.min(to, this.text.length));
    if (b <= a) return;
    this.killRing = this.text.slice(a, b);
    this.checkpoint("other");
    this.splice(a, b, "");
    this.lastWasKill = false;
  }

  /** Where the next word starts after `i` (vim's w), or the end of the text. */
  nextWordStart(i: number): number {
    const n = this.text.length;
    let j = i;
    const word = isWordChar(this.text[j] ?? "");
    while (j < n && !/\s/.test(this.text[j]!) && isWordChar(this.text[j]!) === word) j++;
    while (j < n && /\s/.test(this.text[j]!)) j++;
    return this.snap(j);
  }

  /** The index just past the end of the word at or after `i + 1` (vim's e lands one before it). */
  wordEndFrom(i: number): number {
    return this.wordEndAfter(Math.min(i + 1, this.text.length));
  }

  /** The start of the word before `i` (vim's b). */
  prevWordStart(i: number): number {
    return this.wordStartBefore(i);
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────────

  private kill(from: number, to: number, before: boolean): void {
    if (to <= from) return;
    const killed = this.text.slice(from, to);
    this.killRing = this.lastWasKill ? (before ? killed + this.killRing : this.killRing + killed) : killed;
    this.checkpoint("other");
    this.splice(from, to, "");
    this.lastWasKill = true;
  }

  /** Saves an undo point, except inside a run of typing (a new point per word) or of deletes. */
  private checkpoint(kind: EditKind, wordBoundary = false): void {
    const coalesce = kind !== "other" && kind === this.lastEdit && !wordBoundary;
    this.lastEdit = kind;
    if (coalesce) return;
    const top = this.undoStack[this.undoStack.length - 1];
    if (top && top.text === this.text && top.cursor === this.cursor) return;
    this.undoStack.push({ text: this.text, cursor: this.cursor });
    if (this.undoStack.length > UNDO_LIMIT) this.undoStack.shift();
  }

  private splice(from: number, to: number, s: string): void {
    this.text = this.text.slice(0, from) + s + this.text.slice(to);
    this.cursor = from + s.length;
  }

  /** A placeholder spanning `i` (start < i < end), if any. */
  private placeholderAround(i: number): { start: number; end: number } | null {
    if (this.pastes.size === 0 && this.images.size === 0) return null;
    const lineStart = this.text.lastIndexOf("\n", i - 1) + 1;
    const nl = this.text.indexOf("\n", i);
    const line = this.text.slice(lineStart, nl < 0 ? this.text.length : nl);
    PLACEHOLDER.lastIndex = 0;
    for (let m = PLACEHOLDER.exec(line); m; m = PLACEHOLDER.exec(line)) {
      const start = lineStart + m.index;
      const end = start + m[0].length;
      if (start < i && i < end && (this.pastes.has(m[0]) || this.images.has(m[0]))) return { start, end };
    }
    return null;
  }

  private snap(i: number): number {
    const p = this.placeholderAround(i);
    return p ? p.end : i;
  }

  private prevBoundary(i: number): number {
    if (i <= 0) return 0;
    const p = this.placeholderAround(i - 1);
    if (p && p.end === i) return p.start;
    const prev = this.text.charCodeAt(i - 1);
    if (prev < 0x80 && prev !== 0x0a && i >= 2 && this.text.charCodeAt(i - 2) < 0x80) return i - 1;
    const lineStart = this.text.lastIndexOf("\n", i - 2) + 1;
    let last = lineStart;
    for (const g of unicodeGraphemes(this.text.slice(lineStart, i))) last = lineStart + g.index;
    return last;
  }

  private nextBoundary(i: number): number {
    if (i >= this.text.length) return this.text.length;
    const p = this.placeholderAround(i + 1);
    if (p && p.start === i) return p.end;
    const c = this.text.charCodeAt(i);
    const n = this.text.charCodeAt(i + 1);
    if (c < 0x80 && (Number.isNaN(n) || n < 0x80)) return i + 1;
    const nl = this.text.indexOf("\n", i + 1);
    const chunk = this.text.slice(i, nl < 0 ? this.text.length : nl + 1);
    for (const g of unicodeGraphemes(chunk)) return i + g.segment.length;
    return i + 1;
  }

  private wordStartBefore(i: number): number {
    let j = i;
    while (j > 0 && !isWordChar(this.text[j - 1] ?? "")) j--;
    while (j > 0 && isWordChar(this.text[j - 1] ?? "")) j--;
    return this.snapBack(j);
  }

  private wordEndAfter(i: number): number {
    let j = i;
    const n = this.text.length;
    while (j < n && !isWordChar(this.text[j] ?? "")) j++;
    while (j < n && isWordChar(this.text[j] ?? "")) j++;
    return this.snap(j);
  }

  private snapBack(i: number): number {
    const p = this.placeholderAround(i);
    return p ? p.start : i;
  }
}

function isWordChar(ch: string): boolean {
  return /[\p{L}\p{N}_]/u.test(ch) || (ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) < 0xe000);
}
