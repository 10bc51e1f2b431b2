// What of the transcript has gone into the terminal's scrollback, and what goes next.
//
// Invariant: each entry, and each settled markdown row of a streamed answer, is written once, in
// transcript order, and never again. Entries [0, committed) are written. Of entries[committed]
// (the head), the first headRows settled rows of its markdown stream are written, and its leading
// gap when headGapDone. Everything after the head is in the live zone, which shows the head's
// remaining rows first. Scrollback cannot be taken back: when a retry discards a partial answer
// some of whose rows are written, a note follows them instead (see rewind).
//
// An entry is written when it is settled (isSettled); a streamed answer is written block by block
// as its markdown settles, before it ends.
import { createMarkdownStream, type MarkdownStream } from "../markdown/index.ts";
import type { Row } from "../render/style.ts";
import { isSettled, type Entry } from "../transcript/entry.ts";
import { answerFooter, needsGap, renderEntry } from "../views/entry-view.ts";
import { span } from "../views/text.ts";
import { ui } from "../views/theme.ts";

export type AnswerStream = { md: MarkdownStream; fed: number };

const DISCARDED = "(the partial answer above was discarded: the request is being retried)";

export class HistoryCommit {
  /** Entries written to scrollback. */
  committed = 0;
  /** Settled rows of the head's markdown stream already written. */
  headRows = 0;
  /** The gap before the head is written. */
  headGapDone = false;
  /** The markdown stream of each answer being streamed (or not yet fully written), by entry key. */
  readonly streams = new Map<number, AnswerStream>();
  /** "wrap": "words", the default: prose breaks between words, continuations are hard rows; "edge" sets false (see README). */
  wordWrap = true;

  constructor(
    private width: number,
    private readonly links: boolean,
  ) {}

  /** A new transcript: nothing of it is written. */
  reset(): void {
    this.committed = 0;
    this.headRows = 0;
    this.headGapDone = false;
    this.streams.clear();
  }

  /** Entries before `from` count as written without being written (--resume shows them in the pager only). */
  skipTo(from: number): void {
    this.committed = from;
    this.headGapDone = true;
  }

  /**
   * The rows to write now, in order: every entry that has settled since, and the settled blocks of
   * a streaming head. Afterwards every answer in the live zone has its stream, fed with all its
   * text so far. `final`: everything is history now (exit).
   */
  advance(entries: readonly Entry[], final: boolean): Row[] {
    const width = this.width;
    const out: Row[] = [];
    while (this.committed < entries.length) {
      const e = entries[this.committed]!;
      const prev = entries[this.committed - 1];
      const streaming = e.kind === "assistant" && (!e.done || this.streams.has(e.key));
      if (!final && !streaming && !isSettled(e)) break;
      if (!this.headGapDone && needsGap(prev, e)) out.push({ spans: [] });
      this.headGapDone = true;
      if (e.kind === "assistant" && streaming) {
        const s = this.streamFor(e);
        const done = final || e.done;
        if (done) s.md.finish();
        const settled = s.md.settledRows();
        for (let i = this.headRows; i < settled.length; i++) out.push(settled[i]!);
        this.headRows = settled.length;
        if (!done) break;
        out.push(...answerFooter(e, width, this.wordWrap));
        this.streams.delete(e.key);
      } else {
        out.push(...renderEntry(e, { width, links: this.links, full: false, wordWrap: this.wordWrap }));
      }
      this.committed++;
      this.headRows = 0;
      this.headGapDone = false;
    }
    if (!final) for (let i = this.committed; i < entries.length; i++) {
      const e = entries[i]!;
      if (e.kind === "assistant") this.streamFor(e);
    }
    return out;
  }

  /**
   * Entries from `from` on were removed (a retry discarded a partial answer). Returns the note to
   * write when rows of it are already in scrollback; the head moves back to `from`.
   */
  rewind(from: number, entries: readonly Entry[]): Row[] {
    let note: Row[] = [];
    if (from < this.committed) {
      this.committed = from;
      this.headRows = 0;
      this.headGapDone = false;
      note = [{ spans: [span(DISCARDED, ui.warn)] }];
    } else if (from === this.committed) {
      // Rows of the partial already in history get a note after them (and the next entry its own
      // gap); with none written, a gap already written before the partial serves the next entry.
      if (this.headRows > 0) {
        note = [{ spans: [span(DISCARDED, ui.warn)] }];
        this.headGapDone = false;
      }
      this.headRows = 0;
    }
    for (const key of [...this.streams.keys()]) if (!entries.some((e) => e.key === key)) this.streams.delete(key);
    return note;
  }

  /**
   * A new width. Settled rows already in history stay as the terminal reflowed them; the streaming
   * answer continues at the new width from the first block not yet written.
   */
  resize(width: number, entries: readonly Entry[]): void {
    this.width = width;
    for (const [key, s] of this.streams) {
      s.md.setWidth(width);
      const head = entries[this.committed];
      if (head?.key === key) this.headRows = s.md.settledRows().length;
    }
  }

  /** The stream of a live answer (advance made it), for the live zone. */
  stream(key: number): AnswerStream | undefined {
    return this.streams.get(key);
  }

  private streamFor(e: Extract<Entry, { kind: "assistant" }>): AnswerStream {
    let s = this.streams.get(e.key);
    if (!s) {
      s = { md: createMarkdownStream({ width: this.width, links: this.links, hangingIndent: this.wordWrap }), fed: 0 };
      this.streams.set(e.key, s);
    }
    if (s.fed < e.text.length) {
      s.md.append(e.text.slice(s.fed));
      s.fed = e.text.length;
    }
    if (e.textEnded) s.md.textEnded();
    return s;
  }
}
