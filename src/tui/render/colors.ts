// Colour depth mapping: producers describe colours in truecolor or the 256 palette; the terminal
// gets the closest thing it can show. Nearest-match uses plain RGB distance, which is good enough
// for UI accents and keeps the mapping table-free.
import type { Color } from "./style.ts";

/** What the terminal can show. "none": attributes but no colour (NO_COLOR). "plain": no SGR at all (TERM=dumb). */
export type ColorDepth = "truecolor" | "256" | "16" | "none" | "plain";

// xterm's default 16-colour palette: the best guess for what "red" looks like on the user's screen.
const ANSI16: ReadonlyArray<readonly [number, number, number]> = [
  [0, 0, 0], [205, 0, 0], [0, 205, 0], [205, 205, 0], [0, 0, 238], [205, 0, 205], [0, 205, 205], [229, 229, 229],
  [127, 127, 127], [255, 0, 0], [0, 255, 0], [255, 255, 0], [92, 92, 255], [255, 0, 255], [0, 255, 255], [255, 255, 255],
];
const CUBE = [0, 95, 135, 175, 215, 255];

function dist(a: readonly [number, number, number], r: number, g: number, b: number): number {
  const dr = a[0] - r, dg = a[1] - g, db = a[2] - b;
  return dr * dr + dg * dg + db * db;
}

/** RGB of a 256-palette entry (16..255 exactly; 0..15 via xterm's defaults). */
export function paletteRgb(n: number): [number, number, number] {
  if (n < 16) return [...(ANSI16[n] ?? [0, 0, 0])] as [number, number, number];
  if (n < 232) {
    const i = n - 16;
    return [CUBE[Math.floor(i / 36)] ?? 0, CUBE[Math.floor(i / 6) % 6] ?? 0, CUBE[i % 6] ?? 0];
  }
  const v = 8 + (n - 232) * 10;
  return [v, v, v];
}

function nearestCubeLevel(v: number): number {
  let best = 0;
  for (let i = 1; i < CUBE.length; i++) if (Math.abs((CUBE[i] ?? 0) - v) < Math.abs((CUBE[best] ?? 0) - v)) best = i;
  return best;
}

export function rgbTo256(r: number, g: number, b: number): number {
  const cube = 16 + 36 * nearestCubeLevel(r) + 6 * nearestCubeLevel(g) + nearestCubeLevel(b);
  const avg = Math.round((r + g + b) / 3);
  const grayIdx = Math.max(0, Math.min(23, Math.round((avg - 8) / 10)));
  const gray = 232 + grayIdx;
  return dist(paletteRgb(gray), r, g, b) < dist(paletteRgb(cube), r, g, b) ? gray : cube;
}

export function rgbTo16(r: number, g: number, b: number): number {
  let best = 0;
  let bestD = Infinity;
  for (let i = 0; i < 16; i++) {
    const d = dist(ANSI16[i] ?? [0, 0, 0], r, g, b);
    if (d < bestD) { bestD = d; best = i; }
  }
  return best;
}

/** SGR parameters selecting `c` as foreground (or background) at `depth`; "" when colour is off. */
export function colorParams(c: Color, depth: ColorDepth, background: boolean): string {
  if (depth === "none" || depth === "plain") return "";
  let n: number;
  if (c.kind === "rgb") {
    const r = clamp(c.r), g = clamp(c.g), b = clamp(c.b);
    if (depth === "truecolor") return `${background ? 48 : 38};2;${r};${g};${b}`;
    n = depth === "256" ? rgbTo256(r, g, b) : rgbTo16(r, g, b);
  } else {
    n = Math.max(0, Math.min(255, Math.floor(c.n)));
    if (depth === "16" && n >= 16) {
      const [r, g, b] = paletteRgb(n);
      n = rgbTo16(r, g, b);
    }
  }
  if (n < 8) return String((background ? 40 : 30) + n);
  if (n < 16) return String((background ? 100 : 90) + n - 8);
  return `${background ? 48 : 38};5;${n}`;
}

function clamp(v: number): number {
  return Math.max(0, Math.min(255, Math.round(v)));
}
