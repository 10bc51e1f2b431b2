import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeHarness, type Harness } from "./harness.ts";

let h: Harness;
const p = (rel: string) => join(h.dir, rel);
function put(rel: string, text: string, mtimeSec?: number) {
  mkdirSync(join(p(rel), ".."), { recursive: true });
  writeFileSync(p(rel), text);
  if (mtimeSec !== undefined) utimesSync(p(rel), mtimeSec, mtimeSec);
}

beforeAll(() => {
  h = makeHarness("khaelor-search-");
  put(".gitignore", "dist/\n*.log\n");
  put(".ignore", "secret/\n");
  put("src/old.ts", "export const needle = 1;\n", 1_000_000);
  put("src/new.ts", "import { needle } from './old';\nconsole.log(needle);\n", 2_000_000);
  put("src/mid.py", "needle = 'py'\n", 1_500_000);
  put("dist/bundle.js", "needle in build output\n");
  put("debug.log", "needle in a log\n");
  put("secret/key.txt", "needle in .ignore'd dir\n");
  put(".github/workflows/ci.yml", "run: echo needle\n");
  put("image.bin", "needle\0binary");
  for (let i = 0; i < 120; i++) put(`many/f${String(i).padStart(3, "0")}.txt`, "hay\nneedle\n".repeat(3));
});
afterAll(() => h.cleanup());

describe("grep", () => {
  test("files_with_matches by default, newest first, honouring .gitignore and .ignore, skipping hidden and binary", async () => {
    const r = await h.call("grep", { pattern: "needle", path: "src" });
    expect(r.text.split("\n")).toEqual(["src/new.ts", "src/mid.py", "src/old.ts"]);
    const all = await h.call("grep", { pattern: "needle", head_limit: 500 });
    expect(all.text).not.toContain("dist/bundle.js");
    expect(all.text).not.toContain("debug.log");
    expect(all.text).not.toContain("secret/key.txt");
    expect(all.text).not.toContain(".github");
    expect(all.text).not.toContain("image.bin");
  });

  test("hidden files are searched when the path names them", async () => {
    const r = await h.call("grep", { pattern: "needle", path: ".github" });
    expect(r.text).toBe(".github/workflows/ci.yml");
  });

  test("content mode with line numbers, context, case and type filters", async () => {
    const r = await h.call("grep", { pattern: "NEEDLE", "-i": true, output_mode: "content", type: "ts", path: "src" });
    expect(r.text).toContain("src/old.ts:1:export const needle = 1;");
    expect(r.text).toContain("src/new.ts:2:console.log(needle);");
    expect(r.text).not.toContain("mid.py");
    const ctx = await h.call("grep", { pattern: "console", output_mode: "content", "-B": 1, path: "src/new.ts" });
    expect(ctx.text).toBe("src/new.ts-1-import { needle } from './old';\nsrc/new.ts:2:console.log(needle);");
    const glob = await h.call("grep", { pattern: "needle", glob: "*.py" });
    expect(glob.text).toBe("src/mid.py");
  });

  test("results are bounded with an explicit notice of what was left out", async () => {
    const files = await h.call("grep", { pattern: "needle", path: "many" });
    expect(files.text.split("\n").filter((l) => l.startsWith("many/")).length).toBe(100);
    expect(files.text).toContain("20 more files not shown");
    const lines = await h.call("grep", { pattern: "needle", path: "many", output_mode: "content" });
    expect(lines.text.split("\n").filter((l) => l.startsWith("many/")).length).toBe(250);
    expect(lines.text).toContain("110 more lines not shown");
    const count = await h.call("grep", { pattern: "needle", path: "many", output_mode: "count", head_limit: 2 });
    expect(count.text).toContain("360 matches in 120 files");
    expect(count.text).toMatch(/many\/f\d{3}\.txt:3/);
  });

  test("context lines keep their '-' marker with line numbers off, and a path with ':' or '-' stays whole", async () => {
    put("odd/x-1:2.txt", "before\nneedle two\nafter\n");
    const r = await h.call("grep", { pattern: "two", path: "odd", output_mode: "content", "-n": false, "-C": 1 });
    expect(r.text).toBe("odd/x-1:2.txt-before\nodd/x-1:2.txt:needle two\nodd/x-1:2.txt-after");
    const count = await h.call("grep", { pattern: "two", path: "odd", output_mode: "count" });
    expect(count.text).toBe("odd/x-1:2.txt:1\n\n[1 matches in 1 files]");
  });

  test("multiline patterns span lines only when asked", async () => {
    const plain = await h.call("grep", { pattern: "hay.needle", path: "many/f000.txt", output_mode: "content" });
    expect(plain.text).toContain("No matches");
    const multi = await h.call("grep", { pattern: "hay.needle", path: "many/f000.txt", output_mode: "count", multiline: true });
    expect(multi.text).toContain("3 matches in 1 files");
  });

  test("a bad regex or path is an error that says what to do", async () => {
    const bad = await h.call("grep", { pattern: "foo(" });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain("Invalid regex");
    const nopath = await h.call("grep", { pattern: "x", path: "srcc" });
    expect(nopath.text).toContain("Did you mean src?");
  });
});

describe("glob", () => {
  test("matches by pattern, newest first", async () => {
    const r = await h.call("glob", { pattern: "src/*" });
    expect(r.text.split("\n")).toEqual(["src/new.ts", "src/mid.py", "src/old.ts"]);
    const deep = await h.call("glob", { pattern: "**/*.ts" });
    expect(deep.text.split("\n").sort()).toEqual(["src/new.ts", "src/old.ts"]);
  });

  test("a bare pattern means the top level; if nothing is there, deeper matches are offered", async () => {
    const r = await h.call("glob", { pattern: "*.py" });
    expect(r.text).toContain('these match "**/*.py"');
    expect(r.text).toContain("src/mid.py");
  });

  test("ignored and hidden files are skipped unless the pattern names a hidden directory", async () => {
    const r = await h.call("glob", { pattern: "**/*.{js,log,yml}" });
    expect(r.text).toContain("No files match");
    const hidden = await h.call("glob", { pattern: ".github/**/*.yml" });
    expect(hidden.text).toBe(".github/workflows/ci.yml");
  });

  test("at most 100 paths, with the count of the rest", async () => {
    const r = await h.call("glob", { pattern: "many/*.txt" });
    expect(r.text.split("\n").filter((l) => l.startsWith("many/")).length).toBe(100);
    expect(r.text).toContain("[20 more not shown");
  });

  test("a path relative to the working directory, and an absolute pattern", async () => {
    h.ws.cwd = p("src");
    const r = await h.call("glob", { pattern: "*.ts" });
    expect(r.text.split("\n").sort()).toEqual(["src/new.ts", "src/old.ts"]);
    h.ws.cwd = h.ws.root;
    const abs = await h.call("glob", { pattern: `${p("src")}/*.py` });
    expect(abs.text).toBe("src/mid.py");
  });
});
