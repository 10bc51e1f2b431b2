// The edit tool's tolerances through the real tool on real files: what the model is told, and the
// guarantees every tolerance keeps (line endings, BOM, the stale-file check, replace_all's order).
// The cases of each class are in test/fixtures/edits (stale.cases, tolerances.cases).
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createToolRuntime } from "../../src/tools/runtime.ts";
import { makeHarness, type Harness } from "./harness.ts";

let h: Harness | null = null;
afterEach(async () => {
  await h?.cleanup();
  h = null;
});

const PAGE = ["def page(items, limit):", "    start = 0", "    end = start + limit", "    chunk = items[start:end]", '    log.debug("page of %d", len(chunk))', "    return chunk", ""].join("\n");

test("a block matched by its ends whose kept lines the file has otherwise is refused, showing the file's lines", async () => {
  h = makeHarness();
  writeFileSync(join(h.dir, "page.py"), PAGE);
  await h.call("read", { file_path: "page.py" });
  const stale = PAGE.replace("start + limit", "start + max").trimEnd();
  const r = await h.call("edit", { file_path: "page.py", old_string: stale, new_string: stale.replace("start = 0", "start = 1") });
  expect(r.isError).toBe(true);
  expect(r.text).toContain("differ from the file");
  // The model's stale line, then the file's lines, numbered, to copy from.
  expect(r.text).toContain("    end = start + max");
  expect(r.text).toContain("     3\t    end = start + limit");
  expect(readFileSync(join(h.dir, "page.py"), "utf8")).toBe(PAGE);
});

test("the result names the tolerances it used, on one line", async () => {
  h = makeHarness();
  writeFileSync(join(h.dir, "q.py"), "print(“start”)\nrun()\n");
  await h.call("read", { file_path: "q.py" });
  const r = await h.call("edit", { file_path: "q.py", old_string: '     1→print("start")\n     2→run()', new_string: '     1→print("start")\n     2→run(fast=True)' });
  expect(r.isError).toBe(false);
  const notes = r.text.split("\n").filter((l) => l.startsWith("Tolerance used:"));
  expect(notes).toHaveLength(1);
  expect(notes[0]).toContain("line-number prefixes");
  expect(notes[0]).toContain("look-alike characters");
  expect(r.text.split("\n")[1]).toBe(notes[0]!);
  expect(readFileSync(join(h.dir, "q.py"), "utf8")).toBe("print(“start”)\nrun(fast=True)\n");
  // An exact edit says nothing of the kind.
  const exact = await h.call("edit", { file_path: "q.py", old_string: "run(fast=True)", new_string: "run()" });
  expect(exact.text).not.toContain("Tolerance used");
});

test("CRLF and the BOM stay under the tolerances, and the file's own characters in the lines kept", async () => {
  h = makeHarness();
  const path = join(h.dir, "w.txt");
  const bom = Buffer.from([0xef, 0xbb, 0xbf]);
  writeFileSync(path, Buffer.concat([bom, Buffer.from("title = “Hi”\r\nnon‑blocking = 1\r\nend\r\n", "utf8")]));
  await h.call("read", { file_path: "w.txt" });
  const r = await h.call("edit", { file_path: "w.txt", old_string: '```\ntitle = "Hi"\nnon-blocking = 1\n```', new_string: '```\ntitle = "Hi"\nnon-blocking = 2\n```' });
  expect(r.isError).toBe(false);
  expect(r.text).toContain("markdown fence");
  expect(readFileSync(path)).toEqual(Buffer.concat([bom, Buffer.from("title = “Hi”\r\nnon‑blocking = 2\r\nend\r\n", "utf8")]));
});

test("a file changed since it was read is refused, however loosely old_string would match", async () => {
  h = makeHarness();
  const path = join(h.dir, "c.txt");
  writeFileSync(path, "say(“hi”)\n");
  await h.call("read", { file_path: "c.txt" });
  writeFileSync(path, "say(“hi”)\nmore()\n");
  const r = await h.call("edit", { file_path: "c.txt", old_string: '1→say("hi")', new_string: '1→say("bye")' });
  expect(r.isError).toBe(true);
  expect(r.text).toContain("changed on disk since you read it");
  expect(readFileSync(path, "utf8")).toBe("say(“hi”)\nmore()\n");
});

test("replace_all through look-alike characters goes left to right without overlaps", async () => {
  h = makeHarness();
  const path = join(h.dir, "d.txt");
  writeFileSync(path, "a–––b\n");
  await h.call("read", { file_path: "d.txt" });
  const r = await h.call("edit", { file_path: "d.txt", old_string: "--", new_string: "=", replace_all: true });
  expect(r.isError).toBe(false);
  // As "a---b".replaceAll("--", "=") is "a=-b": the first two, then nothing overlapping them.
  expect(readFileSync(path, "utf8")).toBe("a=–b\n");
});

test("a stale block is refused when the call is prepared, before anyone is asked", async () => {
  h = makeHarness();
  writeFileSync(join(h.dir, "page.py"), PAGE);
  await h.call("read", { file_path: "page.py" });
  const rt = createToolRuntime(builtinTools());
  const stale = PAGE.replace("start + limit", "start + max").trimEnd();
  const p = await rt.prepare(
    { id: "t", name: "edit", input: { file_path: "page.py", old_string: stale, new_string: stale.replace("return chunk", "return list(chunk)") } },
    { workspace: h.ws, signal: new AbortController().signal },
  );
  expect(p.ok).toBe(false);
  if (!p.ok) expect(String(p.outcome.content)).toContain("differ from the file");
});
