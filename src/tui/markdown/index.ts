// Streaming markdown for the terminal. The app's surface:
//
//   const md = createMarkdownStream({ width, links: caps.osc8 });
//   md.append(delta);                            // as text streams in
//   md.settledRows()                             // rows to commit to scrollback: grows only, never changes
//   md.tailRows()                                // rows for the live zone: the unsettled, healed tail
//   md.setWidth(w); md.finish();
//   renderMarkdown(text, { width, links })       // whole documents (pager, resumed history)
//
// Rows are `Row` from ../render/style.ts; a `soft` row continues the previous one (a wrapped line).
// Layout is synchronous and deterministic: any chunking of the same text gives the same rows.
export { createMarkdownStream, renderMarkdown, parseMarkdown, type MarkdownOptions, type MarkdownStream } from "./stream.ts";
export { defaultTheme, type MarkdownTheme } from "./theme.ts";
export type { Block, Inline } from "./ast.ts";
