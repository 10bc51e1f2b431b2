// A plain style description shared by everything that produces styled text (markdown, views).
// The renderer interns these into style ids; producers never see ids or escape codes.
export type Color =
  | { kind: "rgb"; r: number; g: number; b: number }
  /** 0-255 xterm palette; 0-15 are the terminal's own ANSI colours. */
  | { kind: "index"; n: number };

export type Style = {
  fg?: Color;
  bg?: Color;
  bold?: boolean;
  dim?: boolean;
  italic?: boolean;
  underline?: boolean;
  inverse?: boolean;
  strikethrough?: boolean;
  /** OSC 8 hyperlink target. */
  link?: string;
};

/** A run of text in one style. Text never contains control characters or newlines. */
export type Span = { text: string; style?: Style };
/** One terminal row's worth of content (may be wider than the screen until laid out). */
export type StyledLine = Span[];

/**
 * A laid-out screen row. `soft` marks a row that continues the previous one (a soft wrap): when
 * committed to scrollback the two are written as one terminal line, so copying gives one line.
 */
export type Row = { spans: Span[]; soft?: boolean };
