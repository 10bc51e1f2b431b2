// Blocks to rows at a given width. Pure and synchronous: the same block, width and options always
// give the same rows (the stream's chunking invariant depends on it). Code highlighting comes in
// through `codeTokens`, so the caller decides between whole-block and streaming highlighting.
import type { Row, Span, Style } from "../render/style.ts";
import type { Align, Block, Inline, ListItem } from "./ast.ts";
import { diffLineKind } from "./highlight/diff.ts";
import type { Token } from "./highlight/highlighter.ts";
import { isDiffInfo } from "./highlight/languages.ts";
import { RowSink, styled } from "./row-sink.ts";
import { spansWidth, trimEndSpans } from "../render/spans.ts";
import { syntaxStyle, type MarkdownTheme } from "./theme.ts";
import { displayWidth } from "../render/width.ts";
import { HARD_BREAK, mergeStyle, splitLine, wrapPieces, type RowTarget } from "./wrap.ts";

export type CodeBlock = Extract<Block, { type: "code" }>;

export type LayoutContext = {
  width: number;
  theme: MarkdownTheme;
  /** Terminal supports OSC 8 hyperlinks; otherwise the URL is shown after the link text. */
  links: boolean;
  hangingIndent: boolean;
  /** Highlight tokens for a code block's lines (may cover only its first lines), or null for plain. */
  codeTokens(block: CodeBlock): Token[][] | null;
};

export function layoutBlock(block: Block, ctx: LayoutContext): Row[] {
  const sink = new RowSink(Math.max(1, ctx.width), ctx.hangingIndent);
  new Layout(ctx, sink).block(block, undefined, 0);
  return sink.rows;
}

const BULLETS = ["•", "◦", "▪"];

class Layout {
  constructor(
    private ctx: LayoutContext,
    private sink: RowSink,
  ) {}

  block(b: Block, base: Style | undefined, listDepth: number): void {
    const t = this.ctx.theme;
    switch (b.type) {
      case "paragraph":
        wrapPieces(this.pieces(b.content, base), this.sink);
        return;
      case "heading":
        wrapPieces(this.pieces(b.content, mergeStyle(base, t.heading[b.level - 1] ?? t.heading[5])), this.sink);
        return;
      case "thematic_break":
        this.sink.hard([styled("─".repeat(this.sink.nextAvail()), t.rule)]);
        return;
      case "code":
        this.code(b);
        return;
      case "html": {
        for (const line of b.text.split("\n")) splitLine([styled(expandTabs(line, 0), t.html)], this.sink);
        return;
      }
      case "block_quote": {
        const bar = styled("│ ", t.quoteBar);
        this.sink.push([bar], [bar]);
        this.children(b.children, mergeStyle(base, t.quoteText), listDepth, false);
        if (b.children.length === 0) this.sink.blank();
        this.sink.pop();
        return;
      }
      case "list":
        this.list(b, base, listDepth);
        return;
      case "table":
        this.table(b.align, b.header, b.rows, base);
        return;
    }
  }

  private children(blocks: Block[], base: Style | undefined, listDepth: number, tight: boolean): void {
    blocks.forEach((child, i) => {
      if (i > 0 && !tight) this.sink.blank();
      this.block(child, base, listDepth);
    });
  }

  private list(b: Extract<Block, { type: "list" }>, base: Style | undefined, depth: number): void {
    const t = this.ctx.theme;
    const last = b.start + b.items.length - 1;
    const markerWidth = b.ordered ? String(last).length + 2 : 2;
    b.items.forEach((item: ListItem, i) => {
      if (i > 0 && !b.tight) this.sink.blank();
      const marker = b.ordered
        ? `${b.start + i}.`.padStart(markerWidth - 1) + " "
        : (BULLETS[Math.min(depth, BULLETS.length - 1)] ?? "•") + " ";
      const first: Span[] = [styled(marker, t.bullet)];
      if (item.task !== undefined) first.push(item.task ? styled("[x] ", t.taskDone) : styled("[ ] ", t.taskTodo));
      this.sink.push(first, [{ text: " ".repeat(markerWidth) }]);
      if (item.children.length === 0) this.sink.hard([]);
      else this.children(item.children, base, depth + 1, b.tight);
      this.sink.pop();
    });
  }

  private code(b: CodeBlock): void {
    const t = this.ctx.theme;
    const lines = b.text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    if (lines.length === 0) {
      this.sink.hard([]);
      return;
    }
    const tokens = this.ctx.codeTokens(b);
    const diff = isDiffInfo(b.info);
    lines.forEach((line, i) => {
      const lineTokens = tokens?.[i];
      let spans: Span[];
      if (lineTokens) {
        spans = [];
        let col = 0;
        for (const tok of lineTokens) {
          const text = expandTabs(tok.text, col);
          col += displayWidth(text);
          spans.push(styled(text, (tok.capture && syntaxStyle(t, tok.capture)) || t.codeBlock));
        }
      } else if (diff) {
        const kind = diffLineKind(line);
        spans = [styled(expandTabs(line, 0), kind ? t.diff[kind] : t.codeBlock)];
      } else {
        spans = [styled(expandTabs(line, 0), t.codeBlock)];
      }
      splitLine(spans, this.sink);
    });
  }

  pieces(inlines: readonly Inline[], base: Style | undefined, out: Span[] = []): Span[] {
    const t = this.ctx.theme;
    for (const inl of inlines) {
      switch (inl.type) {
        case "text":
          out.push(styled(inl.text.replace(/\t/g, " "), base));
          break;
        case "code":
          out.push(styled(inl.text.replace(/\t/g, " "), mergeStyle(base, t.code)));
          break;
        case "html":
          out.push(styled(inl.text.replace(/[\t\n]/g, " "), mergeStyle(base, t.html)));
          break;
        case "emph":
          this.pieces(inl.children, mergeStyle(base, t.emph), out);
          break;
        case "strong":
          this.pieces(inl.children, mergeStyle(base, t.strong), out);
          break;
        case "strike":
          this.pieces(inl.children, mergeStyle(base, t.strike), out);
          break;
        case "softbreak":
          out.push(styled(" ", base));
          break;
        case "hardbreak":
          out.push(HARD_BREAK);
          break;
        case "link":
        case "image": {
          const href = inl.type === "link" ? inl.href : inl.src;
          const style = mergeStyle(base, this.ctx.links && href ? { ...t.link, link: href } : t.link);
          if (inl.type === "image") out.push(styled("[image: ", style));
          this.pieces(inl.children, style, out);
          if (inl.type === "image") out.push(styled("]", style));
          const text = plainText(inl.children);
          if (!this.ctx.links && href && href !== text && href !== "mailto:" + text) {
            out.push(styled(" (", mergeStyle(base, t.linkUrl)), styled(href, mergeStyle(base, t.linkUrl)), styled(")", mergeStyle(base, t.linkUrl)));
          }
          break;
        }
      }
    }
    return out;
  }

  private table(align: Align[], header: Inline[][], rows: Inline[][][], base: Style | undefined): void {
    const t = this.ctx.theme;
    const n = align.length;
    const headStyle = mergeStyle(base, t.tableHeader);
    const head = header.map((c) => this.pieces(c, headStyle));
    const body = rows.map((r) => r.map((c) => this.pieces(c, base)));
    const natural = new Array<number>(n).fill(1);
    for (const r of [head, ...body]) r.forEach((c, i) => (natural[i] = Math.max(natural[i]!, spansWidth(c))));
    const avail = Math.min(this.sink.nextAvail(), this.sink.restAvail());
    const chrome = 3 * n + 1;
    const MIN = 3;
    if (avail - chrome < MIN * n) {
      this.tableAsRecords(head, body);
      return;
    }
    const widths = fitColumns(natural, avail - chrome);
    const border = (l: string, m: string, r: string) =>
      this.sink.hard([styled(l + widths.map((w) => "─".repeat(w + 2)).join(m) + r, t.tableBorder)]);
    const bar = styled("│", t.tableBorder);
    const row = (cells: Span[][]) => {
      const wrapped = cells.map((c, i) => wrapToLines(c, widths[i]!));
      const height = Math.max(1, ...wrapped.map((w) => w.length));
      for (let line = 0; line < height; line++) {
        const spans: Span[] = [bar];
        wrapped.forEach((lines, i) => {
          const content = lines[line] ?? [];
          const pad = widths[i]! - spansWidth(content);
          const a = align[i] ?? null;
          const left = a === "right" ? pad : a === "center" ? Math.floor(pad / 2) : 0;
          spans.push({ text: " ".repeat(left + 1) }, ...content, { text: " ".repeat(pad - left + 1) }, bar);
        });
        this.sink.hard(spans);
      }
    };
    border("┌", "┬", "┐");
    row(head);
    border("├", "┼", "┤");
    for (const r of body) row(r);
    border("└", "┴", "┘");
  }

  /** Too narrow for columns: each row becomes "header: value" lines. */
  private tableAsRecords(head: Span[][], body: Span[][][]): void {
    const t = this.ctx.theme;
    body.forEach((r, ri) => {
      if (ri > 0) this.sink.blank();
      r.forEach((cell, i) => {
        const label = (head[i] ?? []).map((s) => ({ text: s.text, style: mergeStyle(s.style, t.tableHeader) }));
        wrapPieces([...label, styled(": ", t.tableBorder), ...cell], this.sink);
      });
    });
    if (body.length === 0) wrapPieces(head.flatMap((h, i) => (i > 0 ? [{ text: " | " }, ...h] : h)), this.sink);
  }
}

/** Column widths within `budget`: natural widths when they fit, else the widest shrink first. */
function fitColumns(natural: number[], budget: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= budget) return natural;
  let lo = 1;
  let hi = Math.max(...natural);
  while (lo < hi) {
    const cap = Math.ceil((lo + hi) / 2);
    const sum = natural.reduce((a, w) => a + Math.min(w, cap), 0);
    if (sum <= budget) lo = cap;
    else hi = cap - 1;
  }
  const widths = natural.map((w) => Math.min(w, lo));
  let left = budget - widths.reduce((a, b) => a + b, 0);
  for (let i = 0; i < widths.length && left > 0; i++) {
    if (natural[i]! > widths[i]!) {
      widths[i]!++;
      left--;
    }
  }
  return widths;
}

/** Wrap pieces into lines of one table cell (continuations are separate lines there, not soft rows). */
function wrapToLines(pieces: Span[], width: number): Span[][] {
  const lines: Span[][] = [];
  const target: RowTarget = {
    nextAvail: () => width,
    restAvail: () => width,
    softAvail: () => width,
    hard: (s) => lines.push(trimEndSpans(s)),
    soft: (s) => lines.push(trimEndSpans(s)),
    softContinuations: false,
  };
  wrapPieces(pieces, target);
  return lines;
}

function expandTabs(text: string, startCol: number): string {
  if (!text.includes("\t")) return text;
  let out = "";
  let col = startCol;
  for (const ch of text) {
    if (ch === "\t") {
      const n = 4 - (col % 4);
      out += " ".repeat(n);
      col += n;
    } else {
      out += ch;
      col += displayWidth(ch);
    }
  }
  return out;
}

export function plainText(inlines: readonly Inline[]): string {
  let s = "";
  for (const i of inlines) {
    switch (i.type) {
      case "text":
      case "code":
      case "html":
        s += i.text;
        break;
      case "softbreak":
        s += " ";
        break;
      case "hardbreak":
        s += "\n";
        break;
      default:
        s += plainText(i.children);
    }
  }
  return s;
}
