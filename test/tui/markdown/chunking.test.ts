// The streaming invariant: however the text is cut into deltas, the stream ends with exactly the
// rows of rendering the text whole, and rows it has called settled never change afterwards.
import { expect, test } from "bun:test";
import type { Row } from "../../../src/tui/render/style.ts";
import { createMarkdownStream, renderMarkdown } from "../../../src/tui/markdown/index.ts";
import { displayWidth } from "../../../src/tui/render/width.ts";
import { chunk, genDoc, prng } from "./gen-doc.ts";

function rowWidth(r: Row): number {
  return r.spans.reduce((w, s) => w + displayWidth(s.text), 0);
}

function checkRows(rows: readonly Row[], width: number, where: string): void {
  rows.forEach((r, i) => {
    if (rowWidth(r) > width) throw new Error(`${where}: row ${i} is ${rowWidth(r)} wide at width ${width}`);
    for (const s of r.spans) {
      if (/[\x00-\x1f\x7f-\x9f]/.test(s.text)) throw new Error(`${where}: control character in row ${i}: ${JSON.stringify(s.text)}`);
    }
  });
  if (rows[0]?.soft) throw new Error(`${where}: first row is soft`);
}

const DOCS = 160;

test(`any chunking gives the rows of the whole text (${DOCS} seeded documents)`, () => {
  const rand = prng(0xc0ffee);
  for (let d = 0; d < DOCS; d++) {
    const doc = genDoc(rand);
    const width = [20, 40, 80, 123][d % 4]!;
    const links = d % 2 === 0;
    const whole = renderMarkdown(doc, { width, links });
    checkRows(whole, width, `doc ${d} whole`);
    const maxSize = [1, 4, 17, 200][(d >> 2) % 4]!;
    const stream = createMarkdownStream({ width, links });
    let seen: Row[] = [];
    let seenJson = "[]";
    for (const delta of chunk(doc, rand, maxSize)) {
      stream.append(delta);
      // Settled rows only grow: everything returned before is still there, unchanged.
      const settled = stream.settledRows();
      for (let i = 0; i < seen.length; i++) if (settled[i] !== seen[i]) throw new Error(`doc ${d}: settled row ${i} was replaced`);
      if (settled.length !== seen.length) {
        seen = settled.slice();
        seenJson = JSON.stringify(seen);
      }
      if (rand() < 0.3) checkRows(stream.tailRows(), width, `doc ${d} tail`);
    }
    stream.finish();
    expect(stream.tailRows()).toEqual([]);
    const rows = stream.settledRows();
    if (JSON.stringify(rows) !== JSON.stringify(whole)) {
      throw new Error(`doc ${d} (width ${width}, chunks ≤${maxSize}) differs from whole render:\n${JSON.stringify(doc)}`);
    }
    // ...and no row object was modified in place after it was returned.
    expect(JSON.stringify(rows.slice(0, seen.length))).toBe(seenJson);
  }
}, 60_000);

test("mid-stream, the settled rows are always a prefix of the final rows", () => {
  const rand = prng(42);
  for (let d = 0; d < 40; d++) {
    const doc = genDoc(rand);
    const whole = renderMarkdown(doc, { width: 60, links: true });
    const stream = createMarkdownStream({ width: 60, links: true });
    for (const delta of chunk(doc, rand, 4)) {
      stream.append(delta);
      const settled = stream.settledRows();
      if (JSON.stringify(whole.slice(0, settled.length)) !== JSON.stringify(settled)) {
        throw new Error(`doc ${d}: settled rows are not a prefix of the final rows`);
      }
    }
  }
}, 60_000);

test("a width change mid-stream re-lays settled blocks once per width and still matches the whole render", () => {
  const rand = prng(7);
  for (let d = 0; d < 30; d++) {
    const doc = genDoc(rand);
    const stream = createMarkdownStream({ width: 50, links: false });
    const chunks = chunk(doc, rand, 9);
    chunks.forEach((c, i) => {
      stream.append(c);
      if (i === Math.floor(chunks.length / 3)) stream.setWidth(31);
      if (i === Math.floor((2 * chunks.length) / 3)) stream.setWidth(50);
      stream.settledRows();
    });
    stream.finish();
    expect(stream.settledRows()).toEqual(renderMarkdown(doc, { width: 50, links: false }));
    stream.setWidth(31);
    expect(stream.settledRows()).toEqual(renderMarkdown(doc, { width: 31, links: false }));
  }
}, 60_000);

test("the tail is re-parsed, not the answer: a settled block is not parsed again", () => {
  const stream = createMarkdownStream({ width: 40, links: true });
  const para = "A paragraph that settles. ".repeat(5);
  stream.append(`${para}\n\n${para}\n\n`);
  stream.append("Third");
  const settled = stream.settledBlocks();
  expect(settled.length).toBe(1); // the second paragraph waits: the blank line after it is trailing
  const first = settled[0];
  for (const ch of " block grows\n\nfourth\n") stream.append(ch);
  expect(stream.settledBlocks()[0]).toBe(first!); // same object: parsed once, never rebuilt
  expect(stream.settledBlocks().length).toBe(3);
});
