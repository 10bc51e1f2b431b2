// Colours and text attributes for rendered markdown. Defaults use the terminal's own 16 colours
// so the user's palette (light or dark) decides how they look.
import type { Color, Style } from "../render/style.ts";

const ansi = (n: number) => ({ kind: "index", n }) as const;

export type MarkdownTheme = {
  heading: [Style, Style, Style, Style, Style, Style];
  emph: Style;
  strong: Style;
  strike: Style;
  code: Style;
  link: Style;
  /** The "(url)" shown after a link's text when the terminal cannot show hyperlinks. */
  linkUrl: Style;
  html: Style;
  quoteBar: Style;
  quoteText: Style;
  bullet: Style;
  taskDone: Style;
  taskTodo: Style;
  rule: Style;
  tableBorder: Style;
  tableHeader: Style;
  codeBlock: Style;
  /** Highlight capture names (first dotted component is the fallback: `function.method` → `function`). */
  syntax: Record<string, Style>;
  diff: { added: Style; removed: Style; hunk: Style; header: Style };
};

export const defaultTheme: MarkdownTheme = buildTheme(ansi(8));

/** The light theme's secondary colour for quote bars, bullets, rules and comments (src/tui/views/theme.ts). */
export function setMarkdownSecondary(secondary: Color): void {
  Object.assign(defaultTheme, buildTheme(secondary));
}

function buildTheme(secondary: Color): MarkdownTheme {
  return {
  heading: [
    { bold: true, underline: true, fg: ansi(5) },
    { bold: true, fg: ansi(5) },
    { bold: true, fg: ansi(6) },
    { bold: true },
    { bold: true, dim: true },
    { dim: true, italic: true },
  ],
  emph: { italic: true },
  strong: { bold: true },
  strike: { strikethrough: true, dim: true },
  code: { fg: ansi(6) },
  link: { fg: ansi(4), underline: true },
  linkUrl: { dim: true },
  html: { dim: true },
  quoteBar: { fg: secondary },
  quoteText: { italic: true },
  bullet: { fg: secondary },
  taskDone: { fg: ansi(2) },
  taskTodo: { fg: secondary },
  rule: { fg: secondary },
  tableBorder: { fg: secondary },
  tableHeader: { bold: true },
  codeBlock: {},
  syntax: {
    keyword: { fg: ansi(5) },
    string: { fg: ansi(2) },
    "string.special": { fg: ansi(2) },
    escape: { fg: ansi(6) },
    comment: { fg: secondary, italic: true },
    number: { fg: ansi(3) },
    boolean: { fg: ansi(3) },
    constant: { fg: ansi(3) },
    "constant.builtin": { fg: ansi(3) },
    function: { fg: ansi(4) },
    "function.builtin": { fg: ansi(4) },
    constructor: { fg: ansi(3) },
    type: { fg: ansi(3) },
    "type.builtin": { fg: ansi(3) },
    module: { fg: ansi(3) },
    namespace: { fg: ansi(3) },
    tag: { fg: ansi(1) },
    attribute: { fg: ansi(3) },
    property: { fg: ansi(6) },
    label: { fg: ansi(6) },
    operator: { fg: ansi(6) },
    "variable.builtin": { fg: ansi(1) },
    "variable.parameter": {},
    embedded: {},
    punctuation: {},
  },
  diff: {
    added: { fg: ansi(2) },
    removed: { fg: ansi(1) },
    hunk: { fg: ansi(6) },
    header: { bold: true },
  },
  };
}

export function mergeTheme(partial?: Partial<MarkdownTheme>): MarkdownTheme {
  if (!partial) return defaultTheme;
  return {
    ...defaultTheme,
    ...partial,
    syntax: { ...defaultTheme.syntax, ...partial.syntax },
    diff: { ...defaultTheme.diff, ...partial.diff },
  };
}

/** The style for a highlight capture name, trying `a.b.c`, then `a.b`, then `a`. */
export function syntaxStyle(theme: MarkdownTheme, capture: string): Style | undefined {
  let name = capture;
  for (;;) {
    const s = theme.syntax[name];
    if (s) return s;
    const dot = name.lastIndexOf(".");
    if (dot < 0) return undefined;
    name = name.slice(0, dot);
  }
}
