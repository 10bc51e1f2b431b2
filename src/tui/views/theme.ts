// The app's colours. Like the markdown theme, the terminal's own 16 colours, so the user's
// palette decides how things look, with one exception: secondary text (borders, line numbers, the
// mode, queued messages) is bright black on a dark background, which many light palettes draw
// near-invisible (a pale grey on white). The light theme gives it a fixed dark grey (256-colour
// 240, about 7:1 on white) or, with only 16 colours, black. The theme is picked at start-up from
// the background the terminal reported (OSC 11), or COLORFGBG, or "theme" in settings.
import type { ColorDepth } from "../render/colors.ts";
import type { Color, Style } from "../render/style.ts";
import { setMarkdownSecondary } from "../markdown/theme.ts";

const ansi = (n: number) => ({ kind: "index", n }) as const;

export type ThemeName = "dark" | "light";
export type ThemeChoice = ThemeName | "auto";

/** Secondary text's colour in `theme` at `depth`. */
export function secondaryColor(theme: ThemeName, depth: ColorDepth): Color {
  if (theme === "dark") return ansi(8);
  return depth === "16" ? ansi(0) : ansi(240);
}

/** Light when the background is brighter than mid-grey (perceived brightness). */
export function isLightBackground(bg: { r: number; g: number; b: number }): boolean {
  return (0.299 * bg.r + 0.587 * bg.g + 0.114 * bg.b) / 255 > 0.5;
}

/** The theme for `choice`: "auto" reads the reported background, then COLORFGBG ("fg;bg", rxvt and others), else dark. */
export function resolveTheme(choice: ThemeChoice, bg: { r: number; g: number; b: number } | null, env: Record<string, string | undefined>): ThemeName {
  if (choice !== "auto") return choice;
  if (bg) return isLightBackground(bg) ? "light" : "dark";
  const colorBg = Number((env.COLORFGBG ?? "").split(";").pop());
  if (colorBg === 7 || colorBg === 15) return "light";
  return "dark";
}

let current: ThemeName = "dark";

export function currentTheme(): ThemeName {
  return current;
}

/**
 * Switches the app's and markdown's secondary colour. Styles are new objects, so the renderer
 * (which caches by object) picks them up; rows already in the scrollback keep theirs.
 */
export function setTheme(theme: ThemeName, depth: ColorDepth): void {
  current = theme;
  const c = secondaryColor(theme, depth);
  Object.assign(ui, build(c));
  setMarkdownSecondary(c);
}

function build(secondary: Color) {
  return {
  dim: { dim: true } as Style,
  bold: { bold: true } as Style,
  accent: { fg: ansi(6) } as Style,
  accentBold: { fg: ansi(6), bold: true } as Style,
  ok: { fg: ansi(2) } as Style,
  error: { fg: ansi(1) } as Style,
  errorBold: { fg: ansi(1), bold: true } as Style,
  warn: { fg: ansi(3) } as Style,
  /** A marker for an invisible character (./invisibles.ts): the warning colour as a box, so it never reads as the file's own text. */
  invisible: { fg: ansi(3), inverse: true } as Style,
  user: { fg: ansi(4), bold: true } as Style,
  userText: { bold: true } as Style,
  thinking: { dim: true, italic: true } as Style,
  selected: { inverse: true } as Style,
  key: { fg: ansi(3), bold: true } as Style,
  cursor: { inverse: true } as Style,
  placeholder: { dim: true, italic: true } as Style,
  paste: { fg: ansi(5) } as Style,
  mention: { fg: ansi(6) } as Style,
  border: { fg: secondary } as Style,
  match: { fg: ansi(0), bg: ansi(3) } as Style,
  currentMatch: { fg: ansi(0), bg: ansi(6) } as Style,
  diffAdded: { fg: ansi(2) } as Style,
  diffRemoved: { fg: ansi(1) } as Style,
  diffHunk: { fg: ansi(6), dim: true } as Style,
  lineNo: { fg: secondary } as Style,
  queued: { fg: secondary, italic: true } as Style,
  mode: {
    default: { fg: secondary } as Style,
    acceptEdits: { fg: ansi(5), bold: true } as Style,
    plan: { fg: ansi(6), bold: true } as Style,
    bypassPermissions: { fg: ansi(1), bold: true } as Style,
    dontAsk: { fg: ansi(3), bold: true } as Style,
  },
  };
}

export const ui = build(ansi(8));
