// Invariant 3 (ARCHITECTURE.md): after every frame, a real terminal emulator fed our bytes shows
// exactly the committed history in order, then the live zone; nothing lost, doubled or re-wrapped.
// Random edits (wide chars, ZWJ emoji, VS16, combining marks, CJK, styles), commits (whole and
// partial lines), cursor moves, resizes with reflow, and alternate-screen round trips. The same
// scenario against a naive full-repaint renderer proves the oracle accepts a correct renderer, and
// a subtly broken one proves it can fail.
import { describe, expect, test } from "bun:test";
import type { Row, Style } from "../../../src/tui/render/style.ts";
import { createScreen, type Cursor, type CursorStyle } from "../../../src/tui/screen/screen.ts";
import { setWidthRule } from "../../../src/tui/render/width.ts";
import { CODEPOINT, GRAPHEME, type WidthRule } from "../../../src/tui/render/width-rules.ts";
import { STYLES, WORDS, graphemesOf, layoutLine, lineText, prng, rowText, setCellModel, type Line } from "../support/model.ts";
import { cellsInModel, createTestTerminal, type PendingWrapModel, type TestTerminal, type WidthModel } from "../support/terminal.ts";

type Subject = {
  commit(rows: Row[]): void;
  setLive(rows: Row[], cursor: Cursor | null): void;
  resize(cols: number, rows: number): void;
  frame(): string;
  /** How the last frame showed the cursor (the naive renderer always uses the hardware cursor). */
  cursorShown?(): "hardware" | "cell" | null;
  /** Buffer line where the live rows start. */
  liveTop(t: TestTerminal): number;
  fullView?: { open(): void; draw(rows: Row[]): void; close(): void };
};

function screenSubject(cols: number, rows: number, cursorStyle: CursorStyle = "hardware"): Subject {
  let out = "";
  const s = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows, schedule: false, cursorStyle });
  let view: ReturnType<typeof s.openFullView> | null = null;
  const take = () => { const o = out; out = ""; return o; };
  return {
    commit: (r) => s.commit(r),
    setLive: (r, c) => s.setLive(r, c),
    resize: (c, r) => s.resize(c, r),
    frame: () => { s.frame(); return take(); },
    cursorShown: () => s.stats.last?.cursor ?? null,
    liveTop: (t) => { const d = s.debugZone(); return t.cursor().line - d.cursorRow + d.carryRows; },
    fullView: {
      open: () => { view = s.openFullView(); },
      draw: (r) => view!.draw(r),
      close: () => { view!.close(); view = null; },
    },
  };
}

/** Clears everything and prints all history (re-laid out at the current width), then the live rows. */
function naiveSubject(cols: number, rows: number, clearScrollback = true): Subject {
  const history: Row[][] = []; // committed rows grouped into logical lines
  let live: Row[] = [];
  let cursor: Cursor | null = null;
  let top = 0;
  const sgr = (st: Style | undefined) => {
    if (!st) return "\x1b[0m";
    const p = ["0"];
    if (st.bold) p.push("1"); if (st.dim) p.push("2"); if (st.italic) p.push("3"); if (st.underline) p.push("4");
    if (st.inverse) p.push("7"); if (st.strikethrough) p.push("9");
    for (const [c, base] of [[st.fg, 38], [st.bg, 48]] as const) {
      if (!c) continue;
      if (c.kind === "rgb") p.push(`${base};2;${c.r};${c.g};${c.b}`);
      else if (c.n < 8) p.push(String(base - 8 + c.n)); else if (c.n < 16) p.push(String(base + 52 + c.n - 8)); else p.push(`${base};5;${c.n}`);
    }
    return `\x1b[${p.join(";")}m`;
  };
  return {
    commit(r) { for (const row of r) { if (row.soft && history.length > 0) history[history.length - 1]!.push(row); else history.push([row]); } },
    setLive(r, c) { live = r; cursor = c; },
    resize(c, r) { cols = c; rows = r; },
    frame() {
      const all: Row[] = [];
      for (const group of history) all.push(...layoutLine(group.flatMap((row) => row.spans), cols));
      top = all.length;
      all.push(...live);
      let out = "\x1b[H\x1b[2J" + (clearScrollback ? "\x1b[3J" : "");
      let x = 0;
      all.forEach((row, i) => {
        const first = graphemesOf(row.spans)[0];
        if (i > 0) {
          if (row.soft) { const target = first && first.w === 2 && x === cols - 1 ? cols - 1 : cols; while (x < target) { out += "\x1b[0m "; x++; } }
          else out += "\r\n";
        }
        x = 0;
        for (const s of row.spans) { out += sgr(s.style) + s.text; }
        for (const g of graphemesOf(row.spans)) x += g.w;
      });
      out += "\x1b[0m";
      if (cursor) {
        const baseY = Math.max(0, all.length - rows);
        out += `\x1b[${top + cursor.row - baseY + 1};${cursor.col + 1}H`;
      }
      return out;
    },
    liveTop: () => top,
  };
}

const expectedStyle = (st: Style | undefined) => {
  const color = (c: Style["fg"]) => (!c ? "default" : c.kind === "rgb" ? `rgb:${((c.r << 16) | (c.g << 8) | c.b).toString(16).padStart(6, "0")}` : `index:${c.n}`);
  return { bold: !!st?.bold, italic: !!st?.italic, underline: !!st?.underline, inverse: !!st?.inverse, strike: !!st?.strikethrough, dim: !!st?.dim, fg: color(st?.fg), bg: color(st?.bg) };
};

/** The cell the screen draws as the cursor (inverted), as the grapheme that covers `col`. */
type CellCursor = { row: number; col: number };

function checkTerminal(t: TestTerminal, history: string[], liveLines: string[], liveRows: Row[], top: number, where: string, cell: CellCursor | null = null): void {
  const want = [...history, ...liveLines].map((l) => l.replace(/ +$/, ""));
  while (want.length > 0 && want[want.length - 1] === "") want.pop();
  const got = t.logicalLines();
  if (JSON.stringify(got) !== JSON.stringify(want)) {
    throw new Error(`${where}: terminal lines differ from history + live\nwant ${JSON.stringify(want)}\ngot  ${JSON.stringify(got)}`);
  }
  const lines = t.lines();
  liveRows.forEach((row, i) => {
    const g = (lines[top + i] ?? "").replace(/ +$/, "");
    if (g !== rowText(row).replace(/ +$/, "")) throw new Error(`${where}: live row ${i} shows ${JSON.stringify(g)}, want ${JSON.stringify(rowText(row))}`);
    let x = 0;
    let covered = false;
    for (const c of graphemesOf(row.spans)) {
      const got = t.cellStyle(top + i, x);
      const exp = expectedStyle(c.style);
      const isCursor = cell !== null && cell.row === i && cell.col >= x && cell.col < x + c.w;
      if (isCursor) { exp.inverse = !exp.inverse; covered = true; }
      // A blank shows only what is drawn across the cell: its foreground, bold and dim only under
      // underline, strikethrough or inversion (the painter prints blanks in whatever pen looks so).
      if (c.g === " " && !isCursor && got) {
        const lines = exp.underline || exp.strike || exp.inverse;
        const look = (v: typeof exp) => ({ bg: v.bg, underline: v.underline, strike: v.strike, inverse: v.inverse, ...(lines ? { fg: v.fg, bold: v.bold, dim: v.dim } : {}) });
        if (JSON.stringify(look(got)) !== JSON.stringify(look(exp))) throw new Error(`${where}: live row ${i} col ${x} blank looks ${JSON.stringify(got)}, want ${JSON.stringify(exp)}`);
      }
      if ((c.g !== " " || isCursor) && JSON.stringify(got) !== JSON.stringify(exp)) throw new Error(`${where}: live row ${i} col ${x} style ${JSON.stringify(got)}, want ${JSON.stringify(exp)}${isCursor ? " (the cursor cell)" : ""}`);
      x += c.w;
    }
    if (cell && cell.row === i && !covered && !t.cellStyle(top + i, cell.col)?.inverse) throw new Error(`${where}: the cursor cell (row ${i} col ${cell.col}, past the text) is not drawn inverted`);
  });
}

/** Fixed rows under the live lines, like the app's composer and status line (at most 9 cells wide). */
const FOOTERS: Row[][] = [
  [],
  [{ spans: [{ text: "» ", style: { bold: true } }, { text: "ask", style: { dim: true } }] }],
  [{ spans: [] }, { spans: [{ text: "» ", style: { bold: true } }, { text: "中文 x", style: { dim: true } }] }, { spans: [{ text: "status", style: { fg: { kind: "index", n: 6 } } }, { text: " 1" }] }],
  [{ spans: [{ text: "❤️ ok" }] }, { spans: [{ text: "st", style: { inverse: true } }, { text: "atus" }] }],
];

/**
 * `tall`: the live lines may grow taller than the viewport, as a long code block or list does
 * before it settles. The screen then shows their last rows only; those clipped off the top were
 * never on screen, and when they are committed the terminal must show each exactly once.
 */
type ScenarioOptions = { tall?: boolean; size?: readonly [number, number]; pendingWrap?: PendingWrapModel; widths?: WidthModel; onlcr?: boolean };

async function runScenario(seed: number, make: (cols: number, rows: number, cursorStyle: CursorStyle) => Subject, steps: number, opts: ScenarioOptions = {}): Promise<void> {
  const rnd = prng(seed);
  // Drawn from their own stream, so the edits a seed makes stay the same whatever is added here.
  const extra = prng(seed ^ 0x5bd1e995);
  const footer = FOOTERS[extra.int(FOOTERS.length)]!;
  const cursorStyle = extra.pick(["hardware", "auto", "cell"] as const);
  let cols = opts.size?.[0] ?? 16 + rnd.int(50);
  let rows = opts.size?.[1] ?? 12 + rnd.int(10);
  const t = createTestTerminal({ cols, rows, pendingWrap: opts.pendingWrap, widths: opts.widths });
  if (opts.onlcr) t.term.options.convertEol = true;
  const subject = make(cols, rows, cursorStyle);
  const history: string[] = [];
  const live: Line[] = [[]];
  let k = 0; // graphemes of live[0] already committed (a partial commit)
  let cursorOn = false;
  const restOf0 = (): Line => graphemesOf(live[0] ?? []).slice(k).map((c) => (c.style ? { text: c.g, style: c.style } : { text: c.g }));
  const linesRows = (i: number): Row[] => (i === 0 && k > 0 ? layoutLine(restOf0(), cols, true) : layoutLine(live[i]!, cols));
  const liveRows = (): Row[] => live.flatMap((_, i) => linesRows(i));
  const commitLines = (m: number) => {
    const rowsOut: Row[] = [];
    for (let i = 0; i < m; i++) { rowsOut.push(...linesRows(0)); history.push(lineText(live.shift()!)); k = 0; }
    subject.commit(rowsOut);
  };
  const word = () => ({ text: rnd.pick(WORDS) + (rnd.int(3) === 0 ? "" : " "), style: rnd.pick(STYLES) });
  try {
    for (let step = 0; step < steps; step++) {
      const ops = 1 + rnd.int(3);
      for (let o = 0; o < ops; o++) {
        const r = rnd.int(100);
        if (opts.tall && r < 10) {
          // A burst of short lines: a code block or list streaming past the screen's height.
          for (let n = 1 + rnd.int(rows + 4); n > 0; n--) live.push([word()]);
        } else if (r < 40) {
          if (live.length === 0) live.push([]);
          const i = live.length - 1;
          if (layoutLine(live[i]!, cols).length >= 3) live.push([word()]);
          else live[i]!.push(word());
        } else if (r < 50) live.push([]);
        else if (r < 60) {
          const i = rnd.int(live.length);
          if (live.length > 0 && !(i === 0 && k > 0)) live[i] = Array.from({ length: 1 + rnd.int(5) }, word);
        } else if (r < 65) {
          const i = rnd.int(live.length);
          if (live.length > 1 && !(i === 0 && k > 0)) live.splice(i, 1);
        } else if (r < 80) {
          if (live.length > 0) commitLines(1 + rnd.int(live.length));
        } else if (r < 88) {
          // The app commits whole blocks; a line committed in part and continued by a zone taller
          // than the screen is broken where it overflows (screen.ts), which this model leaves out.
          if (opts.tall) continue;
          const first = live.length > 0 ? linesRows(0) : [];
          if (first.length >= 2) {
            const j = 1 + rnd.int(first.length - 1);
            const part = first.slice(0, j);
            subject.commit(part);
            k += part.reduce((n, row) => n + graphemesOf(row.spans).length, 0);
          }
        } else if (r < 94) {
          if (opts.tall) continue; // resizes are run with a live zone that fits (see below)
          // A partly committed line is finished first: re-laid out at a new width, its live part would
          // start a fresh row after the re-wrapped committed part, leaving a gap inside the line.
          if (k > 0) commitLines(1);
          cols = Math.max(10, Math.min(100, Math.ceil(cols / 2) + rnd.int(cols * 2 - Math.ceil(cols / 2))));
          rows = 12 + rnd.int(12);
          t.resize(cols, rows);
          subject.resize(cols, rows);
        } else if (r < 98) cursorOn = !cursorOn;
        else if (subject.fullView && step > 2) {
          subject.fullView.open();
          const drawn = [{ spans: [{ text: "PAGER " + step, style: { bold: true } }] }, { spans: [{ text: "中文 ❤️ e\u0301" }] }];
          subject.fullView.draw(drawn);
          t.writeNow(subject.frame());
          const sc = t.screen();
          expect(sc.slice(0, 2)).toEqual(drawn.map(rowText));
          expect(sc.slice(2).every((l) => l === "")).toBe(true);
          subject.fullView.close();
        }
      }
      // Keep the live zone short enough that a resize's reflow cannot push it off the screen.
      if (!opts.tall) while (live.length > 1 && liveRows().length + (k > 0 ? 3 : 0) > 5) commitLines(1);
      else while (live.length > 1 && liveRows().length > 3 * rows) commitLines(1);
      const all = [...liveRows(), ...footer];
      // The screen shows the last rows-1 live rows: the rest were never on screen.
      const maxLive = Math.max(1, rows - 1);
      const lr = all.length > maxLive ? all.slice(all.length - maxLive) : all;
      // The cursor sits in the footer's last-but-one row (the composer) when there is one.
      const cr = footer.length > 0 ? lr.length - Math.min(2, footer.length) : lr.length - 1;
      const onRow = lr[cr];
      const onRowWidth = onRow ? graphemesOf(onRow.spans).reduce((n, c) => n + c.w, 0) : 0;
      // In the footer anywhere on the text or just past it (also on a wide grapheme's second cell).
      const cursor = cursorOn && onRow ? { row: cr, col: Math.min(cols - 1, footer.length > 0 ? extra.int(onRowWidth + 1) : onRowWidth) } : null;
      subject.setLive(all, cursor === null ? null : { row: cursor.row + all.length - lr.length, col: cursor.col });
      const bytes = subject.frame();
      if (bytes.includes("\x1b[2J") && make === screenSubjectMaker) throw new Error("full clear (CSI 2J) emitted");
      if (bytes.includes("\x1b[3J") && make === screenSubjectMaker) throw new Error("scrollback wipe (CSI 3J) emitted");
      if (process.env.KHAELOR_PROPERTY_DEBUG && step >= Number(process.env.KHAELOR_PROPERTY_DEBUG)) console.log(step, JSON.stringify(bytes), JSON.stringify(lr.map(rowText)), lr.map((r) => r.soft ? 1 : 0).join(""));
      t.writeNow(bytes);
      if (process.env.KHAELOR_PROPERTY_DEBUG && step >= Number(process.env.KHAELOR_PROPERTY_DEBUG)) console.log(JSON.stringify(t.screen()), t.cursor(), t.rows);
      const liveLines = lr === all ? [...live.map(lineText), ...footer.map(rowText)] : joinSoft(lr);
      const hist = k > 0 ? [...history] : history;
      const shown = subject.cursorShown?.() ?? (cursor ? "hardware" : null);
      checkTerminal(t, hist, liveLines, lr, subject.liveTop(t), `step ${step}`, shown === "cell" && cursor ? cursor : null);
      if (cursor && shown === "hardware" && make === screenSubjectMaker) expect(t.cursor().col).toBe(cursor.col);
      if (cursor && cursorStyle === "hardware") expect(shown).toBe("hardware");
    }
  } catch (e) {
    if (process.env.KHAELOR_PROPERTY_DEBUG) console.log(JSON.stringify(t.lines()));
    throw new Error(`seed ${seed}: ${(e as Error).message}`);
  } finally {
    t.dispose();
  }
}

/** Row texts joined where a row continues the previous one; the first row starts a line. */
function joinSoft(rows: Row[]): string[] {
  const out: string[] = [];
  rows.forEach((row, i) => {
    if (row.soft && i > 0) out[out.length - 1] += rowText(row);
    else out.push(rowText(row));
  });
  return out;
}

const screenSubjectMaker = (c: number, r: number, style: CursorStyle) => screenSubject(c, r, style);
const BASE_SEED = Number(process.env.KHAELOR_PROPERTY_SEED ?? 20260521);
const RUNS = Number(process.env.KHAELOR_PROPERTY_RUNS ?? 30);

describe("two-zone screen replayed into @xterm/headless", () => {
  test(`history then live zone, exactly, after every frame (${RUNS} seeded runs)`, async () => {
    for (let i = 0; i < RUNS; i++) await runScenario(BASE_SEED + i, screenSubjectMaker, 60);
  }, 600_000);

  // Seeds that once failed: 777092, 1084, 1223, 1295 (xterm.js's combined-character reflow, see
  // support/terminal.ts), 1038 (breaking a wrap under a continuation row), 1090, 1192, 1300
  // (openFullView framed between a commit and the setLive continuing it), 1107 (a space moved
  // over, never printed, before a wide grapheme: reflow took it for a wrap gap), 5107 (the cursor
  // restored by 1049l is no longer pending wrap in xterm.js).
  test("seeds that once failed", async () => {
    for (const seed of [777092, 1084, 1223, 1295, 1038, 1090, 1192, 1300, 1107, 5107]) await runScenario(seed, screenSubjectMaker, 60);
  }, 120_000);

  // The app clips a tail taller than the screen to its last rows; the block commits whole later.
  test("live lines taller than the viewport, then committed: history exact at 80×10, 20×6 and random sizes", async () => {
    for (const size of [[80, 10], [20, 6], [80, 24]] as const) {
      for (let i = 0; i < 4; i++) await runScenario(BASE_SEED + 100 + i, screenSubjectMaker, 50, { tall: true, size });
    }
    for (let i = 0; i < 8; i++) await runScenario(BASE_SEED + 200 + i, screenSubjectMaker, 50, { tall: true });
  }, 300_000);

  // A tty that turns LF into CR LF (ONLCR, where `stty -onlcr` did not run): no move may rely on
  // an LF keeping the column, or on it going to column 0.
  test("the same scenarios where LF also returns the carriage", async () => {
    for (let i = 0; i < 12; i++) await runScenario(BASE_SEED + i, screenSubjectMaker, 60, { onlcr: true });
    for (let i = 0; i < 4; i++) await runScenario(BASE_SEED + 300 + i, screenSubjectMaker, 50, { tall: true, onlcr: true });
  }, 300_000);

  // tmux keeps a pending wrap one column past the edge: a relative move left from there lands
  // one cell off. The same scenarios, replayed in that model.
  test("the same scenarios in tmux's pending-wrap model", async () => {
    for (let i = 0; i < 12; i++) await runScenario(BASE_SEED + i, screenSubjectMaker, 60, { pendingWrap: "tmux" });
    for (let i = 0; i < 4; i++) await runScenario(BASE_SEED + 300 + i, screenSubjectMaker, 50, { tall: true, pendingWrap: "tmux" });
  }, 300_000);

  // A terminal model per width rule: the renderer told the terminal's rule, the test's layout
  // wrapping where that terminal draws (cells read back from the emulator, not from our rules).
  const perRule: Array<[WidthModel, WidthRule]> = [["unicode11", CODEPOINT], ["xterm-graphemes", GRAPHEME]];
  for (const [model, rule] of perRule) {
    test(`the same scenarios in xterm.js's ${model} widths, laid out with the ${rule.name} rule`, async () => {
      const clusters = new Set<string>();
      const seg = new Intl.Segmenter(undefined, { granularity: "grapheme" });
      for (const text of [...WORDS, ...FOOTERS.flat().flatMap((r) => r.spans.map((sp) => sp.text)), "中文 ❤️ e\u0301"]) for (const { segment } of seg.segment(text)) clusters.add(segment);
      setCellModel(await cellsInModel(model, [...clusters]));
      setWidthRule(rule);
      try {
        for (let i = 0; i < 10; i++) await runScenario(BASE_SEED + i, screenSubjectMaker, 60, { widths: model });
        for (let i = 0; i < 3; i++) await runScenario(BASE_SEED + 300 + i, screenSubjectMaker, 50, { tall: true, widths: model });
      } finally {
        setWidthRule(GRAPHEME);
        setCellModel(null);
      }
    }, 300_000);
  }

  if (process.env.KHAELOR_TALL_SEED) test("tall seeds", async () => {
    const [c, r] = (process.env.KHAELOR_TALL_SIZE ?? "").split("x").map(Number);
    const n = Number(process.env.KHAELOR_TALL_RUNS ?? 1);
    for (let i = 0; i < n; i++) await runScenario(Number(process.env.KHAELOR_TALL_SEED) + i, screenSubjectMaker, 50, { tall: true, size: c && r ? [c, r] : undefined });
  }, 600_000);

  test("the oracle accepts a naive full-repaint renderer", async () => {
    for (let i = 0; i < 8; i++) await runScenario(BASE_SEED + i, (c, r) => naiveSubject(c, r), 40);
  }, 60_000);

  test("the oracle rejects a renderer that leaves stale copies in scrollback", async () => {
    let failures = 0;
    for (let i = 0; i < 8; i++) {
      try { await runScenario(BASE_SEED + i, (c, r) => naiveSubject(c, r, false), 40); } catch { failures++; }
    }
    expect(failures).toBeGreaterThan(0);
  }, 60_000);
});
