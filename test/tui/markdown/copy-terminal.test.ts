// Issue 6's copy promise checked where it is kept: in the terminal. An answer streams through the
// markdown layout and the real screen into xterm.js, and what xterm.js would copy (its logical lines:
// a row followed by a soft-wrapped row is taken whole, every cell) must be the text exactly, with
// no padding spaces where a row ended and no line breaks inside a paragraph. Then the terminal is
// resized and reflows the history it owns; the copy must survive that too.
import { expect, test } from "bun:test";
import { createMarkdownStream } from "../../../src/tui/markdown/index.ts";
import type { Entry } from "../../../src/tui/transcript/entry.ts";
import { renderEntry, renderUserText } from "../../../src/tui/views/entry-view.ts";
import { createScreen } from "../../../src/tui/screen/screen.ts";
import { seededRandom } from "../../support/prng.ts";
import { createTestTerminal } from "../support/terminal.ts";

const PARA =
  "Streaming output must copy cleanly: when the user selects a wrapped paragraph in the terminal and pastes it elsewhere, " +
  "it should arrive as one line, with every space where the author put it, and nothing added for decoration.";
const URL = "https://example.com/a/very/long/path/that/does/not/fit/on/one/row?query=string&more=1";
const CJK = "日本語のテキストは二列幅の文字でできているので折り返しに注意が必要です。";

const ANSWER = [
  "# Copying a wrapped answer",
  "",
  PARA,
  "",
  `- ${PARA}`,
  "- short item",
  "",
  `> ${PARA}`,
  "",
  `See ${URL} for the details, and run \`bun test --timeout 20000 test/tui/markdown/copy-terminal.test.ts\` to check.`,
  "",
  CJK,
  "",
].join("\n");

// Markers and bars are part of the first row only; continuation rows carry nothing.
const EXPECTED = [
  "Copying a wrapped answer",
  "",
  PARA,
  "",
  `• ${PARA}`,
  "• short item",
  "",
  `│ ${PARA}`,
  "",
  `See ${URL} for the details, and run bun test --timeout 20000 test/tui/markdown/copy-terminal.test.ts to check.`,
  "",
  CJK,
];

async function streamed(cols: number, seed: number, hangingIndent = false) {
  const t = createTestTerminal({ cols, rows: 12 });
  let out = "";
  const screen = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows: 12, schedule: false });
  const md = createMarkdownStream({ width: cols, links: true, hangingIndent });
  const flush = async () => {
    screen.frame();
    await t.write(out);
    out = "";
  };
  const rand = seededRandom(seed);
  let committed = 0;
  for (let i = 0; i < ANSWER.length; ) {
    const n = 1 + Math.floor(rand() * 12);
    md.append(ANSWER.slice(i, i + n));
    i += n;
    const settled = md.settledRows();
    if (settled.length > committed) {
      screen.commit(settled.slice(committed));
      committed = settled.length;
    }
    screen.setLive([...md.tailRows(), { spans: [{ text: "» " }] }], { row: md.tailRows().length, col: 2 });
    await flush();
  }
  md.finish();
  screen.commit(md.settledRows().slice(committed));
  screen.setLive([{ spans: [{ text: "» " }] }], { row: 0, col: 2 });
  await flush();
  return { t, screen, flush };
}

test("a streamed answer copies out of the terminal exactly: no padding, no inserted breaks", async () => {
  for (const [cols, seed] of [[17, 1], [33, 2], [41, 3], [80, 4], [120, 5]] as const) {
    const { t, screen } = await streamed(cols, seed);
    const lines = t.logicalLines();
    expect(lines.slice(0, EXPECTED.length)).toEqual(EXPECTED);
    expect(lines[EXPECTED.length]).toBe("»");
    screen.dispose();
    t.dispose();
  }
});

test("after the terminal reflows the history to a new width, the copy is still exact", async () => {
  const { t, screen, flush } = await streamed(41, 7);
  for (const cols of [29, 64, 41]) {
    t.resize(cols, 12);
    screen.resize(cols, 12);
    await flush();
    expect(t.logicalLines().slice(0, EXPECTED.length)).toEqual(EXPECTED);
  }
  screen.dispose();
  t.dispose();
});

test('"wrap": "words": prose copies with line breaks where it wrapped, the URL and a path wider than the row whole, before and after the terminal reflows', async () => {
  const url = (lines: string[]) => lines.some((l) => l.includes(URL));
  const path = (lines: string[]) => lines.some((l) => l.includes("test/tui/markdown/copy-terminal.test.ts"));
  for (const [cols, seed] of [[33, 2], [41, 3]] as const) {
    const { t, screen, flush } = await streamed(cols, seed, true);
    expect(url(t.logicalLines())).toBe(true);
    expect(t.logicalLines()).not.toContain(PARA);
    for (const c of [29, 64, cols]) {
      t.resize(c, 12);
      screen.resize(c, 12);
      await flush();
      expect(url(t.logicalLines())).toBe(true);
      expect(path(t.logicalLines())).toBe(true);
    }
    expect(path(t.logicalLines())).toBe(true);
    screen.dispose();
    t.dispose();
  }
});

test("\"wrap\": \"edge\": the user's own prompt and notices copy back as the lines they were", async () => {
  const cols = 23;
  const t = createTestTerminal({ cols, rows: 12 });
  let out = "";
  const screen = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows: 12, schedule: false });
  const prompt = "please fix the failing test in src/slugify.js\nand keep the API";
  screen.commit([
    ...renderUserText(prompt, cols, Infinity, null, false),
    ...renderEntry({ kind: "notice", key: 1, level: "warn", text: "could not read /home/someone/project/.khaelor/settings.json" } satisfies Entry, { width: cols, links: true, full: false, wordWrap: false }),
  ]);
  screen.setLive([{ spans: [{ text: "» " }] }], { row: 0, col: 2 });
  screen.frame();
  await t.write(out);
  expect(t.logicalLines().slice(0, 3)).toEqual([
    "› please fix the failing test in src/slugify.js",
    "  and keep the API",
    "• could not read /home/someone/project/.khaelor/settings.json",
  ]);
  screen.dispose();
  t.dispose();
});

test("in tmux's model of soft wraps, a short window still copies every paragraph whole", async () => {
  // tmux keeps the wrap flag on the row that wraps, and EL from column 0 drops it: the painter must
  // print across the edge again after erasing a row whose next row continues it.
  const paragraphs = Array.from({ length: 12 }, (_, p) => `Paragraph ${p + 1}: ` + Array.from({ length: 30 }, (_, i) => `w${p + 1}_${i + 1}`).join(" "));
  const text = paragraphs.join("\n\n") + "\n";
  for (const [cols, rows] of [[60, 15], [60, 8], [100, 15]] as const) {
    const t = createTestTerminal({ cols, rows, pendingWrap: "tmux" });
    let out = "";
    const screen = createScreen({ output: { write: (d) => { out += d; return true; } }, caps: { colorDepth: "truecolor", syncOutput: true }, cols, rows, schedule: false });
    const md = createMarkdownStream({ width: cols, links: true });
    const footer = [{ spans: [] }, { spans: [{ text: "» " }] }, { spans: [{ text: "status" }] }];
    let committed = 0;
    for (let i = 0; i < text.length; i += 7) {
      md.append(text.slice(i, i + 7));
      const settled = md.settledRows();
      if (settled.length > committed) {
        screen.commit(settled.slice(committed));
        committed = settled.length;
      }
      screen.setLive([...md.tailRows(), ...footer], { row: md.tailRows().length + 1, col: 2 });
      screen.frame();
      await t.write(out);
      out = "";
    }
    md.finish();
    screen.commit(md.settledRows().slice(committed));
    screen.setLive(footer, { row: 1, col: 2 });
    screen.frame();
    await t.write(out);
    const lines = t.logicalLines();
    expect({ cols, rows, broken: paragraphs.filter((p) => !lines.includes(p)).length }).toEqual({ cols, rows, broken: 0 });
    screen.dispose();
    t.dispose();
  }
});
