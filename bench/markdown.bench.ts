// Streaming markdown costs: parse + layout per 4-character delta over a 200 KB answer (settled
// rows plus tail rows, as one frame would ask for them), against re-rendering the whole text so far
// on each delta; and highlighting (the lexers in src/tui/markdown/highlight/) per completed code line.
import type { BenchResult } from "./run.ts";
import { createMarkdownStream, renderMarkdown } from "../src/tui/markdown/index.ts";
import { highlightCode, StreamingHighlighter } from "../src/tui/markdown/highlight/highlighter.ts";

function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS = "the parser settles each block once and only the tail is parsed again so a long answer stays cheap while it streams into the terminal".split(" ");

/** A model-like answer: headings, prose with inline marks, lists, tables and code blocks. */
function answer(bytes: number): string {
  const rand = prng(2024);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rand() * xs.length)]!;
  const sentence = (n: number) => Array.from({ length: n }, () => pick(WORDS)).join(" ");
  const code = [
    "export function settle(blocks: Block[], width: number): Row[] {",
    "  const rows: Row[] = [];",
    "  for (const b of blocks) {",
    "    // lay out once per width",
    '    rows.push(...layout(b, width, "soft"));',
    "  }",
    "  return rows;",
    "}",
  ];
  const parts: string[] = [];
  let size = 0;
  while (size < bytes) {
    const r = rand();
    let p: string;
    if (r < 0.08) p = `## ${sentence(4)}`;
    else if (r < 0.55) p = `${sentence(20)} **${sentence(2)}** and \`${pick(WORDS)}()\` with [a link](https://example.com/${pick(WORDS)}) ${sentence(25)}.`;
    else if (r < 0.72) p = Array.from({ length: 4 }, () => `- ${sentence(12)}`).join("\n");
    else if (r < 0.8) p = "| name | value | note |\n|---|--:|---|\n" + Array.from({ length: 5 }, () => `| ${pick(WORDS)} | ${Math.floor(rand() * 1000)} | ${sentence(6)} |`).join("\n");
    else p = "```ts\n" + Array.from({ length: 6 + Math.floor(rand() * 30) }, (_, i) => code[i % code.length]).join("\n") + "\n```";
    parts.push(p);
    size += p.length + 2;
  }
  return parts.join("\n\n") + "\n";
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const us = (ms: number) => Math.round(ms * 1000 * 10) / 10;

export async function run(_opts: { json: boolean }): Promise<BenchResult[]> {
  const text = answer(200_000);
  const width = 100;
  const DELTA = 4;

  // Streaming: one frame per delta asks for settled and tail rows.
  const stream = createMarkdownStream({ width, links: true });
  const times: number[] = [];
  const t0 = performance.now();
  for (let i = 0; i < text.length; i += DELTA) {
    const s = performance.now();
    stream.append(text.slice(i, i + DELTA));
    stream.settledRows();
    stream.tailRows();
    times.push(performance.now() - s);
  }
  stream.finish();
  stream.settledRows();
  const total = performance.now() - t0;
  const sorted = times.slice().sort((a, b) => a - b);

  // Baseline: render the whole text so far on each delta. Running all 50,000 would take many
  // minutes (it is quadratic), so it is sampled at evenly spaced points and the total estimated.
  const SAMPLES = 40;
  const deltas = Math.ceil(text.length / DELTA);
  let sampled = 0;
  for (let k = 1; k <= SAMPLES; k++) {
    const end = Math.floor((k / SAMPLES) * text.length);
    const s = performance.now();
    renderMarkdown(text.slice(0, end), { width, links: true });
    sampled += performance.now() - s;
  }
  const baselineMean = sampled / SAMPLES;
  const baselineTotal = baselineMean * deltas;

  // Highlighting: a 600-line TypeScript block streamed line by line, versus whole-block highlighting.
  const lines: string[] = [];
  for (let i = 0; i < 600; i++) lines.push(`const value${i} = compute(${i}, "text ${i}"); // note ${i}`);
  const h = new StreamingHighlighter();
  const lineTimes: number[] = [];
  for (let n = 1; n <= lines.length; n++) {
    const complete = lines.slice(0, n);
    const s = performance.now();
    h.highlight("typescript", "bench", complete);
    lineTimes.push(performance.now() - s);
  }
  h.reset();
  const hs = lineTimes.slice().sort((a, b) => a - b);
  const w0 = performance.now();
  highlightCode("typescript", lines.join("\n") + "\n");
  const whole = performance.now() - w0;

  return [
    {
      name: "markdown.stream_200kb_4char_deltas",
      bytes: text.length,
      deltas,
      p50_us_per_delta: us(percentile(sorted, 50)),
      p99_us_per_delta: us(percentile(sorted, 99)),
      max_ms_per_delta: Math.round(sorted[sorted.length - 1]! * 100) / 100,
      total_ms: Math.round(total),
      baseline_note: `re-render whole text per delta: sampled at ${SAMPLES} points, total estimated`,
      baseline_mean_ms_per_delta: Math.round(baselineMean * 100) / 100,
      baseline_total_ms_estimated: Math.round(baselineTotal),
      speedup_vs_baseline: Math.round(baselineTotal / total),
    },
    {
      name: "markdown.highlight_per_completed_code_line",
      language: "typescript",
      lines: lines.length,
      p50_us_per_line: us(percentile(hs, 50)),
      p99_us_per_line: us(percentile(hs, 99)),
      mean_us_per_line: us(lineTimes.reduce((a, b) => a + b, 0) / lineTimes.length),
      whole_block_us_per_line: us(whole / lines.length),
    },
  ];
}
