// Collects laid-out rows and decorates them with the prefixes of the containers they sit in
// (block-quote bars, list markers and their indentation).
//
// Copying from the terminal decides the shape of wrapped text: a row that merely continues the
// previous one is emitted `soft` and WITHOUT any prefix, so the renderer can write it as a
// continuation of the same terminal line and a copy yields the paragraph as one line with nothing
// inserted. Hard rows (new paragraphs, list items, code lines, table rows) carry their prefixes.
// With `hangingIndent` ("wrap": "words") prose breaks between words onto hard rows that carry the
// containers' later prefixes (the hanging indent); soft rows are left to what fills to the edge,
// code lines and words wider than a row.
import type { Row, Span, Style } from "../render/style.ts";
import { clipSpans, spansWidth } from "../render/spans.ts";

type Level = { first: Span[]; rest: Span[]; pending: boolean };

export class RowSink {
  readonly rows: Row[] = [];
  private readonly stack: Level[] = [];

  readonly softContinuations: boolean;

  constructor(
    readonly width: number,
    readonly hangingIndent: boolean,
  ) {
    this.softContinuations = !hangingIndent;
  }

  push(first: Span[], rest: Span[]): void {
    this.stack.push({ first, rest, pending: true });
  }

  pop(): void {
    this.stack.pop();
  }

  /** Columns available on the next hard row. */
  nextAvail(): number {
    let w = 0;
    for (const l of this.stack) w += spansWidth(l.pending ? l.first : l.rest);
    return Math.max(1, this.width - w);
  }

  /** Columns available on hard rows after the next one. */
  restAvail(): number {
    let w = 0;
    for (const l of this.stack) w += spansWidth(l.rest);
    return Math.max(1, this.width - w);
  }

  /** Columns available on a continuation (soft) row: the whole width, it has no prefix. */
  softAvail(): number {
    return this.width;
  }

  private takePrefix(): Span[] {
    const out: Span[] = [];
    for (const l of this.stack) {
      for (const s of l.pending ? l.first : l.rest) out.push(s);
      l.pending = false;
    }
    return out;
  }

  hard(spans: Span[]): void {
    this.rows.push({ spans: this.fit(concatSpans(this.takePrefix(), spans)) });
  }

  soft(spans: Span[]): void {
    this.rows.push({ spans: this.fit(spans), soft: true });
  }

  /** A separator row: only the visible part of the container prefixes (a quote's bar), no trailing spaces. */
  blank(): void {
    const prefix = this.takePrefix();
    const out: Span[] = [];
    for (const s of prefix) out.push(s);
    while (out.length > 0) {
      const last = out[out.length - 1]!;
      const trimmed = last.text.trimEnd();
      if (trimmed === "") out.pop();
      else {
        out[out.length - 1] = { ...last, text: trimmed };
        break;
      }
    }
    this.rows.push({ spans: out });
  }

  /** Never hand the renderer a row wider than the screen: only extreme nesting at tiny widths gets here. */
  private fit(spans: Span[]): Span[] {
    if (spansWidth(spans) <= this.width) return spans;
    return clipSpans(spans, this.width);
  }
}

function concatSpans(a: Span[], b: Span[]): Span[] {
  if (a.length === 0) return b;
  return a.concat(b);
}

export function styled(text: string, style: Style | undefined): Span {
  return style && Object.keys(style).length > 0 ? { text, style } : { text };
}
