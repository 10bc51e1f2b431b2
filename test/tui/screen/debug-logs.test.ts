// The debugging aids: KHAELOR_WRITE_LOG (or writeLogPath) records exactly the bytes written, and
// every full repaint and broken invariant is logged with its reason (to `log` and to
// $KHAELOR_RENDER_LOG).
import { afterEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createScreen } from "../../../src/tui/screen/screen.ts";

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
const tempDir = () => { const d = mkdtempSync(join(tmpdir(), "khaelor-render-")); dirs.push(d); return d; };

test("the write log holds every byte written, in order, across frames", () => {
  const path = join(tempDir(), "write.log");
  let written = "";
  const screen = createScreen({ output: { write: (d) => { written += d; return true; } }, caps: { colorDepth: "256", syncOutput: true }, cols: 30, rows: 8, schedule: false, writeLogPath: path });
  screen.setLive([{ spans: [{ text: "one", style: { bold: true } }] }]);
  screen.frame();
  screen.commit([{ spans: [{ text: "one" }] }]);
  screen.setLive([{ spans: [{ text: "two ✓ 中文" }] }], { row: 0, col: 3 });
  screen.frame();
  const view = screen.openFullView();
  view.draw([{ spans: [{ text: "pager" }] }]);
  screen.frame();
  view.close();
  screen.frame();
  expect(written.length).toBeGreaterThan(20);
  expect(readFileSync(path, "utf8")).toBe(written);
});

test("KHAELOR_WRITE_LOG is the default path", () => {
  const path = join(tempDir(), "env.log");
  const saved = process.env.KHAELOR_WRITE_LOG;
  process.env.KHAELOR_WRITE_LOG = path;
  try {
    let written = "";
    const screen = createScreen({ output: { write: (d) => { written += d; return true; } }, caps: { colorDepth: "256", syncOutput: false }, cols: 30, rows: 8, schedule: false });
    screen.setLive([{ spans: [{ text: "hello" }] }]);
    screen.frame();
    expect(readFileSync(path, "utf8")).toBe(written);
  } finally {
    if (saved === undefined) delete process.env.KHAELOR_WRITE_LOG; else process.env.KHAELOR_WRITE_LOG = saved;
  }
});

test("full repaints and clipped rows are logged with their reason; ordinary frames are not", () => {
  const renderLog = join(tempDir(), "render.log");
  const saved = process.env.KHAELOR_RENDER_LOG;
  process.env.KHAELOR_RENDER_LOG = renderLog;
  try {
    const lines: string[] = [];
    const screen = createScreen({ output: { write: () => true }, caps: { colorDepth: "256", syncOutput: true }, cols: 30, rows: 8, schedule: false, log: (l) => lines.push(l) });
    screen.setLive([{ spans: [{ text: "a" }] }, { spans: [{ text: "b" }] }]);
    screen.frame();
    screen.setLive([{ spans: [{ text: "a2" }] }, { spans: [{ text: "b" }] }]);
    screen.frame();
    expect(lines).toEqual([]);
    expect(existsSync(renderLog)).toBe(false);

    screen.resize(20, 8);
    screen.setLive([{ spans: [{ text: "a2" }] }, { spans: [{ text: "b" }] }]);
    const f = screen.frame();
    expect(f?.repaint).toMatch(/^resize 30→20 cols/);
    expect(screen.stats.fullRepaints).toBe(1);

    screen.setLive([{ spans: [{ text: "x".repeat(25) }] }]);
    screen.frame();
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(/^full repaint: resize 30→20 cols \(live zone top was \d+ rows above the cursor\)$/);
    expect(lines[1]).toContain("row wider than the screen (20 cols), clipped");

    const logged = readFileSync(renderLog, "utf8").trim().split("\n");
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatch(/^\d{4}-\d\d-\d\dT\S+ full repaint: resize 30→20 cols/);
  } finally {
    if (saved === undefined) delete process.env.KHAELOR_RENDER_LOG; else process.env.KHAELOR_RENDER_LOG = saved;
  }
});
