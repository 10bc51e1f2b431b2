// The app's own prose (notices, /help, the user's prompt as history shows it) wraps between words
// by default, with a hanging indent; a token wider than a row fills to the edge in soft rows so a
// copy of it is whole; "wrap": "edge" keeps every row filled to the edge, continuations soft.
import { describe, expect, test } from "bun:test";
import { renderEntry } from "../../../src/tui/views/entry-view.ts";
import { proseRows, rowText, span, softWrapSpans } from "../../../src/tui/views/text.ts";
import { displayWidth } from "../../../src/tui/render/width.ts";
import type { Entry } from "../../../src/tui/transcript/entry.ts";
import type { Row } from "../../../src/tui/render/style.ts";
import { wordCuts } from "../support/word-cuts.ts";

const HELP = [
  "Commands:",
  "  /context — the context window by category: system prompt, tools, MCP servers, skills, instructions, messages, free",
  "  /edit — write the prompt in $VISUAL or $EDITOR (Ctrl-G)",
  "Keys:",
  "  Esc or Ctrl-C interrupts the agent · idle, Ctrl-C clears the prompt, twice exits · Ctrl-D on an empty prompt exits",
  "  Set ANTHROPIC_API_KEY in your environment, or run with --demo to try it without one.",
].join("\n");
const notice = (text: string): Entry => ({ kind: "notice", key: 1, text, level: "info" }) as Entry;
const texts = (rows: Row[]) => rows.map(rowText);

describe("notices and /help", () => {
  for (const width of [30, 40, 60, 80]) {
    test(`at ${width} columns no row ends inside a word, and every row fits`, () => {
      const rows = renderEntry(notice(HELP), { width, links: false, full: false, wordWrap: true });
      expect(wordCuts(texts(rows), HELP, width / 2)).toEqual([]);
      for (const t of texts(rows)) expect(displayWidth(t)).toBeLessThanOrEqual(width);
      expect(rows.every((r) => !r.soft)).toBe(true);
    });
  }

  test("a /help line's continuation hangs under its command's text", () => {
    const rows = texts(renderEntry(notice(HELP), { width: 40, links: false, full: false, wordWrap: true }));
    const at = rows.findIndex((r) => r.includes("/context"));
    expect(rows[at]).toStartWith("    /context — ");
    expect(rows[at + 1]).toMatch(/^ {6}\S/);
  });

  test('"wrap": "edge" gives the rows it always gave: filled to the edge, continuations soft', () => {
    const rows = renderEntry(notice(HELP), { width: 40, links: false, full: false, wordWrap: false });
    const edge = HELP.split("\n").flatMap((l, i) => softWrapSpans([span(l)], 40, i === 0 ? [span("• ")] : [span("  ")]));
    expect(texts(rows)).toEqual(texts(edge));
    expect(rows.map((r) => !!r.soft)).toEqual(edge.map((r) => !!r.soft));
    expect(wordCuts(texts(rows), HELP, 20).length).toBeGreaterThan(0);
  });
});

describe("proseRows", () => {
  test("a path wider than the row starts its own row and fills to the edge in soft rows", () => {
    const path = "/home/someone/projects/a-rather-long-directory-name/and/a/file-name.ts";
    const rows = proseRows([span(`Could not write ${path}: permission denied.`)], 30, [span("• ")], [span("  ")], true);
    const at = rows.findIndex((r) => rowText(r).includes("/home"));
    expect(rowText(rows[at]!)).toStartWith("  /home");
    expect(displayWidth(rowText(rows[at]!))).toBe(30);
    expect(rows[at + 1]!.soft).toBe(true);
    const copied = rows.map((r, i) => (i > 0 && !r.soft ? "\n" : "") + rowText(r)).join("");
    expect(copied).toContain(path);
    expect(wordCuts(texts(rows), "Could not write : permission denied.", 15)).toEqual([]);
  });

  test("CJK breaks between characters, a wide emoji never straddles the edge, nothing is lost", () => {
    const text = "日本語のテキストは二列幅の文字でできています 🙂👍🏽 mixed text here";
    const rows = proseRows([span(text)], 11, [], [], true);
    for (const r of rows) expect(displayWidth(rowText(r))).toBeLessThanOrEqual(11);
    expect(texts(rows).join("").replace(/ /g, "")).toBe(text.replace(/ /g, ""));
  });

  test("a prefix wider than the width never makes a row wider than the width", () => {
    for (const r of proseRows([span("one two three")], 3, [span("•••• ")], [span("     ")], true)) expect(displayWidth(rowText(r))).toBeLessThanOrEqual(3);
  });
});

describe("the user's prompt in history", () => {
  test("breaks between words under its marker", () => {
    const text = "please refactor the ANTHROPIC_API_KEY handling so that the helper reads $EDITOR too";
    const rows = renderEntry({ kind: "user", key: 1, text } as Entry, { width: 30, links: false, full: false, wordWrap: true });
    expect(wordCuts(texts(rows), text, 15)).toEqual([]);
    expect(texts(rows)[0]).toStartWith("› please");
    expect(texts(rows).slice(1).every((r) => r.startsWith("  "))).toBe(true);
  });
});
