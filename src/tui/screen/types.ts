// The screen's public shapes and the ones its parts share (./screen.ts composes the parts).
import type { ColorDepth } from "../render/colors.ts";
import type { Row } from "../render/style.ts";

/** Where output goes: a TTY stream, a pipe, or a test sink. `write` returns false when backed up. */
export type ScreenOutput = {
  write(data: string): boolean;
  once?(event: "drain", listener: () => void): unknown;
  /**
   * Node's and Bun's tty streams: asks the tty for its size (TIOCGWINSZ) and, if it changed,
   * emits "resize" synchronously, so the app lays out again at the new size before this frame.
   */
  _refreshSize?(): void;
};

export type ScreenCaps = {
  colorDepth: ColorDepth;
  /** DEC 2026 synchronized output: frames are wrapped so the terminal shows them atomically. */
  syncOutput: boolean;
  /** Over SSH frames are spaced further apart. */
  remote?: boolean;
};

export type Cursor = { row: number; col: number };

/**
 * How the live zone's cursor is shown.
 * - "hardware": the terminal's own cursor, moved there at the end of every frame. Every frame that
 *   changes a row above it (a streaming answer over the composer) pays a cursor trip there and back.
 * - "cell": the cursor's cell is drawn inverted and the terminal's cursor stays hidden wherever the
 *   last write ended, so the next streamed characters follow with no cursor move at all.
 * - "auto": "cell" while frames change rows other than the cursor's (streaming, spinners), the
 *   hardware cursor for frames that only touch its row (typing: IME and screen readers follow
 *   the hardware cursor) and again once frames stop for a moment.
 */
export type CursorStyle = "hardware" | "cell" | "auto";

export type FrameStats = {
  frame: number;
  bytes: number;
  cellsChanged: number;
  buildMs: number;
  diffMs: number;
  /** Why the whole live zone was redrawn, when it was. */
  repaint: string | null;
  /** How the cursor was shown in this frame (null: no cursor). */
  cursor?: "hardware" | "cell" | null;
};

export type ScreenStats = {
  frames: number;
  bytes: number;
  fullRepaints: number;
  last: FrameStats | null;
};

export type FullView = {
  readonly cols: number;
  readonly rows: number;
  /** Replaces the full-screen content (rows past the screen height are ignored). */
  draw(rows: Row[], cursor?: Cursor | null): void;
  /** Leaves the alternate screen: the main screen comes back exactly as it was. */
  close(): void;
};

/** The clock frames run on: real time, or a test's manual clock. */
export type FrameTimers = { now(): number; set(fn: () => void, ms: number): unknown; clear(handle: unknown): void };

/**
 * When a requested layout is due: `inMs` from now (a spinner's next glyph, a flash's end), or
 * `gapMs` after the last frame (streamed text's pace); both, the later. Neither: the next frame.
 */
export type LayoutWhen = { inMs?: number; gapMs?: number };

export type ScreenOptions = {
  output: ScreenOutput;
  caps: ScreenCaps;
  cols: number;
  rows: number;
  /** Schedule frames automatically (default true). Tests and benches call frame() themselves. */
  schedule?: boolean;
  /** Called with a line for every full repaint and every broken invariant (a row wider than the screen). */
  log?: (line: string) => void;
  /** Records every byte written (default: $KHAELOR_WRITE_LOG). */
  writeLogPath?: string;
  /** Minimum milliseconds between frames (default 16; 33 when remote). */
  frameIntervalMs?: number;
  /** Frames up to this long are not wrapped in DEC 2026 (default 1024 bytes). */
  syncMinBytes?: number;
  /** How the cursor given to setLive is shown (default "hardware"). */
  cursorStyle?: CursorStyle;
  /**
   * After this long without a frame the hardware cursor comes back ("auto"), or a hidden cursor
   * (no cursor given to setLive) moves to the live zone's top row (default 150 ms).
   */
  cursorSettleMs?: number;
  /**
   * Measure the link (./link.ts): a DA1 request rides behind frames, and scheduled frames wait
   * while it is unanswered. The caller hands the terminal's DA1 answers to linkAnswered().
   */
  measureLink?: boolean | { slowMs?: number; everyMs?: number };
  /** The frame clock (default: real time); tests hand in a manual one. */
  timers?: FrameTimers;
};

export type Screen = {
  readonly cols: number;
  readonly rows: number;
  commit(rows: Row[]): void;
  setLive(rows: Row[], cursor?: Cursor | null): void;
  resize(cols: number, rows: number): void;
  openFullView(): FullView;
  /** Renders now if anything changed; returns the frame's stats or null when nothing was dirty. */
  frame(): FrameStats | null;
  /** Marks everything dirty (e.g. after Ctrl-Z resume), optionally with a new size. */
  invalidate(): void;
  /**
   * The caller's layout runs just before a frame, at the earliest time asked for (`when`), on the
   * screen's one frame clock: no layout runs for a frame a slow link holds, and the caller keeps
   * no timer of its own. The latest `layout` given wins; a frame drawn sooner for another reason
   * runs it then.
   */
  requestLayout(layout: () => void, when?: LayoutWhen): void;
  /**
   * From now on the link is measured (as the measureLink option): call it once the terminal's DA1
   * answers reach linkAnswered(), or an answer lost before then would hold frames for a second.
   */
  measureLink(): void;
  /** The terminal answered a device-attributes request (measureLink). */
  linkAnswered(): void;
  /** While set, no request rides behind frames (the terminal is about to be handed over). */
  quietLink(quiet: boolean): void;
  readonly stats: ScreenStats;
  /** For tests and debugging: the cursor's row within the zone, and how the zone is made up. */
  debugZone(): { cursorRow: number; carryRows: number; liveRows: number };
  dispose(): void;
};
