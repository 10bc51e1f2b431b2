// The app's colours. Like the markdown theme, only the terminal's own 16 colours, so the user's
// palette (light or dark) decides how things look.
import type { Style } from "../render/style.ts";

const ansi = (n: number) => ({ kind: "index", n }) as const;

export const ui = {
  dim: { dim: true } as Style,
  bold: { bold: true } as Style,
  accent: { fg: ansi(6) } as Style,
  accentBold: { fg: ansi(6), bold: true } as Style,
  ok: { fg: ansi(2) } as Style,
  error: { fg: ansi(1) } as Style,
  errorBold: { fg: ansi(1), bold: true } as Style,
  warn: { fg: ansi(3) } as Style,
  user: { fg: ansi(4), bold: true } as Style,
  userText: { bold: true } as Style,
  thinking: { dim: true, italic: true } as Style,
  selected: { inverse: true } as Style,
  key: { fg: ansi(3), bold: true } as Style,
  cursor: { inverse: true } as Style,
  placeholder: { dim: true, italic: true } as Style,
  paste: { fg: ansi(5) } as Style,
  mention: { fg: ansi(6) } as Style,
  border: { fg: ansi(8) } as Style,
  match: { fg: ansi(0), bg: ansi(3) } as Style,
  currentMatch: { fg: ansi(0), bg: ansi(6) } as Style,
  diffAdded: { fg: ansi(2) } as Style,
  diffRemoved: { fg: ansi(1) } as Style,
  diffHunk: { fg: ansi(6), dim: true } as Style,
  lineNo: { fg: ansi(8) } as Style,
  queued: { fg: ansi(8), italic: true } as Style,
  mode: {
    default: { fg: ansi(8) } as Style,
    acceptEdits: { fg: ansi(5), bold: true } as Style,
    plan: { fg: ansi(6), bold: true } as Style,
    bypassPermissions: { fg: ansi(1), bold: true } as Style,
    dontAsk: { fg: ansi(3), bold: true } as Style,
  },
};
