// Measuring how the terminal draws emoji sequences: each sample is drawn concealed (SGR 8) at the
// cursor's place, the cursor's column is asked for (DSR 6n), and the cursor is put back (DECSC /
// DECRC) before the next one; the drawn cells are erased at the end (EL), before the first frame
// draws there. Inside tmux it is tmux that answers, from its own grid: we measure tmux's rules,
// which are the ones that decide where its cells go.
import { ruleFromSamples, SAFE, type SampleWidths, type WidthRule } from "../render/width-rules.ts";

/** One sample per feature the rules tell apart (src/tui/render/width-rules.ts). */
export const SAMPLES: Record<keyof SampleWidths, string> = {
  zwj: "\u{1f469}\u200d\u{1f4bb}", // 👩‍💻: 2 joined, 4 per code point
  vs16: "\u2764\ufe0f", // ❤️: 2 widened, 1 not
  modifier: "\u{1f44d}\u{1f3fd}", // 👍🏽: 2 joined, 4 apart
  flag: "\u{1f1eb}\u{1f1f7}", // 🇫🇷: 2 a pair, 4 each wide
};
const ORDER = ["zwj", "vs16", "modifier", "flag"] as const;

/** The bytes of the probe; it asks for 1 + ORDER.length cursor reports. */
export const WIDTH_PROBE = "\x1b7\x1b[6n" + ORDER.map((k) => `\x1b[8m${SAMPLES[k]}\x1b[6n\x1b8`).join("") + "\x1b[K";
export const WIDTH_PROBE_REPORTS = 1 + ORDER.length;

/**
 * The rule the cursor reports say (in the order asked), or SAFE when they are missing or not on
 * one row (the cursor started near the right edge and a sample wrapped).
 */
export function widthRuleFromReports(reports: Array<{ row: number; col: number }>): WidthRule {
  if (reports.length < WIDTH_PROBE_REPORTS) return SAFE;
  const [start, ...after] = reports;
  if (!start || after.some((r) => r.row !== start.row)) return SAFE;
  const m = Object.fromEntries(ORDER.map((k, i) => [k, (after[i]?.col ?? 0) - start.col])) as SampleWidths;
  return ruleFromSamples(m);
}
