// Renderer benchmarks: bytes and time per unit of work, ours beside a naive full-repaint baseline
// (clear the live zone and print every row again each frame, as Ink-style renderers do).
import type { Row } from "../src/tui/render/style.ts";
import { createScreen, type Screen } from "../src/tui/screen/screen.ts";

type Result = {
  name: string; cols: number; rows: number; frames: number; p50_ms: number; p99_ms: number;
  bytes: number; text_bytes: number; amplification: number; full_clears: number; cpu_ms: number;
  baseline: { bytes: number; amplification: number; p50_ms: number; p99_ms: number };
  [k: string]: unknown;
};

const pct = (xs: number[], p: number) => {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return +(s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0).toFixed(4);
};
const countClears = (s: string) => (s.match(/\x1b\[[23]J/g) ?? []).length;

/** A markdown-like answer: paragraphs, bullet lists, code blocks, headings; ~`size` bytes. */
function answer(size: number): string {
  const words = ["the", "renderer", "writes", "only", "changed", "cells", "to", "terminal", "scrollback", "stays", "intact", "while", "streaming", "tokens", "arrive", "quickly", "and", "frames", "coalesce"];
  let s = "";
  let i = 0;
  while (s.length < size) {
    const kind = i % 7;
    if (kind === 0) s += `## Section ${i}\n\n`;
    else if (kind === 3) s += "```ts\nconst x = compute(" + i + ");\nfor (const y of items) total += y.size;\n```\n\n";
    else if (kind === 5) s += `- item ${i}: ${words[i % words.length]} ${words[(i * 7) % words.length]}\n- another point about cells\n\n`;
    else {
      let p = "";
      for (let w = 0; w < 60 + (i % 40); w++) p += words[(i * 13 + w * 7) % words.length] + " ";
      s += p.trim() + "\n\n";
    }
    i++;
  }
  return s.slice(0, size);
}

/** Cuts one source line into rows filled to the edge (soft rows continue it), as the markdown layout does. */
function wrap(line: string, cols: number): Row[] {
  if (line.length === 0) return [{ spans: [] }];
  const rows: Row[] = [];
  for (let i = 0; i < line.length; i += cols) rows.push({ spans: [{ text: line.slice(i, i + cols) }], soft: i > 0 });
  return rows;
}

function sink() {
  let bytes = 0;
  let clears = 0;
  return { out: { write: (d: string) => { bytes += Buffer.byteLength(d); clears += countClears(d); return true; } }, get bytes() { return bytes; }, get clears() { return clears; } };
}

/** The baseline: move to the live zone top, erase below, print every live row (no diff). */
function naiveFrame(prevHeight: number, commits: Row[], live: Row[]): string {
  let s = prevHeight > 1 ? `\x1b[${prevHeight - 1}A` : "";
  s += "\r\x1b[J";
  const all = [...commits, ...live];
  s += all.map((r) => r.spans.map((sp) => sp.text).join("")).join("\r\n");
  return "\x1b[?2026h" + s + "\x1b[?2026l";
}

function status(n: number): Row[] {
  return [{ spans: [] }, { spans: [{ text: "> " }] }, { spans: [{ text: `claude-opus · ${n} tokens · $0.0${n % 10}`, style: { dim: true } }] }];
}

/** What the app shows under a streaming answer: a gap, the composer (busy hint, cursor on it), the status line. */
function appBottom(): Row[] {
  return [
    { spans: [] },
    { spans: [{ text: "» ", style: { fg: { kind: "index", n: 3 } } }, { text: "type to queue a message · Esc interrupts", style: { dim: true } }] },
    { spans: [{ text: "working", style: { fg: { kind: "index", n: 6 } } }, { text: "  ⏵ ask before edits", style: { fg: { kind: "index", n: 4 } } }, { text: "  claude-opus-5-5  ctx 12%  $0.042", style: { dim: true } }] },
  ];
}

type StreamCase = {
  cols: number; rows: number;
  /** 4-character deltas per frame: 1 is the worst case, 4 is ~1,000 chars/s at the 16 ms cadence. */
  deltasPerFrame: number;
  /** "none": the old bench (no composer cursor); otherwise the app's bottom rows with the composer cursor. */
  cursor: "none" | "hardware" | "auto";
  name: string;
};

async function stream(c: StreamCase): Promise<Result> {
  const { cols, rows, deltasPerFrame } = c;
  const text = answer(200 * 1024);
  const o = sink();
  const screen = createScreen({
    output: o.out, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows, schedule: false,
    ...(c.cursor === "none" ? {} : { cursorStyle: c.cursor === "auto" ? "auto" : "hardware" }),
  } as Parameters<typeof createScreen>[0]);
  const bottom = c.cursor === "none" ? status(0) : appBottom();
  const times: number[] = [];
  const base = { bytes: 0, times: [] as number[], height: 1 };
  const cpu0 = process.cpuUsage();
  let done = ""; // finished source lines are committed; the last (partial) line streams in the live zone
  let pos = 0;
  let frames = 0;
  while (pos < text.length) {
    pos = Math.min(text.length, pos + 4 * deltasPerFrame);
    const t0 = performance.now();
    const upto = text.slice(done.length, pos);
    const nl = upto.lastIndexOf("\n");
    let commits: Row[] = [];
    if (nl >= 0) {
      const finished = upto.slice(0, nl).split("\n");
      commits = finished.flatMap((l) => wrap(l, cols));
      done += upto.slice(0, nl + 1);
    }
    const tail = text.slice(done.length, pos);
    const liveRows = wrap(tail, cols);
    const live = [...liveRows, ...bottom];
    screen.commit(commits);
    screen.setLive(live, c.cursor === "none" ? null : { row: liveRows.length + 1, col: 2 });
    screen.frame();
    times.push(performance.now() - t0);
    const b0 = performance.now();
    const nb = naiveFrame(base.height, commits, live);
    base.bytes += Buffer.byteLength(nb);
    base.height = live.length;
    base.times.push(performance.now() - b0);
    frames++;
  }
  const cpu = process.cpuUsage(cpu0);
  const textBytes = Buffer.byteLength(text);
  return {
    name: `render.stream.${cols}x${rows}.${c.name}`, cols, rows, frames, p50_ms: pct(times, 0.5), p99_ms: pct(times, 0.99),
    bytes: o.bytes, text_bytes: textBytes, amplification: +(o.bytes / textBytes).toFixed(3), full_clears: o.clears,
    cpu_ms: +((cpu.user + cpu.system) / 1000).toFixed(1), full_repaints: screen.stats.fullRepaints,
    bytes_per_frame: +(o.bytes / frames).toFixed(1),
    baseline: { bytes: base.bytes, amplification: +(base.bytes / textBytes).toFixed(3), p50_ms: pct(base.times, 0.5), p99_ms: pct(base.times, 0.99) },
  };
}

async function keystroke(): Promise<Result> {
  const cols = 120, rows = 40;
  const o = sink();
  const screen = createScreen({ output: o.out, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows, schedule: false });
  // History: 10,000 messages committed (written once, then out of the renderer's hands).
  const history: Row[] = [];
  for (let i = 0; i < 10_000; i++) history.push({ spans: [{ text: `message ${i}: `, style: { bold: true } }, { text: "some earlier content in the transcript" }] });
  screen.commit(history);
  screen.setLive(status(0));
  screen.frame();
  const before = o.bytes;
  const typed = "refactor the renderer so that every keystroke costs only a few bytes ".repeat(1);
  const times: number[] = [];
  let composer = "";
  let base = 0;
  const cpu0 = process.cpuUsage();
  for (const ch of typed) {
    const t0 = performance.now();
    composer += ch;
    const live: Row[] = [{ spans: [] }, { spans: [{ text: "> " + composer }] }, { spans: [{ text: "claude-opus · idle", style: { dim: true } }] }];
    screen.setLive(live, { row: 1, col: 2 + composer.length });
    screen.frame();
    times.push(performance.now() - t0);
    base += Buffer.byteLength(naiveFrame(3, [], live));
  }
  const cpu = process.cpuUsage(cpu0);
  const bytes = o.bytes - before;
  return {
    name: "render.keystroke", cols, rows, frames: typed.length, p50_ms: pct(times, 0.5), p99_ms: pct(times, 0.99),
    bytes, text_bytes: typed.length, amplification: +(bytes / typed.length).toFixed(3), full_clears: o.clears,
    cpu_ms: +((cpu.user + cpu.system) / 1000).toFixed(1), bytes_per_key: +(bytes / typed.length).toFixed(1), history_messages: 10_000,
    baseline: { bytes: base, amplification: +(base / typed.length).toFixed(3), p50_ms: 0, p99_ms: 0, bytes_per_key: +(base / typed.length).toFixed(1) } as Result["baseline"],
  };
}

async function resize(): Promise<Result> {
  let cols = 120, rows = 40;
  const o = sink();
  const screen: Screen = createScreen({ output: o.out, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows, schedule: false });
  const para = answer(4000).replace(/\n/g, " ");
  const fill = () => { const r = wrap(para, cols).slice(0, rows - 4); return [...r, ...status(1)]; };
  screen.setLive(fill());
  screen.frame();
  const times: number[] = [];
  let base = 0;
  const cpu0 = process.cpuUsage();
  for (let i = 0; i < 100; i++) {
    cols = 80 + ((i * 37) % 100);
    rows = 30 + ((i * 11) % 30);
    const t0 = performance.now();
    screen.resize(cols, rows);
    const live = fill();
    screen.setLive(live);
    screen.frame();
    times.push(performance.now() - t0);
    base += Buffer.byteLength(naiveFrame(live.length, [], live));
  }
  const cpu = process.cpuUsage(cpu0);
  return {
    name: "render.resize", cols, rows, frames: 100, p50_ms: pct(times, 0.5), p99_ms: pct(times, 0.99),
    bytes: o.bytes, text_bytes: 0, amplification: 0, full_clears: o.clears, cpu_ms: +((cpu.user + cpu.system) / 1000).toFixed(1),
    baseline: { bytes: base, amplification: 0, p50_ms: 0, p99_ms: 0 },
  };
}

async function idle(): Promise<Result> {
  const o = sink();
  const screen = createScreen({ output: o.out, caps: { colorDepth: "truecolor", syncOutput: true }, cols: 120, rows: 40 });
  screen.setLive(status(1), { row: 1, col: 2 });
  await new Promise((r) => setTimeout(r, 50)); // let the scheduled first frame run
  const frames0 = screen.stats.frames;
  const cpu0 = process.cpuUsage();
  await new Promise((r) => setTimeout(r, 5000));
  const cpu = process.cpuUsage(cpu0);
  screen.dispose();
  return {
    name: "render.idle", cols: 120, rows: 40, frames: screen.stats.frames - frames0, p50_ms: 0, p99_ms: 0, bytes: 0, text_bytes: 0,
    amplification: 0, full_clears: o.clears, cpu_ms: +((cpu.user + cpu.system) / 1000).toFixed(2), seconds: 5,
    baseline: { bytes: 0, amplification: 0, p50_ms: 0, p99_ms: 0 },
  };
}

export async function run(_opts: { json: boolean }): Promise<Result[]> {
  // One frame per 4-char delta is the worst case; 4 deltas per frame is 16 chars per 16 ms frame
  // (~1,000 chars/s, a fast model) with the scheduler coalescing. The "none" rows keep the old
  // bench's live zone (no composer cursor) so figures stay comparable across commits.
  const out: Result[] = [];
  for (const [cols, rows] of [[120, 40], [200, 60]] as const) {
    out.push(await stream({ cols, rows, deltasPerFrame: 1, cursor: "none", name: "frame_per_delta" }));
    out.push(await stream({ cols, rows, deltasPerFrame: 4, cursor: "none", name: "4_deltas_per_frame" }));
    // The app's live zone: composer and status line under the tail, the composer's cursor shown.
    out.push(await stream({ cols, rows, deltasPerFrame: 4, cursor: "hardware", name: "app_16ms.cursor_hardware" }));
    out.push(await stream({ cols, rows, deltasPerFrame: 4, cursor: "auto", name: "app_16ms.cursor_auto" }));
    out.push(await stream({ cols, rows, deltasPerFrame: 1, cursor: "auto", name: "app_frame_per_delta.cursor_auto" }));
  }
  out.push(await keystroke(), await resize(), await idle());
  return out;
}
