// A streaming markdown document: text arrives in deltas; finished blocks are frozen ("settled")
// and laid out once per width; only the unsettled tail is parsed again on each frame.
//
// Settling: complete lines go into one incremental block parser (block-parser.ts) for the whole
// answer. A top-level block is settled once the parser has closed it (a later top-level block
// started after a blank line, or the last block was closed: a heading by the next line, a
// paragraph by a blank one, a fence by its closing line), since CommonMark never reopens a closed
// block. So the settled blocks are exactly the blocks a one-shot parse of the whole text gives,
// whatever the chunking; the boundary only moves forward, and a block a blank line leaves open
// (a list, indented code) waits: the next line may continue it. Settling the closed last block at
// once keeps it out of the tail, which is parsed and laid out again every frame (a heading was
// re-laid under every frame of the paragraph after it). `renderMarkdown` is this same stream fed at once.
//
// The tail (unsettled complete lines plus the incomplete last line) is parsed afresh for display,
// with incomplete structure held back or healed (heal.ts). Its cost is O(tail) per frame.
import { neutralizeControlsButLines } from "../../text/control-chars.ts";
import type { Row } from "../render/style.ts";
import type { Block, RefMap } from "./ast.ts";
import { BlockParser } from "./block-parser.ts";
import { toBlocks, type BNode } from "./block-tree.ts";
import { healInline, hasUnescapedPipe, holdBack } from "./heal.ts";
import { highlightCode, StreamingHighlighter, type Token } from "./highlight/highlighter.ts";
import { languageForInfo } from "./highlight/languages.ts";
import { layoutBlock, type CodeBlock, type LayoutContext } from "./layout.ts";
import { mergeTheme, type MarkdownTheme } from "./theme.ts";

export type MarkdownOptions = {
  width: number;
  /** The terminal shows OSC 8 hyperlinks; when false, a link's URL is shown after its text. */
  links: boolean;
  theme?: Partial<MarkdownTheme>;
  /** Indent wrapped continuation rows (then they are hard rows, not soft); default false. */
  hangingIndent?: boolean;
};

export type MarkdownStream = {
  append(delta: string): void;
  /** The text is complete: everything settles, tailRows() becomes empty. */
  finish(): void;
  /**
   * No more text will come, though it is not finished yet (an answer waits for its message and stop
   * reason): the tail stops holding back what only waits for more text, a table or a half link.
   */
  textEnded(): void;
  /**
   * Rows of settled blocks at the current width. The same array for a given width, which only
   * grows: rows once returned never change, so the caller may commit them and remember a count.
   */
  settledRows(): readonly Row[];
  /** Rows of the unsettled tail, recomputed when text or width changed since the last call. */
  tailRows(): Row[];
  setWidth(width: number): void;
  /** Settled top-level blocks so far (the parsed document, for tests and tools). */
  settledBlocks(): readonly Block[];
};

/** Line endings become "\n"; controls become the stand-ins every view shows (src/text/control-chars.ts). */
function sanitize(text: string): string {
  return neutralizeControlsButLines(text.replace(/\r\n?/g, "\n"));
}

const wholeTokens = new WeakMap<CodeBlock, Token[][] | null>();

function settledCodeTokens(block: CodeBlock): Token[][] | null {
  let tokens = wholeTokens.get(block);
  if (tokens === undefined) {
    const language = languageForInfo(block.info);
    tokens = language ? highlightCode(language, block.text) : null;
    wholeTokens.set(block, tokens);
  }
  return tokens;
}

class Stream implements MarkdownStream {
  private readonly parser = new BlockParser(0);
  private readonly theme: MarkdownTheme;
  private width: number;
  private partial = "";
  /** End of the last delta that may join the next one: a CR (of CRLF) or half a surrogate pair. */
  private carry = "";
  private finished = false;
  private ended = false;
  /** Complete lines from `tailStart` on (the unsettled ones). */
  private tailLines: string[] = [];
  private tailStart = 0;
  private readonly settled: Block[] = [];
  private readonly layouts = new Map<number, { rows: Row[]; blocks: number }>();
  private tailCache: { width: number; rows: Row[] } | null = null;
  private readonly highlighters = new Map<number, StreamingHighlighter>();

  constructor(private readonly opts: MarkdownOptions) {
    this.theme = mergeTheme(opts.theme);
    this.width = opts.width;
  }

  append(delta: string): void {
    if (this.finished) throw new Error("markdown stream: append() after finish()");
    if (delta === "") return;
    let text = this.carry + delta;
    const last = text.charCodeAt(text.length - 1);
    const held = last === 13 || (last >= 0xd800 && last <= 0xdbff) ? 1 : 0;
    this.carry = text.slice(text.length - held);
    text = sanitize(text.slice(0, text.length - held));
    const lines = (this.partial + text).split("\n");
    this.partial = lines.pop()!;
    for (const line of lines) {
      this.parser.addLine(line);
      this.tailLines.push(line);
    }
    if (lines.length > 0) this.settle(false);
    this.tailCache = null;
  }

  finish(): void {
    if (this.finished) return;
    const rest = (this.partial + sanitize(this.carry)).split("\n");
    this.carry = "";
    this.partial = "";
    if (rest[rest.length - 1] === "") rest.pop();
    for (const line of rest) {
      this.parser.addLine(line);
      this.tailLines.push(line);
    }
    this.parser.finish();
    this.settle(true);
    this.finished = true;
    this.tailCache = null;
    for (const h of this.highlighters.values()) h.reset();
    this.highlighters.clear();
  }

  private settle(all: boolean): void {
    const kids = this.parser.doc.children;
    let j = all || (kids.length > 0 && !kids[kids.length - 1]!.open) ? kids.length : -1;
    for (let i = kids.length - 1; i >= 1 && j < 0; i--) {
      const prev = kids[i - 1]!;
      if (!prev.open && prev.endLine < kids[i]!.startLine - 1) j = i;
    }
    if (j <= 0) return;
    const done = kids.splice(0, j);
    const parser = this.parser;
    for (const b of toBlocks(done, (seq) => parser.refsFor(seq))) this.settled.push(b);
    const next = kids[0];
    const newStart = next ? next.startLine : this.tailStart + this.tailLines.length;
    this.tailLines.splice(0, newStart - this.tailStart);
    this.tailStart = newStart;
    for (const [line, h] of this.highlighters) {
      if (line < newStart) {
        h.reset();
        this.highlighters.delete(line);
      }
    }
  }

  textEnded(): void {
    if (this.ended) return;
    this.ended = true;
    this.tailCache = null;
  }

  settledBlocks(): readonly Block[] {
    return this.settled;
  }

  settledRows(): readonly Row[] {
    let layout = this.layouts.get(this.width);
    if (!layout) {
      // Keep the current and one previous width: a resize back and forth costs nothing.
      if (this.layouts.size >= 2) this.layouts.delete(this.layouts.keys().next().value!);
      layout = { rows: [], blocks: 0 };
      this.layouts.set(this.width, layout);
    }
    const ctx = this.context(settledCodeTokens);
    while (layout.blocks < this.settled.length) {
      if (layout.blocks > 0) layout.rows.push({ spans: [] });
      for (const row of layoutBlock(this.settled[layout.blocks]!, ctx)) layout.rows.push(row);
      layout.blocks++;
    }
    return layout.rows;
  }

  tailRows(): Row[] {
    if (this.finished) return [];
    if (this.tailCache && this.tailCache.width === this.width) return this.tailCache.rows;
    const blocks = this.parseTail();
    const ctx = this.context((b) => this.streamingCodeTokens(b));
    const rows: Row[] = [];
    blocks.forEach((b, i) => {
      if (i > 0 || this.settled.length > 0) rows.push({ spans: [] });
      for (const row of layoutBlock(b, ctx)) rows.push(row);
    });
    this.tailCache = { width: this.width, rows };
    return rows;
  }

  setWidth(width: number): void {
    if (width === this.width) return;
    this.width = width;
    this.tailCache = null;
  }

  private context(codeTokens: (b: CodeBlock) => Token[][] | null): LayoutContext {
    return {
      width: this.width,
      theme: this.theme,
      links: this.opts.links,
      hangingIndent: this.opts.hangingIndent ?? false,
      codeTokens,
    };
  }

  private parseTail(): Block[] {
    const tip = this.parser.tip;
    const lastLine = this.tailLines[this.tailLines.length - 1];
    const inFence = tip.type === "code_block" && tip.fenced && tip.open;
    const { dropComplete, dropPartial } = holdBack(this.partial, {
      inFence,
      fenceHighlighted: inFence && fenceHighlighted(tip.content),
      paragraphLastLineHasPipe: tip.type === "paragraph" && lastLine !== undefined && hasUnescapedPipe(lastLine),
      tableRows: tip.type === "table" && !this.ended ? tip.tableRows.length : 0,
    });
    const lines = this.tailLines.slice(0, this.tailLines.length - dropComplete);
    const partial = dropPartial ? "" : this.partial;
    const fresh = new BlockParser(this.tailStart);
    for (const l of lines) fresh.addLine(l);
    if (partial !== "") fresh.addLine(partial);
    const lastFed = this.tailStart + lines.length + (partial !== "" ? 1 : 0) - 1;
    fresh.finish();
    const refs: RefMap = new Map();
    for (const [k, v] of this.parser.refs) refs.set(k, { href: v.href, title: v.title });
    for (const [k, v] of fresh.refs) if (!refs.has(k)) refs.set(k, { href: v.href, title: v.title });

    const leaf = lastLeaf(fresh.doc);
    let partialCode: BNode | null = null;
    if (leaf && leaf.endLine >= lastFed) {
      if (leaf.type === "paragraph" || leaf.type === "heading") leaf.content = healInline(leaf.content, refs, !this.ended);
      else if (leaf.type === "code_block" && partial !== "" && !isFenceLine(partial)) partialCode = leaf;
    }
    const blocks = toBlocks(fresh.doc.children, () => refs);
    if (partialCode) markPartialCode(blocks, partialCode.startLine);
    return blocks;
  }

  private streamingCodeTokens(block: CodeBlock): Token[][] | null {
    const language = languageForInfo(block.info);
    if (!language || block.line === undefined) return null;
    let h = this.highlighters.get(block.line);
    if (!h) {
      h = new StreamingHighlighter();
      this.highlighters.set(block.line, h);
    }
    const lines = block.text.split("\n");
    lines.pop();
    if (block.partialLastLine) lines.pop();
    return h.highlight(language, block.info, lines);
  }
}

/** An open fence's language (its first content line) is one we highlight. */
function fenceHighlighted(content: string): boolean {
  const nl = content.indexOf("\n");
  return languageForInfo((nl < 0 ? content : content.slice(0, nl)).trim()) !== null;
}

function isFenceLine(line: string): boolean {
  return /^\s*(?:`{3,}|~{3,})\s*$/.test(line);
}

function lastLeaf(node: BNode): BNode | null {
  let n: BNode | undefined = node;
  while (n && n.children.length > 0) n = n.children[n.children.length - 1];
  return n && n !== node ? n : null;
}

function markPartialCode(blocks: Block[], line: number): void {
  for (const b of blocks) {
    if (b.type === "code" && b.line === line) b.partialLastLine = true;
    else if (b.type === "block_quote") markPartialCode(b.children, line);
    else if (b.type === "list") for (const it of b.items) markPartialCode(it.children, line);
  }
}

export function createMarkdownStream(opts: MarkdownOptions): MarkdownStream {
  return new Stream(opts);
}

/** Rows for a whole document (transcript pager, committed history): the stream, fed at once. */
export function renderMarkdown(text: string, opts: MarkdownOptions): Row[] {
  const s = new Stream(opts);
  s.append(text);
  s.finish();
  return s.settledRows().slice();
}

/** The parsed document, through the same path as rendering (for tests and tools). */
export function parseMarkdown(text: string): Block[] {
  const s = new Stream({ width: 80, links: true });
  s.append(text);
  s.finish();
  return s.settledBlocks().slice();
}
