// One pass per call: the preview a prepared edit or write carries is the diff its run() applies,
// and a file that changed while the user was asked is not written with a plan made for the old one.
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createToolRuntime } from "../../src/tools/runtime.ts";
import type { PreparedCall, ToolCall } from "../../src/tools/types.ts";
import { makeHarness, type Harness } from "./harness.ts";

let h: Harness | null = null;
afterEach(async () => {
  await h?.cleanup();
  h = null;
});

async function prepared(h: Harness, call: Omit<ToolCall, "id">): Promise<PreparedCall> {
  const rt = createToolRuntime(builtinTools());
  const p = await rt.prepare({ id: "t", ...call }, { workspace: h.ws, signal: new AbortController().signal });
  if (!p.ok) throw new Error(`not prepared: ${String(p.outcome.content)}`);
  return p;
}

test("an edit matched with other indentation previews the re-indented lines it then writes", async () => {
  h = makeHarness();
  writeFileSync(join(h.dir, "a.js"), "function f(n) {\n    if (n < 0) {\n        throw new Error(1);\n    }\n}\n");
  await h.call("read", { file_path: "a.js" });
  const p = await prepared(h, { name: "edit", input: { file_path: "a.js", old_string: "  if (n < 0) {\n    throw new Error(1);\n  }", new_string: "  if (n < 0) {\n    throw new Error(2);\n  }" } });
  expect(p.preview?.diff).toContain("+        throw new Error(2);");
  expect(p.preview?.detail?.text).toBe("the text to replace matched ignoring indentation and trailing whitespace; the new text was re-indented to match the file");
  expect(readFileSync(join(h.dir, "a.js"), "utf8")).toContain("Error(1)");
  const r = await p.run();
  expect(r.isError).toBe(false);
  expect(r.display?.diff).toBe(p.preview!.diff!);
  expect(readFileSync(join(h.dir, "a.js"), "utf8")).toBe("function f(n) {\n    if (n < 0) {\n        throw new Error(2);\n    }\n}\n");
});

test("an edit matched through look-alike characters previews the file's own characters on the lines it keeps, and writes them", async () => {
  h = makeHarness();
  writeFileSync(join(h.dir, "t.md"), "Title: “Intro”\nIt’s fast.\n");
  await h.call("read", { file_path: "t.md" });
  const p = await prepared(h, { name: "edit", input: { file_path: "t.md", old_string: 'Title: "Intro"\nIt\'s fast.', new_string: 'Title: "Intro"\nIt\'s fast and small.' } });
  // The kept title is no changed line of the diff; the changed line keeps the file's apostrophe.
  expect(p.preview?.diff).not.toMatch(/^[-+]Title/m);
  expect(p.preview?.diff).toContain("+It’s fast and small.");
  expect(p.preview?.detail?.text).toContain("look-alike characters");
  const r = await p.run();
  expect(r.display?.diff).toBe(p.preview!.diff!);
  expect(readFileSync(join(h.dir, "t.md"), "utf8")).toBe("Title: “Intro”\nIt’s fast and small.\n");
});

test("a file changed while the call was asked about is not written", async () => {
  h = makeHarness();
  const path = join(h.dir, "b.txt");
  writeFileSync(path, "one\ntwo\n");
  await h.call("read", { file_path: "b.txt" });
  const edit = await prepared(h, { name: "edit", input: { file_path: "b.txt", old_string: "two", new_string: "TWO" } });
  const write = await prepared(h, { name: "write", input: { file_path: "b.txt", content: "whole\n" } });
  writeFileSync(path, "one\ntwo\nthree\n");
  for (const p of [edit, write]) {
    const r = await p.run();
    expect(r.isError).toBe(true);
    expect(String(r.content)).toContain("changed on disk since you read it");
  }
  expect(readFileSync(path, "utf8")).toBe("one\ntwo\nthree\n");
});

test("a write previews a new file, or the diff against the file it replaces", async () => {
  h = makeHarness();
  const fresh = await prepared(h, { name: "write", input: { file_path: "new.txt", content: "hello\n" } });
  expect(fresh.preview).toMatchObject({ path: "new.txt", detail: { label: "new file" } });
  expect(fresh.preview?.diff).toContain("+hello");
  writeFileSync(join(h.dir, "old.txt"), "a\nb\n");
  await h.call("read", { file_path: "old.txt" });
  const over = await prepared(h, { name: "write", input: { file_path: "old.txt", content: "a\nc\n" } });
  expect(over.preview?.diff).toContain("-b");
  expect(over.preview?.diff).toContain("+c");
  expect((await over.run()).display?.diff).toBe(over.preview!.diff!);
});
