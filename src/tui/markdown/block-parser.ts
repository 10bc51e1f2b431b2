// Block structure, one line at a time: a port of the CommonMark reference algorithm
// (commonmark.js blocks.js) with GFM tables. The parser is incremental by nature: each line is
// matched against the open containers, then may start new blocks. A block, once closed, is never
// touched again; that is what lets the stream (stream.ts) freeze closed top-level blocks. Its nodes, and
// their conversion to Block data, are ./block-tree.ts.
import type { RefMap } from "./ast.ts";
import { BNode, type BlockType, type ListData } from "./block-tree.ts";
import { extractReferences } from "./inline-parser.ts";
import { CLOSETAG, OPENTAG, unescapeString } from "./inline-syntax.ts";
import { parseDelimiterRow, splitTableRow } from "./table-syntax.ts";
import { trimEndChars } from "../../text/trim-chars.ts";

const CODE_INDENT = 4;

const reHtmlBlockOpen: RegExp[] = [
  /./,
  /^<(?:script|pre|textarea|style)(?:\s|>|$)/i,
  /^<!--/,
  /^<[?]/,
  /^<![A-Za-z]/,
  /^<!\[CDATA\[/,
  /^<[/]?(?:address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[123456]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|section|search|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul)(?:\s|[/]?[>]|$)/i,
  new RegExp("^(?:" + OPENTAG + "|" + CLOSETAG + ")\\s*$", "i"),
];
const reHtmlBlockClose: RegExp[] = [/./, /<\/(?:script|pre|textarea|style)>/i, /-->/, /\?>/, />/, /\]\]>/];
const reThematicBreak = /^(?:\*[ \t]*){3,}$|^(?:_[ \t]*){3,}$|^(?:-[ \t]*){3,}$/;
const reMaybeSpecial = /^[#`~*+_=<>0-9|:-]/;
const reNonSpace = /[^ \t\f\v\r\n]/;
const reBulletListMarker = /^[*+-]/;
const reOrderedListMarker = /^(\d{1,9})([.)])/;
const reATXHeadingMarker = /^#{1,6}(?:[ \t]+|$)/;
// `(?![`]|…)`: a shorter run than the whole is refused at once (the regex backtracked a long run).
const reCodeFence = /^`{3,}(?![`]|.*`)|^~{3,}/;
const reClosingCodeFence = /^(?:`{3,}|~{3,})(?=[ \t]*$)/;
const reSetextHeadingLine = /^(?:=+|-+)[ \t]*$/;

const isSpaceOrTab = (c: string) => c === " " || c === "\t";

type Continue = 0 | 1 | 2;

export class BlockParser {
  readonly doc = new BNode("document", 0);
  tip: BNode = this.doc;
  private oldtip: BNode = this.doc;
  private currentLine = "";
  private lineNumber = -1;
  private offset = 0;
  private column = 0;
  private nextNonspace = 0;
  private nextNonspaceColumn = 0;
  private indent = 0;
  private indented = false;
  private blank = false;
  private partiallyConsumedTab = false;
  private allClosed = true;
  private lastMatchedContainer: BNode = this.doc;
  private topSeq = 0;
  /** Definitions with the top-level sequence number they were made in. */
  readonly refs = new Map<string, { href: string; title: string; seq: number }>();

  /** @param firstLine number of the first line fed, so node line numbers are absolute. */
  constructor(firstLine = 0, firstSeq = 0) {
    this.lineNumber = firstLine - 1;
    this.topSeq = firstSeq;
  }

  /** Set while the current line is a table's delimiter row (it is syntax, not a row). */
  private startedTable = false;

  addLine(ln: string): void {
    this.incorporateLine(ln);
  }

  finish(): void {
    while (this.tip !== this.doc) this.finalize(this.tip, this.lineNumber);
    this.doc.open = true;
  }

  private peek(ln: string, pos: number): string {
    return pos < ln.length ? ln.charAt(pos) : "";
  }

  private findNextNonspace(): void {
    const ln = this.currentLine;
    let i = this.offset;
    let cols = this.column;
    let c = "";
    while ((c = ln.charAt(i)) !== "") {
      if (c === " ") {
        i++;
        cols++;
      } else if (c === "\t") {
        i++;
        cols += 4 - (cols % 4);
      } else break;
    }
    this.blank = c === "" || c === "\n" || c === "\r";
    this.nextNonspace = i;
    this.nextNonspaceColumn = cols;
    this.indent = this.nextNonspaceColumn - this.column;
    this.indented = this.indent >= CODE_INDENT;
  }

  private advanceNextNonspace(): void {
    this.offset = this.nextNonspace;
    this.column = this.nextNonspaceColumn;
    this.partiallyConsumedTab = false;
  }

  private advanceOffset(count: number, columns: boolean): void {
    const ln = this.currentLine;
    let c: string | undefined;
    while (count > 0 && (c = ln[this.offset])) {
      if (c === "\t") {
        const charsToTab = 4 - (this.column % 4);
        if (columns) {
          this.partiallyConsumedTab = charsToTab > count;
          const charsToAdvance = charsToTab > count ? count : charsToTab;
          this.column += charsToAdvance;
          this.offset += this.partiallyConsumedTab ? 0 : 1;
          count -= charsToAdvance;
        } else {
          this.partiallyConsumedTab = false;
          this.column += charsToTab;
          this.offset += 1;
          count -= 1;
        }
      } else {
        this.partiallyConsumedTab = false;
        this.offset += 1;
        this.column += 1;
        count -= 1;
      }
    }
  }

  private addLineToTip(): void {
    if (this.partiallyConsumedTab) {
      this.offset += 1;
      this.tip.content += " ".repeat(4 - (this.column % 4));
    }
    this.tip.content += this.currentLine.slice(this.offset) + "\n";
  }

  private addChild(type: BlockType): BNode {
    while (!canContain(this.tip.type, type)) this.finalize(this.tip, this.lineNumber - 1);
    const node = new BNode(type, this.lineNumber);
    node.parent = this.tip;
    node.seq = this.tip === this.doc ? ++this.topSeq : this.tip.seq;
    this.tip.children.push(node);
    this.tip = node;
    return node;
  }

  private closeUnmatchedBlocks(): void {
    if (this.allClosed) return;
    while (this.oldtip !== this.lastMatchedContainer) {
      const parent = this.oldtip.parent!;
      this.finalize(this.oldtip, this.lineNumber - 1);
      this.oldtip = parent;
    }
    this.allClosed = true;
  }

  private continueBlock(container: BNode): Continue {
    const ln = this.currentLine;
    switch (container.type) {
      case "document":
      case "list":
        return 0;
      case "block_quote":
        if (!this.indented && this.peek(ln, this.nextNonspace) === ">") {
          this.advanceNextNonspace();
          this.advanceOffset(1, false);
          if (isSpaceOrTab(this.peek(ln, this.offset))) this.advanceOffset(1, true);
          return 0;
        }
        return 1;
      case "item": {
        const data = container.listData!;
        if (this.blank) {
          if (container.children.length === 0) return 1;
          this.advanceNextNonspace();
        } else if (this.indent >= data.markerOffset + data.padding) {
          this.advanceOffset(data.markerOffset + data.padding, true);
        } else return 1;
        return 0;
      }
      case "heading":
      case "thematic_break":
        return 1;
      case "code_block": {
        if (container.fenced) {
          const m =
            this.indent <= 3 &&
            ln.charAt(this.nextNonspace) === container.fenceChar &&
            ln.slice(this.nextNonspace).match(reClosingCodeFence);
          if (m && m[0].length >= container.fenceLength) {
            this.finalize(container, this.lineNumber);
            return 2;
          }
          let i = container.fenceOffset;
          while (i > 0 && isSpaceOrTab(this.peek(ln, this.offset))) {
            this.advanceOffset(1, true);
            i--;
          }
          return 0;
        }
        if (this.indent >= CODE_INDENT) this.advanceOffset(CODE_INDENT, true);
        else if (this.blank) this.advanceNextNonspace();
        else return 1;
        return 0;
      }
      case "html_block":
        return this.blank && (container.htmlType === 6 || container.htmlType === 7) ? 1 : 0;
      case "paragraph":
      case "table":
        return this.blank ? 1 : 0;
    }
  }

  /** Block starts: 0 no match, 1 container started, 2 leaf started (no more starts). */
  private tryStarts(container: BNode): 0 | 1 | 2 {
    const ln = this.currentLine;
    const rest = ln.slice(this.nextNonspace);
    const first = this.peek(ln, this.nextNonspace);
    if (!this.indented && first === ">") {
      this.advanceNextNonspace();
      this.advanceOffset(1, false);
      if (isSpaceOrTab(this.peek(ln, this.offset))) this.advanceOffset(1, true);
      this.closeUnmatchedBlocks();
      this.addChild("block_quote");
      return 1;
    }
    let m: RegExpMatchArray | null;
    if (!this.indented && (m = rest.match(reATXHeadingMarker))) {
      this.advanceNextNonspace();
      this.advanceOffset(m[0].length, false);
      this.closeUnmatchedBlocks();
      const h = this.addChild("heading");
      h.level = m[0].trim().length;
      h.content = stripClosingHashes(ln.slice(this.offset).replace(/^[ \t]*#+[ \t]*$/, ""));
      this.advanceOffset(ln.length - this.offset, false);
      return 2;
    }
    if (!this.indented && (m = rest.match(reCodeFence))) {
      const fenceLength = m[0].length;
      this.closeUnmatchedBlocks();
      const c = this.addChild("code_block");
      c.fenced = true;
      c.fenceLength = fenceLength;
      c.fenceChar = m[0][0]!;
      c.fenceOffset = this.indent;
      this.advanceNextNonspace();
      this.advanceOffset(fenceLength, false);
      return 2;
    }
    if (!this.indented && first === "<") {
      for (let t = 1; t <= 7; t++) {
        if (
          reHtmlBlockOpen[t]!.test(rest) &&
          (t < 7 ||
            (container.type !== "paragraph" && !(!this.allClosed && !this.blank && this.tip.type === "paragraph")))
        ) {
          this.closeUnmatchedBlocks();
          const b = this.addChild("html_block");
          b.htmlType = t;
          return 2;
        }
      }
    }
    // GFM table: the paragraph's last line is the header row, this line the delimiter row.
    if (!this.indented && container.type === "paragraph" && this.tryTable(container, rest)) return 2;
    if (!this.indented && container.type === "paragraph" && (m = rest.match(reSetextHeadingLine))) {
      this.closeUnmatchedBlocks();
      container.content = extractReferences(container.content, (l, d) => this.define(l, d, container.seq));
      if (container.content.length > 0) {
        const heading = new BNode("heading", container.startLine);
        heading.level = m[0][0] === "=" ? 1 : 2;
        heading.content = container.content;
        heading.parent = container.parent;
        heading.seq = container.seq;
        const sibs = container.parent!.children;
        sibs[sibs.indexOf(container)] = heading;
        this.tip = heading;
        this.advanceOffset(ln.length - this.offset, false);
        return 2;
      }
      return 0;
    }
    if (!this.indented && reThematicBreak.test(rest)) {
      this.closeUnmatchedBlocks();
      this.addChild("thematic_break");
      this.advanceOffset(ln.length - this.offset, false);
      return 2;
    }
    if (!this.indented || container.type === "list") {
      const data = this.parseListMarker(container);
      if (data) {
        this.closeUnmatchedBlocks();
        if (this.tip.type !== "list" || !listsMatch(container.listData!, data)) {
          const list = this.addChild("list");
          list.listData = data;
        }
        const item = this.addChild("item");
        item.listData = data;
        return 1;
      }
    }
    if (this.indented && this.tip.type !== "paragraph" && this.tip.type !== "table" && !this.blank) {
      this.advanceOffset(CODE_INDENT, true);
      this.closeUnmatchedBlocks();
      this.addChild("code_block");
      return 2;
    }
    return 0;
  }

  private tryTable(paragraph: BNode, rest: string): boolean {
    const align = parseDelimiterRow(rest);
    if (!align) return false;
    const lines = paragraph.content.split("\n");
    lines.pop(); // content ends with "\n"
    const headerLine = lines[lines.length - 1];
    if (headerLine === undefined) return false;
    const header = splitTableRow(headerLine);
    if (header.length !== align.length) return false;
    if (!headerLine.includes("|") && !rest.includes("|")) return false;
    this.closeUnmatchedBlocks();
    const parent = paragraph.parent!;
    const table = new BNode("table", paragraph.startLine + lines.length - 1);
    table.parent = parent;
    table.seq = paragraph.seq;
    table.tableAlign = align;
    table.tableRows = [header];
    lines.pop();
    const sibs = parent.children;
    if (lines.length > 0) {
      paragraph.content = lines.join("\n") + "\n";
      this.finalize(paragraph, this.lineNumber - 2);
      sibs.push(table);
    } else {
      sibs[sibs.indexOf(paragraph)] = table;
    }
    this.tip = table;
    this.startedTable = true;
    this.advanceOffset(this.currentLine.length - this.offset, false);
    return true;
  }

  private parseListMarker(container: BNode): ListData | null {
    const ln = this.currentLine;
    const rest = ln.slice(this.nextNonspace);
    if (this.indent >= 4) return null;
    let m: RegExpMatchArray | null;
    let data: ListData;
    if ((m = rest.match(reBulletListMarker))) {
      data = { type: "bullet", tight: true, bulletChar: m[0][0]!, start: 0, delimiter: "", padding: 0, markerOffset: this.indent };
    } else if ((m = rest.match(reOrderedListMarker)) && (container.type !== "paragraph" || m[1] === "1")) {
      data = { type: "ordered", tight: true, bulletChar: "", start: parseInt(m[1]!, 10), delimiter: m[2]!, padding: 0, markerOffset: this.indent };
    } else return null;
    const markerLen = m[0].length;
    const nextc = this.peek(ln, this.nextNonspace + markerLen);
    if (!(nextc === "" || nextc === "\t" || nextc === " ")) return null;
    if (container.type === "paragraph" && !reNonSpace.test(ln.slice(this.nextNonspace + markerLen))) return null;
    this.advanceNextNonspace();
    this.advanceOffset(markerLen, true);
    const spacesStartCol = this.column;
    const spacesStartOffset = this.offset;
    let c: string;
    do {
      this.advanceOffset(1, true);
      c = this.peek(ln, this.offset);
    } while (this.column - spacesStartCol < 5 && isSpaceOrTab(c));
    const blankItem = this.peek(ln, this.offset) === "";
    const spacesAfterMarker = this.column - spacesStartCol;
    if (spacesAfterMarker >= 5 || spacesAfterMarker < 1 || blankItem) {
      data.padding = markerLen + 1;
      this.column = spacesStartCol;
      this.offset = spacesStartOffset;
      if (isSpaceOrTab(this.peek(ln, this.offset))) this.advanceOffset(1, true);
    } else {
      data.padding = markerLen + spacesAfterMarker;
    }
    return data;
  }

  private incorporateLine(ln: string): void {
    let container: BNode = this.doc;
    this.startedTable = false;
    this.oldtip = this.tip;
    this.offset = 0;
    this.column = 0;
    this.blank = false;
    this.partiallyConsumedTab = false;
    this.lineNumber += 1;
    if (ln.includes("\u0000")) ln = ln.replace(/\0/g, "\uFFFD");
    this.currentLine = ln;

    let last: BNode | undefined;
    while ((last = container.lastChild) && last.open) {
      container = last;
      this.findNextNonspace();
      const r = this.continueBlock(container);
      if (r === 2) return;
      if (r === 1) {
        container = container.parent!;
        break;
      }
    }
    this.allClosed = container === this.oldtip;
    this.lastMatchedContainer = container;

    let matchedLeaf = container.type !== "paragraph" && container.type !== "table" && acceptsLines(container.type);
    while (!matchedLeaf) {
      this.findNextNonspace();
      if (!this.indented && !reMaybeSpecial.test(ln.slice(this.nextNonspace))) {
        this.advanceNextNonspace();
        break;
      }
      const res = this.tryStarts(container);
      if (res === 0) {
        this.advanceNextNonspace();
        break;
      }
      container = this.tip;
      if (res === 2) matchedLeaf = true;
    }

    if (!this.allClosed && !this.blank && this.tip.type === "paragraph") {
      this.addLineToTip(); // lazy paragraph continuation
    } else {
      this.closeUnmatchedBlocks();
      const t = container.type;
      if (t === "table") {
        if (!this.startedTable && !this.blank) {
          container.tableRows.push(splitTableRow(ln.slice(this.offset)));
        }
      } else if (acceptsLines(t)) {
        this.addLineToTip();
        if (t === "html_block" && container.htmlType >= 1 && container.htmlType <= 5 && reHtmlBlockClose[container.htmlType]!.test(ln.slice(this.offset))) {
          this.finalize(container, this.lineNumber);
        }
      } else if (this.offset < ln.length && !this.blank) {
        this.addChild("paragraph");
        this.advanceNextNonspace();
        this.addLineToTip();
      }
    }
  }

  private define(label: string, def: { href: string; title: string }, seq: number): void {
    if (!this.refs.has(label)) this.refs.set(label, { ...def, seq });
  }

  private finalize(block: BNode, lineNumber: number): void {
    const above = block.parent;
    block.open = false;
    block.endLine = lineNumber;
    switch (block.type) {
      case "paragraph": {
        block.content = extractReferences(block.content, (l, d) => this.define(l, d, block.seq));
        if (!reNonSpace.test(block.content)) {
          const sibs = block.parent!.children;
          sibs.splice(sibs.indexOf(block), 1);
        }
        break;
      }
      case "code_block": {
        if (block.fenced) {
          const nl = block.content.indexOf("\n");
          const firstLine = nl < 0 ? block.content : block.content.slice(0, nl);
          block.info = unescapeString(firstLine.trim());
          block.literal = nl < 0 ? "" : block.content.slice(nl + 1);
        } else {
          const lines = block.content.split("\n");
          while (lines.length > 0 && /^[ \t]*$/.test(lines[lines.length - 1]!)) lines.pop();
          block.literal = lines.join("\n") + "\n";
          block.endLine = block.startLine + lines.length - 1;
        }
        block.content = "";
        break;
      }
      case "html_block":
        block.literal = block.content.replace(/\n$/, "");
        block.content = "";
        break;
      case "item":
        block.endLine = block.lastChild ? block.lastChild.endLine : block.startLine;
        break;
      case "list": {
        const data = block.listData!;
        const items = block.children;
        outer: for (let i = 0; i < items.length; i++) {
          const item = items[i]!;
          if (i + 1 < items.length && endsWithBlankLine(item, items[i + 1]!)) {
            data.tight = false;
            break;
          }
          const subs = item.children;
          for (let j = 0; j + 1 < subs.length; j++) {
            if (endsWithBlankLine(subs[j]!, subs[j + 1]!)) {
              data.tight = false;
              break outer;
            }
          }
        }
        block.endLine = block.lastChild ? block.lastChild.endLine : block.startLine;
        break;
      }
      default:
        break;
    }
    this.tip = above ?? this.doc;
  }

  /** The reference map as seen by a block with top-level sequence `seq` (no definitions from later blocks). */
  refsFor(seq: number, extra?: RefMap): RefMap {
    const map: RefMap = new Map(extra);
    for (const [k, v] of this.refs) if (v.seq <= seq && !map.has(k)) map.set(k, { href: v.href, title: v.title });
    return map;
  }
}

function endsWithBlankLine(block: BNode, next: BNode): boolean {
  return block.endLine !== next.startLine - 1;
}

function canContain(parent: BlockType, child: BlockType): boolean {
  switch (parent) {
    case "document":
    case "block_quote":
    case "item":
      return child !== "item";
    case "list":
      return child === "item";
    default:
      return false;
  }
}

function acceptsLines(t: BlockType): boolean {
  return t === "paragraph" || t === "code_block" || t === "html_block" || t === "table";
}

function listsMatch(a: ListData, b: ListData): boolean {
  return a.type === b.type && a.delimiter === b.delimiter && a.bulletChar === b.bulletChar;
}

/** An ATX heading's closing sequence (` ##  `) dropped, as /[ \t]+#+[ \t]*$/ did without its quadratic backtracking. */
function stripClosingHashes(s: string): string {
  const t = trimEndChars(s, " \t");
  let j = t.length;
  while (j > 0 && t[j - 1] === "#") j--;
  if (j === t.length || j === 0 || (t[j - 1] !== " " && t[j - 1] !== "\t")) return s;
  return trimEndChars(t.slice(0, j), " \t");
}
