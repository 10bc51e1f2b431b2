// The block parser's nodes, open or closed, and the conversion of closed ones to plain `Block`
// data, their inline content parsed then (once: a closed block is never touched again).
import type { Block, Inline, ListItem, RefMap } from "./ast.ts";
import { parseInlines } from "./inline-parser.ts";

export type ListData = {
  type: "bullet" | "ordered";
  tight: boolean;
  bulletChar: string;
  start: number;
  delimiter: string;
  padding: number;
  markerOffset: number;
};

export type BlockType =
  | "document"
  | "block_quote"
  | "list"
  | "item"
  | "paragraph"
  | "heading"
  | "thematic_break"
  | "code_block"
  | "html_block"
  | "table";

export class BNode {
  parent: BNode | null = null;
  children: BNode[] = [];
  open = true;
  endLine = 0;
  content = "";
  level = 0;
  fenced = false;
  fenceChar = "";
  fenceLength = 0;
  fenceOffset = 0;
  info = "";
  literal = "";
  htmlType = 0;
  listData: ListData | null = null;
  tableAlign: ("left" | "center" | "right" | null)[] = [];
  tableRows: string[][] = [];
  /** Sequence number of the top-level block this node belongs to (link definitions are scoped by it). */
  seq = 0;
  constructor(
    public type: BlockType,
    public startLine: number,
  ) {}

  get lastChild(): BNode | undefined {
    return this.children[this.children.length - 1];
  }
}

const reTask = /^\[([ xX])\][ \t]+(?=\S)/;

/** Convert closed (or finished) block nodes to plain AST, parsing inline content. */
export function toBlocks(nodes: BNode[], refsFor: (seq: number) => RefMap): Block[] {
  const out: Block[] = [];
  for (const n of nodes) {
    const b = toBlock(n, refsFor);
    if (b) out.push(b);
  }
  return out;
}

function inlines(content: string, seq: number, refsFor: (seq: number) => RefMap): Inline[] {
  return parseInlines(content, refsFor(seq));
}

function toBlock(n: BNode, refsFor: (seq: number) => RefMap): Block | null {
  switch (n.type) {
    case "paragraph":
      return { type: "paragraph", content: inlines(n.content, n.seq, refsFor) };
    case "heading":
      return { type: "heading", level: n.level, content: inlines(n.content, n.seq, refsFor) };
    case "thematic_break":
      return { type: "thematic_break" };
    case "code_block":
      return { type: "code", fenced: n.fenced, info: n.info, text: n.literal, line: n.startLine };
    case "html_block":
      return { type: "html", text: n.literal };
    case "block_quote":
      return { type: "block_quote", children: toBlocks(n.children, refsFor) };
    case "table":
      return {
        type: "table",
        align: n.tableAlign,
        header: (n.tableRows[0] ?? []).map((c) => inlines(c, n.seq, refsFor)),
        rows: n.tableRows.slice(1).map((r) => fitRow(r, n.tableAlign.length).map((c) => inlines(c, n.seq, refsFor))),
      };
    case "list": {
      const data = n.listData!;
      const items: ListItem[] = n.children.map((item) => {
        const first = item.children[0];
        let task: boolean | undefined;
        if (first && first.type === "paragraph") {
          const m = first.content.match(reTask);
          if (m) {
            task = m[1] !== " ";
            const children = toBlocks(item.children, refsFor);
            const head = children[0];
            if (head && head.type === "paragraph") {
              head.content = inlines(first.content.slice(m[0].length), first.seq, refsFor);
            }
            return { task, children };
          }
        }
        return { children: toBlocks(item.children, refsFor) };
      });
      return { type: "list", ordered: data.type === "ordered", start: data.start, tight: data.tight, items };
    }
    default:
      return null;
  }
}

function fitRow(cells: string[], n: number): string[] {
  if (cells.length === n) return cells;
  if (cells.length > n) return cells.slice(0, n);
  return [...cells, ...Array.from({ length: n - cells.length }, () => "")];
}
