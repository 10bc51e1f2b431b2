import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { historyPath, PromptHistory } from "../../../src/tui/app/history.ts";

test("history persists per project, walks back and forth, and gives the draft back", () => {
  const home = mkdtempSync(join(tmpdir(), "khaelor-hist-"));
  const env = { KHAELOR_HOME: home };
  const file = historyPath("/some/project", env);
  expect(file.startsWith(join(home, "history"))).toBe(true);
  expect(historyPath("/other/project", env)).not.toBe(file);
  const h = new PromptHistory(file);
  h.add("first");
  h.add("multi\nline");
  h.add("multi\nline");
  const again = new PromptHistory(file);
  expect(again.size).toBe(2);
  expect(again.prev("draft")).toBe("multi\nline");
  expect(again.prev("ignored")).toBe("first");
  expect(again.prev("x")).toBeNull();
  expect(again.next()).toBe("multi\nline");
  expect(again.next()).toBe("draft");
  expect(again.next()).toBeNull();
});

test("a torn last line is skipped, not fatal", () => {
  const home = mkdtempSync(join(tmpdir(), "khaelor-hist-"));
  const file = join(home, "h.jsonl");
  writeFileSync(file, `${JSON.stringify("ok")}\n"unterminated`);
  const h = new PromptHistory(file);
  expect(h.size).toBe(1);
  h.add("next");
  expect(readFileSync(file, "utf8")).toContain('"next"');
});
