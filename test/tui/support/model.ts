// Test-side layout and random content, independent of the renderer's own layout code: a logical
// line of styled segments is char-wrapped at a width into Rows (soft rows continue the line).
import stringWidth from "string-width";
import type { Row, Span, Style } from "../../../src/tui/render/style.ts";
import { seededRandom } from "../../support/prng.ts";

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

export type Line = Span[];

/** Clusters → the cells a terminal model draws them in (from cellsInModel), or null: whole clusters, string-width wide. */
let cellModel: Map<string, Array<{ g: string; w: number }>> | null = null;

export function setCellModel(map: Map<string, Array<{ g: string; w: number }>> | null): void {
  cellModel = map && new Map(map);
  // A row break inside a cluster the terminal draws as several cells leaves part of it on each
  // row, and the part is segmented again as a cluster of its own: every run of cells is known too.
  for (const cells of map?.values() ?? []) {
    for (let i = 0; i < cells.length; i++) {
      for (let j = i + 1; j <= cells.length; j++) {
        const run = cells.slice(i, j);
        cellModel!.set(run.map((c) => c.g).join(""), run);
      }
    }
  }
}

export function graphemesOf(line: Line): Array<{ g: string; w: number; style: Style | undefined }> {
  const out: Array<{ g: string; w: number; style: Style | undefined }> = [];
  for (const span of line) {
    for (const { segment } of segmenter.segment(span.text)) {
      const cells = cellModel?.get(segment);
      if (cells) {
        for (const c of cells) out.push({ g: c.g, w: c.w, style: span.style });
        continue;
      }
      const w = Math.min(2, stringWidth(segment));
      if (w > 0) out.push({ g: segment, w, style: span.style });
    }
  }
  return out;
}

export function lineText(line: Line): string {
  return graphemesOf(line).map((c) => c.g).join("");
}

/** Char-wraps a line at `cols`; a wide grapheme that does not fit starts the next row. */
export function layoutLine(line: Line, cols: number, firstSoft = false): Row[] {
  const rows: Row[] = [];
  let spans: Span[] = [];
  let x = 0;
  let soft = firstSoft;
  const push = (g: string, style: Style | undefined) => {
    const last = spans[spans.length - 1];
    if (last && last.style === style) last.text += g;
    else spans.push(style ? { text: g, style } : { text: g });
  };
  for (const c of graphemesOf(line)) {
    if (x + c.w > cols) {
      rows.push({ spans, soft });
      spans = [];
      x = 0;
      soft = true;
    }
    push(c.g, c.style);
    x += c.w;
  }
  rows.push({ spans, soft });
  return rows;
}

export function rowText(row: Row): string {
  return row.spans.map((s) => s.text).join("");
}

/** Deterministic PRNG (mulberry32): a failing seed replays exactly. */
export function prng(seed: number): { next(): number; int(n: number): number; pick<T>(a: readonly T[]): T } {
  const next = seededRandom(seed);
  return { next, int: (n) => Math.floor(next() * n), pick: (arr) => arr[Math.floor(next() * arr.length)]! };
}

export const WORDS = [
  "hello", "world", "the", "renderer", "diff", "a", "streaming", "x", "commit", "scrollback",
  "中文", "字符宽度", "한국어", "👨‍👩‍👧", "❤️", "☺️", "é", "naïve", "🇫🇷", "👍🏽", "∑", "ｱｲｳ", "🙂", "e\u0301\u0302",
];

export const STYLES: ReadonlyArray<Style | undefined> = [
  undefined, undefined, undefined,
  { bold: true },
  { italic: true, fg: { kind: "rgb", r: 200, g: 120, b: 40 } },
  { underline: true, bg: { kind: "index", n: 4 } },
  { fg: { kind: "index", n: 203 }, dim: true },
  { inverse: true },
  { link: "https://example.com/x", underline: true },
];
