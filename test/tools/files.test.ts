import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encodeText } from "../../src/workspace/encoding.ts";
import { makeHarness, type Harness } from "./harness.ts";

let h: Harness;
beforeAll(() => {
  h = makeHarness("khaelor-files-");
  mkdirSync(join(h.dir, "src"));
  writeFileSync(join(h.dir, "src/app.ts"), "const a = 1;\nconst b = 2;\nexport { a, b };\n");
});
afterAll(() => h.cleanup());
const p = (rel: string) => join(h.dir, rel);

describe("read", () => {
  test("numbers lines like cat -n and pages with offset/limit", async () => {
    writeFileSync(p("lines.txt"), Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n") + "\n");
    const all = await h.call("read", { file_path: "lines.txt" });
    expect(all.text.split("\n")[0]).toBe("     1\tline 1");
    const part = await h.call("read", { file_path: "lines.txt", offset: 10, limit: 3 });
    expect(part.text).toContain("    10\tline 10\n    11\tline 11\n    12\tline 12");
    expect(part.text).toContain("showing lines 10-12 of 30; continue with offset=13");
    const past = await h.call("read", { file_path: "lines.txt", offset: 99 });
    expect(past.text).toContain("has only 30 lines");
  });

  test("cuts very long lines with a marker and stays within the budget", async () => {
    writeFileSync(p("long.txt"), "x".repeat(5000) + "\nshort\n");
    const r = await h.call("read", { file_path: "long.txt" });
    expect(r.text).toContain("[line cut: 3000 more characters]");
    expect(r.text).toContain("     2\tshort");
    writeFileSync(p("big.txt"), Array.from({ length: 2000 }, () => "y".repeat(100)).join("\n"));
    const big = await h.call("read", { file_path: "big.txt" });
    expect(big.text.length).toBeLessThan(31_000);
    expect(big.text).toMatch(/continue with offset=\d+/);
  });

  test("a directory points to glob; a missing file suggests the close name", async () => {
    const dir = await h.call("read", { file_path: "src" });
    expect(dir.isError).toBe(true);
    expect(dir.text).toContain("use glob".replace("use", "Use"));
    const missing = await h.call("read", { file_path: "src/ap.ts" });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain("Did you mean src/app.ts?");
    const elsewhere = await h.call("read", { file_path: "app.ts" });
    expect(elsewhere.text).toContain("src/app.ts");
  });

  test("images come back as image blocks; other binaries are described", async () => {
    // A 1x1 PNG.
    const png = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64");
    writeFileSync(p("dot.png"), png);
    const img = await h.call("read", { file_path: "dot.png" });
    expect(Array.isArray(img.content)).toBe(true);
    const block = (img.content as Array<{ type: string; source?: { media_type: string; data: string } }>)[1]!;
    expect(block.type).toBe("image");
    expect(block.source!.media_type).toBe("image/png");
    expect(Buffer.from(block.source!.data, "base64").equals(png)).toBe(true);
    writeFileSync(p("blob.bin"), Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 3]));
    const bin = await h.call("read", { file_path: "blob.bin" });
    expect(bin.text).toContain("binary file (ELF executable, 8 bytes)");
  });

  test("decodes UTF-16 and Latin-1 and says so; CRLF is noted, not shown", async () => {
    writeFileSync(p("u16.txt"), encodeText("héllo\r\nwörld\r\n", "utf-16le"));
    const r = await h.call("read", { file_path: "u16.txt" });
    expect(r.text).toContain("     1\théllo\n     2\twörld");
    expect(r.text).toContain("encoding: UTF-16 LE");
    expect(r.text).toContain("line endings: CRLF");
    expect(r.text).not.toContain("\r");
    writeFileSync(p("l1.txt"), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
    const l1 = await h.call("read", { file_path: "l1.txt" });
    expect(l1.text).toContain("café");
    expect(l1.text).toContain("Latin-1");
  });
});

describe("write", () => {
  test("creates parents, refuses to overwrite an unread file, then overwrites after a read", async () => {
    const c = await h.call("write", { file_path: "new/dir/file.txt", content: "one\n" });
    expect(c.text).toContain("Created new/dir/file.txt");
    expect(readFileSync(p("new/dir/file.txt"), "utf8")).toBe("one\n");
    writeFileSync(p("other.txt"), "theirs\n");
    const refused = await h.call("write", { file_path: "other.txt", content: "mine\n" });
    expect(refused.isError).toBe(true);
    expect(refused.text).toContain("has not been read in this session: read it first");
    expect(readFileSync(p("other.txt"), "utf8")).toBe("theirs\n");
    await h.call("read", { file_path: "other.txt" });
    const ok = await h.call("write", { file_path: "other.txt", content: "mine\n" });
    expect(ok.text).toContain("Updated other.txt: +1 -1 lines.");
    expect(readFileSync(p("other.txt"), "utf8")).toBe("mine\n");
  });

  test("refuses when the file changed on disk since it was read", async () => {
    writeFileSync(p("moving.txt"), "v1\n");
    await h.call("read", { file_path: "moving.txt" });
    writeFileSync(p("moving.txt"), "v2 from the user\n");
    const r = await h.call("write", { file_path: "moving.txt", content: "v3\n" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("changed on disk since you read it");
    expect(readFileSync(p("moving.txt"), "utf8")).toBe("v2 from the user\n");
  });

  test("a touch that keeps the bytes is not a change", async () => {
    writeFileSync(p("touched.txt"), "same\n");
    await h.call("read", { file_path: "touched.txt" });
    utimesSync(p("touched.txt"), new Date(), new Date(Date.now() + 5000));
    const r = await h.call("write", { file_path: "touched.txt", content: "new\n" });
    expect(r.isError).toBe(false);
  });

  test("keeps the mode, CRLF and the BOM of the file it replaces, and leaves no temp file", async () => {
    writeFileSync(p("run.sh"), encodeText("#!/bin/sh\r\necho a\r\n", "utf-8-bom"));
    chmodSync(p("run.sh"), 0o755);
    await h.call("read", { file_path: "run.sh" });
    await h.call("write", { file_path: "run.sh", content: "#!/bin/sh\necho b\n" });
    expect(statSync(p("run.sh")).mode & 0o777).toBe(0o755);
    expect(readFileSync(p("run.sh")).equals(encodeText("#!/bin/sh\r\necho b\r\n", "utf-8-bom"))).toBe(true);
    expect(readdirSync(h.dir).filter((f) => f.includes(".tmp"))).toEqual([]);
  });
});

describe("edit", () => {
  test("shows a numbered diff and journals the change for undo", async () => {
    await h.call("read", { file_path: "src/app.ts" });
    const r = await h.call("edit", { file_path: "src/app.ts", old_string: "const b = 2;", new_string: "const b = 3;" });
    expect(r.text).toContain("Edited src/app.ts: +1 -1 lines.");
    expect(r.text).toContain("-    2  const b = 2;\n+    2  const b = 3;");
    expect(r.display?.diff).toContain("+const b = 3;");
    const entry = h.ws.edits.entries().at(-1)!;
    expect(entry.path).toBe(p("src/app.ts"));
    expect(Buffer.from(entry.before!).toString()).toContain("const b = 2;");
    const undo = h.ws.edits.undo();
    expect(undo.ok).toBe(true);
    expect(readFileSync(p("src/app.ts"), "utf8")).toContain("const b = 2;");
  });

  test("several matches: an error listing the line of each", async () => {
    writeFileSync(p("dup.py"), "x = 1\ny = 2\nx = 1\n");
    await h.call("read", { file_path: "dup.py" });
    const r = await h.call("edit", { file_path: "dup.py", old_string: "x = 1", new_string: "x = 9" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("matches 2 places (lines 1, 3)");
    const all = await h.call("edit", { file_path: "dup.py", old_string: "x = 1", new_string: "x = 9", replace_all: true });
    expect(all.text).toContain("(2 replacements)");
  });

  test("not found shows the closest text with its line number", async () => {
    writeFileSync(p("near.js"), "function greet(name) {\n  return `Hello, ${name}!`;\n}\n");
    await h.call("read", { file_path: "near.js" });
    const r = await h.call("edit", { file_path: "near.js", old_string: "  return `Hi, ${name}!`;", new_string: "  return `Hey`;" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain("closest text");
    expect(r.text).toContain("     2\t  return `Hello, ${name}!`;");
  });

  test("stale and unread files are refused; an empty old_string creates a file", async () => {
    writeFileSync(p("fresh.txt"), "a\n");
    const unread = await h.call("edit", { file_path: "fresh.txt", old_string: "a", new_string: "b" });
    expect(unread.text).toContain("read it first");
    await h.call("read", { file_path: "fresh.txt" });
    writeFileSync(p("fresh.txt"), "a changed\n");
    const stale = await h.call("edit", { file_path: "fresh.txt", old_string: "a", new_string: "b" });
    expect(stale.text).toContain("changed on disk since you read it");
    expect(stale.text).toContain("read it again");
    const created = await h.call("edit", { file_path: "brand/new.md", old_string: "", new_string: "# Title\n" });
    expect(created.text).toContain("Created brand/new.md");
    expect(readFileSync(p("brand/new.md"), "utf8")).toBe("# Title\n");
    const exists = await h.call("edit", { file_path: "brand/new.md", old_string: "", new_string: "x" });
    expect(exists.text).toContain("already exists");
  });

  test("an edit right after a write needs no new read", async () => {
    await h.call("write", { file_path: "chain.txt", content: "one\ntwo\n" });
    const r = await h.call("edit", { file_path: "chain.txt", old_string: "two", new_string: "three" });
    expect(r.isError).toBe(false);
    expect(readFileSync(p("chain.txt"), "utf8")).toBe("one\nthree\n");
  });
});
