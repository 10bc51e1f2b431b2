// What streaming costs and how it looks, in a real emulator: a tail growing above the app's
// composer and status line. The rows under the tail are moved with IL instead of printed again,
// the cell cursor spares the cursor trips ("auto" hands the hardware cursor back for typing and
// once frames stop), and a height change redraws the zone (xterm.js drops lines below the cursor).
import { describe, expect, test } from "bun:test";
import type { Row } from "../../../src/tui/render/style.ts";
import { createScreen, type Screen, type ScreenOptions } from "../../../src/tui/screen/screen.ts";
import { createTestTerminal, type TestTerminal } from "../support/terminal.ts";

const FOOTER: Row[] = [
  { spans: [] },
  { spans: [{ text: "» ", style: { bold: true } }, { text: "type to queue a message", style: { dim: true } }] },
  { spans: [{ text: "STATUS working", style: { fg: { kind: "index", n: 6 } } }] },
];
const COMPOSER_ROW = 1; // within FOOTER

/**
 * Word-wraps `text` at `cols` into soft-continued rows. The markdown layout fills soft rows to the
 * edge; word-wrapped rows are the harder case for the renderer (a gap before each soft wrap).
 */
function wrap(text: string, cols: number): Row[] {
  const rows: Row[] = [];
  let rest = text;
  let soft = false;
  while (rest.length > cols) {
    let cut = rest.lastIndexOf(" ", cols);
    if (cut <= 0) cut = cols;
    rows.push({ spans: [{ text: rest.slice(0, cut) }], soft });
    rest = rest.slice(cut === cols ? cut : cut + 1);
    soft = true;
  }
  rows.push({ spans: [{ text: rest }], soft });
  return rows;
}

function setup(cols: number, rows: number, extra: Partial<ScreenOptions> = {}) {
  const t = createTestTerminal({ cols, rows });
  let out = "";
  const screen = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows, schedule: false, ...extra });
  const frame = async (): Promise<string> => {
    screen.frame();
    const o = out;
    out = "";
    await t.write(o);
    return o;
  };
  return { t, screen, frame };
}

function live(tail: Row[]): { rows: Row[]; cursor: { row: number; col: number } } {
  return { rows: [...tail, ...FOOTER], cursor: { row: tail.length + COMPOSER_ROW, col: 2 } };
}

function show(screen: Screen, tail: Row[]): void {
  const l = live(tail);
  screen.setLive(l.rows, l.cursor);
}

const WORDS = "the renderer writes only the cells that changed while an answer streams into the live zone above the composer".split(" ");

describe("a streaming tail above the composer and status line", () => {
  test("a new row of the tail moves the footer down with IL; it is never printed again", async () => {
    const { t, screen, frame } = setup(40, 12, { cursorStyle: "auto" });
    for (let i = 0; i < 8; i++) await t.write(`history ${i}\r\n`);
    let text = "";
    show(screen, wrap(text, 40));
    await frame();
    let inserts = 0;
    for (let i = 0; i < 40; i++) { // the tail stays within the screen (7 rows + footer)
      text += (text ? " " : "") + WORDS[i % WORDS.length];
      const tail = wrap(text, 40);
      show(screen, tail);
      const bytes = await frame();
      expect(bytes).not.toContain("STATUS"); // the status line is drawn once, in the first frame
      if (/\x1b\[\d*L/.test(bytes)) inserts++;
      const screenRows = t.screen().map((r) => r.trimEnd()); // a soft wrap is forced by printing the last column
      const top = screenRows.length - 1 - [...screenRows].reverse().findIndex((r) => r === "STATUS working") - FOOTER.length + 1 - tail.length;
      // Exactly: the tail rows, then the footer, at the bottom of what was written.
      expect(screenRows.slice(top, top + tail.length + FOOTER.length)).toEqual([...tail, ...FOOTER].map((r) => r.spans.map((s) => s.text).join("")));
    }
    expect(inserts).toBeGreaterThan(5);
    // History above the zone was pushed into scrollback in order, nothing lost or doubled.
    const lines = t.logicalLines();
    expect(lines.slice(0, 8)).toEqual(Array.from({ length: 8 }, (_, i) => `history ${i}`));
    // One logical line (the rows are soft-wrapped; cells a word wrap left blank read as spaces).
    expect(lines[8]!.replace(/ +/g, " ")).toBe(text);
    expect(lines.length).toBe(9 + FOOTER.length);
    t.dispose();
  });

  test("auto: streaming frames draw the cursor as a cell and cost only the text; typing brings the hardware cursor back", async () => {
    const { t, screen, frame } = setup(60, 12, { cursorStyle: "auto" });
    show(screen, wrap("hello", 60));
    await frame();
    show(screen, wrap("hello!", 60));
    await frame(); // the first streaming frame brings the (hidden) cursor up from the status line
    let text = "hello!";
    for (const w of [" world", " and", " more"]) {
      text += w;
      show(screen, wrap(text, 60));
      const bytes = await frame();
      expect(screen.stats.last?.cursor).toBe("cell");
      expect(bytes).toBe(w); // appended where the last write ended: no cursor move, no SGR
    }
    const zoneTop = t.cursor().line; // the hidden cursor rests after the text
    expect(t.cursor().col).toBe(text.length);
    const cursorCell = t.cellStyle(zoneTop + 1 + COMPOSER_ROW, 2);
    expect(cursorCell?.inverse).toBe(true); // the composer's cursor, drawn as an inverted cell

    // Typing: only the composer row changes, so the hardware cursor is shown there again.
    const tail = wrap(text, 60);
    const rows: Row[] = [...tail, FOOTER[0]!, { spans: [{ text: "» x" }] }, FOOTER[2]!];
    screen.setLive(rows, { row: tail.length + COMPOSER_ROW, col: 3 });
    const typed = await frame();
    expect(screen.stats.last?.cursor).toBe("hardware");
    expect(typed).toContain("\x1b[?25h");
    expect(t.cursor()).toEqual({ line: zoneTop + 1 + COMPOSER_ROW, col: 3 });
    expect(t.cellStyle(zoneTop + 1 + COMPOSER_ROW, 2)?.inverse).toBe(false);
    t.dispose();
  });

  test("hardware: every streaming frame puts the cursor back in the composer", async () => {
    const { t, screen, frame } = setup(60, 12, { cursorStyle: "hardware" });
    show(screen, wrap("hello", 60));
    await frame();
    show(screen, wrap("hello world", 60));
    const bytes = await frame();
    expect(bytes.length).toBeGreaterThan(" world".length + 6);
    expect(screen.stats.last?.cursor).toBe("hardware");
    const line = t.cursor().line;
    expect(t.cursor().col).toBe(2);
    expect(t.lines()[line]).toBe("» type to queue a message");
    t.dispose();
  });

  test("auto: once frames stop, the hardware cursor comes back by itself", async () => {
    const t = createTestTerminal({ cols: 60, rows: 12 });
    let shown: () => void = () => {};
    const back = new Promise<void>((r) => (shown = r));
    let all = "";
    const screen = createScreen({
      output: { write: (d) => { all += d; void t.write(d); if (d.includes("\x1b[?25h")) shown(); return true; } },
      caps: { colorDepth: "truecolor", syncOutput: true }, cols: 60, rows: 12, cursorStyle: "auto", cursorSettleMs: 20, frameIntervalMs: 0,
    });
    show(screen, wrap("hello", 60));
    screen.frame();
    show(screen, wrap("hello world", 60));
    screen.frame();
    expect(screen.stats.last?.cursor).toBe("cell");
    await back;
    await t.write("");
    expect(screen.stats.last?.cursor).toBe("hardware");
    const c = t.cursor();
    expect(t.lines()[c.line]).toBe("» type to queue a message");
    expect(c.col).toBe(2);
    screen.dispose();
    t.dispose();
  });
});

/** Chops `text` at `cols` into soft-continued rows filled to the edge, as the markdown layout does. */
function chop(text: string, cols: number): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i === 0 || i < text.length; i += cols) rows.push({ spans: [{ text: text.slice(i, i + cols) }], soft: i > 0 });
  return rows;
}

describe("the bytes of a growing tail", () => {
  // "onlcr": a tty in raw mode still turns each LF into CR LF (libuv keeps ONLCR), so nothing may
  // rely on an LF keeping the column.
  for (const where of ["at the screen's bottom", "with room below"] as const) {
    for (const model of ["xterm", "tmux", "onlcr"] as const) {
      test(`text crossing into a new row (${where}, ${model}): the footer moves down with LF, CR and IL, and the text goes on where it stopped`, async () => {
        const cols = 26;
        const t = createTestTerminal({ cols, rows: 12, pendingWrap: model === "tmux" ? "tmux" : "xterm" });
        if (model === "onlcr") t.term.options.convertEol = true;
        let out = "";
        const screen = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows: 12, schedule: false, cursorStyle: "auto" });
        const frame = async (): Promise<string> => { screen.frame(); const o = out; out = ""; await t.write(o); return o; };
        if (where === "at the screen's bottom") for (let i = 0; i < 12; i++) await t.write(`history ${i}\r\n`);
        let text = "";
        const words = "streamed words flow across the edge of the row into the next one and on".split(" ");
        let grew = 0;
        for (let i = 0; i < 24; i++) {
          const w = (text ? " " : "") + words[i % words.length];
          const before = chop(text, cols).length;
          text += w;
          show(screen, chop(text, cols));
          const bytes = await frame();
          if (i < 2) continue; // the first frames bring the hidden cursor up from the status line
          if (chop(text, cols).length > before) {
            grew++;
            // LF over the footer's three rows and for the new one, CUU, CR, IL: 12 bytes. The CR
            // because tmux, unlike xterm, leaves the column where it was on IL.
            expect(bytes).toMatch(/^\n{4}\x1b\[3A\r\x1b\[L/);
            expect(bytes).not.toContain("STATUS");
          } else {
            expect(bytes).toBe(w); // appended where the last write ended
          }
          const sc = t.screen();
          const end = sc.lastIndexOf("STATUS working");
          const rows = chop(text, cols);
          expect(sc.slice(end - FOOTER.length + 1 - rows.length, end + 1)).toEqual([...rows, ...FOOTER].map((r) => r.spans.map((s) => s.text).join("")));
        }
        expect(grew).toBeGreaterThanOrEqual(4);
        // The rows are one soft-wrapped line, the footer below it.
        const lines = t.logicalLines();
        expect(lines[lines.length - FOOTER.length - 1]).toBe(text);
        t.dispose();
      });
    }
  }

  test("a blank between two coloured tokens keeps the pen: no reset between them, and what shows is the same", async () => {
    const { t, screen, frame } = setup(40, 8);
    const red = { fg: { kind: "index" as const, n: 1 } }, blue = { fg: { kind: "index" as const, n: 4 } };
    const row: Row = { spans: [{ text: "const", style: red }, { text: " " }, { text: "x", style: blue }, { text: " = " }, { text: "1", style: { underline: true } }, { text: " ", style: { bg: { kind: "index", n: 2 } } }, { text: "!" }] };
    screen.setLive([row]);
    const bytes = await frame();
    // The space after "const" is printed red (it looks the same); "x" switches straight to blue.
    expect(bytes).toContain("\x1b[31mconst \x1b[34mx \x1b[m= ");
    // Underline and background show on a blank: there the pen does change.
    expect(bytes).toContain("\x1b[4m1\x1b[0;42m \x1b[m!");
    const y = t.cursor().line;
    const at = (x: number) => t.cellStyle(y, x)!;
    expect(t.lines()[y]).toBe("const x = 1 !");
    expect(at(0).fg).toBe("index:1");
    expect(at(6).fg).toBe("index:4");
    for (const x of [5, 7, 9]) expect({ ...at(x), fg: "" }).toEqual({ bold: false, italic: false, underline: false, inverse: false, strike: false, dim: false, fg: "", bg: "default" });
    expect(at(10).underline).toBe(true);
    expect(at(11).bg).toBe("index:2");
    expect(at(11).underline).toBe(false);
    // The screen knows what it drew: the same row again writes nothing.
    screen.setLive([{ spans: row.spans.map((s) => ({ ...s })) }]);
    expect(await frame()).toBe("");
    t.dispose();
  });
});

describe("height changes", () => {
  test("a shorter window: xterm.js drops the lines under the cursor; the zone is drawn again", async () => {
    const { t, screen, frame } = setup(40, 16, { cursorStyle: "hardware" });
    const logs: string[] = [];
    for (let i = 0; i < 20; i++) await t.write(`history ${i}\r\n`);
    show(screen, wrap("streaming text", 40));
    await frame();
    t.resize(40, 10);
    screen.resize(40, 10);
    show(screen, wrap("streaming text", 40));
    await frame();
    const sc = t.screen();
    const at = sc.indexOf("streaming text");
    expect(sc.slice(at, at + 4)).toEqual(["streaming text", "", "» type to queue a message", "STATUS working"]);
    expect(screen.stats.fullRepaints).toBe(1);
    expect(logs).toEqual([]);
    t.dispose();
  });
});
