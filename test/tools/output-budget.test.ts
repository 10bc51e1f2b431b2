import { afterAll, describe, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { OutputCollector, cleanOutput, fitToBudget } from "../../src/tools/output-budget.ts";
import { SpillFiles } from "../../src/workspace/spill.ts";

const dir = mkdtempSync(join(tmpdir(), "khaelor-budget-"));
const spill = new SpillFiles(join(dir, "spill"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("output budget", () => {
  test("under the budget nothing changes and nothing is spilled", () => {
    expect(fitToBudget("small", spill, "t")).toEqual({ text: "small", spillPath: null, cutChars: 0 });
  });

  test("over the budget: head, an explicit marker, tail; the whole text in the spill file", () => {
    const text = Array.from({ length: 5000 }, (_, i) => `line ${i}`).join("\n");
    const r = fitToBudget(text, spill, "t", 1000);
    expect(r.text.length).toBeLessThan(1300);
    expect(r.text.startsWith("line 0\n")).toBe(true);
    expect(r.text.endsWith("line 4999")).toBe(true);
    expect(r.text).toMatch(/\[\.\.\. [\d,]+ characters cut from the middle; the full output \([\d,]+ characters\) is in \S+/);
    expect(readFileSync(r.spillPath!, "utf8")).toBe(text);
    const [head, tail] = r.text.split(/\[\.\.\. [^\n]*\.\.\.\]\n/) as [string, string];
    expect(text.startsWith(head)).toBe(true);
    expect(text.endsWith(tail)).toBe(true);
    expect(r.cutChars).toBe(text.length - head.length - tail.length);
  });

  test("escape sequences, progress redraws and control characters are removed", () => {
    expect(cleanOutput("\x1b[1;32mok\x1b[0m \x1b]0;title\x07done\n")).toBe("ok done\n");
    expect(cleanOutput("10%\r50%\r100%\nnext\r\n")).toBe("100%\nnext\n");
    expect(cleanOutput("a\x00b\x07c\td")).toBe("abc\td");
  });

  test("the collector holds head and tail in bounded memory while the stream goes to the spill file", () => {
    const c = new OutputCollector(spill, "stream", 2000);
    let all = "";
    for (let i = 0; i < 10_000; i++) {
      const chunk = `chunk ${i}\n`;
      all += chunk;
      c.push(chunk);
    }
    const r = c.finish();
    expect(r.totalChars).toBe(all.length);
    expect(r.text.length).toBeLessThan(2400);
    expect(r.text.startsWith("chunk 0\n")).toBe(true);
    expect(r.text.trimEnd().endsWith("chunk 9999")).toBe(true);
    expect(readFileSync(r.spillPath!, "utf8")).toBe(all);
  });
});

test("when the spill file cannot be written (a full disk), the result still comes back and says so", () => {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-spill-"));
  // A directory under a regular file cannot be created: every save fails, as on a full disk.
  writeFileSync(join(dir, "file"), "");
  const spill = new SpillFiles(join(dir, "file", "spill"));
  const big = "line\n".repeat(20_000);
  const fitted = fitToBudget(big, spill, "grep", 1000);
  expect(fitted.spillPath).toBeNull();
  expect(fitted.text).toContain("could not be saved");
  const c = new OutputCollector(spill, "bash", 1000);
  c.push(big);
  c.push("more\n");
  const r = c.finish();
  expect(r.spillPath).toBeNull();
  expect(r.text).toContain("could not be saved");
  rmSync(dir, { recursive: true, force: true });
});
