// Prose wraps between words (issue 33): the real CLI in a pty, the screen read back through
// xterm.js. No prose row ends inside a word (test/tui/support/word-cuts.ts) in the demo's /help or
// a streamed answer at 40, 60 and 80 columns; a code line and a URL wider than the row still fill
// to the edge and copy whole; "wrap": "edge" gives the rows it always gave.
import { describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { isolatedEnv, tempProject } from "../../support/cli.ts";
import { wordCuts } from "../../tui/support/word-cuts.ts";
import { KEY, type PtySession, idle, promptArmed, ptyFixtures, submit } from "./harness.ts";

const fixtures = ptyFixtures();
const WIDTHS = [80, 60, 40] as const;

/** The rows of the last /help on screen, from "Commands:" to the composer. */
async function help(s: PtySession): Promise<string[]> {
  const before = s.term.lines().filter((l) => l.includes("• Commands:")).length;
  await submit(s, "/help");
  await s.waitFor((sc) => s.term.lines().filter((l) => l.includes("• Commands:")).length > before && sc.includes("Messages sent while") && idle(sc), "/help");
  const lines = s.term.lines();
  let start = lines.length - 1;
  while (!lines[start]!.includes("• Commands:")) start--;
  let end = start;
  while (end < lines.length && !lines[end]!.includes("Messages sent while")) end++;
  while (end + 1 < lines.length && lines[end + 1]!.trim() !== "" && !lines[end + 1]!.startsWith("›") && !/^─|ask anything/.test(lines[end + 1]!)) end++;
  return lines.slice(start, end + 1);
}

describe("the demo's /help", () => {
  test("at 80, 60 and 40 columns no row ends inside a word ($EDITOR, ANTHROPIC_API_KEY, …), and no row is wider than the window", async () => {
    // Wide enough that no line of /help wraps: its rows there are the lines the narrower ones come from.
    const s = fixtures.pty(["--demo"], { cwd: tempProject(), env: isolatedEnv(null), cols: 240, rows: 60 });
    await s.waitForText("Scripted demo", 30_000);
    for (let i = 0; i < 20; i++) {
      await s.waitFor((sc) => idle(sc) || promptArmed(s), "the demo to wait for an answer or the user", 30_000);
      if (idle(s.screen())) break;
      s.send("y");
      await s.waitFor(() => !promptArmed(s), "the prompt to go", 30_000);
    }
    const source = (await help(s)).join("\n");
    expect(source).toContain("$EDITOR");
    for (const cols of WIDTHS) {
      s.resize(cols, 40);
      const rows = await help(s);
      expect(rows.length).toBeGreaterThan(source.split("\n").length);
      expect(wordCuts(rows, source, cols / 2)).toEqual([]);
      for (const r of rows) expect(r.length).toBeLessThanOrEqual(cols);
    }
    s.send(KEY.ctrlD);
    expect(await s.exited).toBe(0);
  }, 120_000);
});

const URL = "https://example.com/a/very/long/path/that/does/not/fit/on/one/row?query=string&more=1&even=more";
const CODE = "const result = someFunctionName(argumentNumberOne, argumentNumberTwo, argumentNumberThree); // trailing";
const PROSE = [
  "Wrapping between words keeps every single word of this sentence whole on its row, and ANTHROPIC_API_KEY or $EDITOR are never cut in two.",
  "- A list item that goes on long enough to wrap, so that its continuation hangs under the text of the item.",
  "  - A nested item, also long enough to wrap at forty columns and sixty columns too.",
  "> A quoted paragraph, long enough that it wraps under its bar at every width we look at.",
  "| Step | Why |\n|---|---|\n| 1 | look at the function and its test before anything else is changed |",
  `See ${URL} for the details.`,
  "日本語のテキストは二列幅の文字でできているので折り返しに注意が必要です 👩‍💻 done.",
].join("\n\n");
const ANSWER = `${PROSE}\n\n\`\`\`js\n${CODE}\n\`\`\`\n\nEND-MARK`;

async function streamed(cols: number, wrap: string | null): Promise<PtySession> {
  const fake = await fixtures.api({ turns: [{ content: [{ type: "text", text: ANSWER }] }], pacing: { textChunk: 7, delayMs: 2 } });
  const env = isolatedEnv(fake.url);
  if (wrap) {
    mkdirSync(join(env.XDG_CONFIG_HOME!, "khaelor"), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, "khaelor", "settings.json"), JSON.stringify({ wrap }));
  }
  const s = fixtures.pty([], { cwd: tempProject(), env, cols, rows: 20 });
  await submit(s, "go");
  await s.waitFor((sc) => s.all().includes("END-MARK") && idle(sc), "the answer");
  return s;
}

/** The answer's rows in the buffer, from its first word to END-MARK, with whether each continues the row before. */
function answerRows(s: PtySession): { text: string; soft: boolean }[] {
  const lines = s.term.lines();
  const start = lines.findIndex((l) => l.startsWith("Wrapping"));
  const end = lines.findIndex((l) => l.startsWith("END-MARK"));
  return lines.slice(start, end + 1).map((text, i) => ({ text, soft: s.term.isWrapped(start + i) }));
}

describe("a streamed answer", () => {
  for (const cols of WIDTHS) {
    test(`at ${cols} columns: no prose row ends inside a word; the code line and the URL fill to the edge and copy whole`, async () => {
      const s = await streamed(cols, null);
      const rows = answerRows(s);
      expect(wordCuts(rows.map((r) => r.text), PROSE, cols / 2, rows.map((r) => r.soft))).toEqual([]);
      const all = s.all().split("\n");
      expect(all.some((l) => l.includes(URL))).toBe(true);
      expect(all).toContain(CODE);
      // Filled to the edge: the code line's first row is the window's width, its next row a soft wrap.
      const code = rows.findIndex((r) => r.text.startsWith("const result"));
      expect(rows[code]!.text.length).toBe(cols);
      expect(rows[code + 1]!.soft).toBe(true);
      // Prose continuation rows are hard rows (a copy gets a line break where it wrapped).
      const para = rows.slice(0, rows.findIndex((r) => r.text === ""));
      expect(para.length).toBeGreaterThan(1);
      expect(para.slice(1).every((r) => !r.soft)).toBe(true);
      s.kill();
    }, 60_000);
  }

  test('"wrap": "edge" gives the old rows: every paragraph one soft-wrapped line, rows filled to the edge, words cut', async () => {
    const cols = 40;
    const s = await streamed(cols, "edge");
    const rows = answerRows(s);
    expect(wordCuts(rows.map((r) => r.text), PROSE, cols / 2, rows.map((r) => r.soft)).length).toBeGreaterThan(0);
    const first = PROSE.split("\n\n")[0]!;
    expect(s.all().split("\n")).toContain(first);
    const para = rows.slice(0, rows.findIndex((r) => r.text === ""));
    expect(para.slice(0, -1).every((r) => r.text.length === cols)).toBe(true);
    expect(para.slice(1).every((r) => r.soft)).toBe(true);
    expect(s.all().split("\n")).toContain(CODE);
    s.kill();
  }, 60_000);
});
