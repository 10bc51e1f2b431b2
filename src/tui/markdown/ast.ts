// The parsed markdown document as plain data. Produced by block-parser.ts (block structure) and
// inline-parser.ts (inline content); consumed by layout.ts and by the conformance test.

export type Inline =
  | { type: "text"; text: string }
  | { type: "code"; text: string }
  | { type: "emph" | "strong" | "strike"; children: Inline[] }
  | { type: "link"; href: string; title: string; children: Inline[] }
  | { type: "image"; src: string; title: string; children: Inline[] }
  /** Raw inline HTML: shown literally, never interpreted. */
  | { type: "html"; text: string }
  | { type: "softbreak" }
  | { type: "hardbreak" };

export type Align = "left" | "center" | "right" | null;

export type ListItem = {
  /** GFM task item: `[x]` is true, `[ ]` is false, absent for ordinary items. */
  task?: boolean;
  children: Block[];
};

export type Block =
  | { type: "paragraph"; content: Inline[] }
  | { type: "heading"; level: number; content: Inline[] }
  | { type: "thematic_break" }
  | {
      type: "code";
      fenced: boolean;
      info: string;
      text: string;
      /** Source line the block starts on (keys streaming highlight state). */
      line?: number;
      /** Streaming only: the last line of `text` is still being written. */
      partialLastLine?: boolean;
    }
  /** Raw HTML block: shown literally. */
  | { type: "html"; text: string }
  | { type: "block_quote"; children: Block[] }
  | {
      type: "list";
      ordered: boolean;
      start: number;
      tight: boolean;
      items: ListItem[];
    }
  | { type: "table"; align: Align[]; header: Inline[][]; rows: Inline[][][] };

/** Link reference definitions, keyed by normalized label. */
export type RefMap = Map<string, { href: string; title: string }>;
