// Runs every case of test/fixtures/edits through the real edit tool (read first, then edit, on a
// real file) and prints the pass rate. Each case pins one realistic model mistake to the outcome we
// want: the file after the edit, or the kind of error.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createToolRuntime } from "../../src/tools/runtime.ts";
import { encodeText, type TextEncodingName } from "../../src/workspace/encoding.ts";
import { createWorkspace } from "../../src/workspace/local.ts";

type Case = {
  name: string;
  source: string;
  flags: Set<string>;
  file: string;
  old: string;
  new: string;
  expect: { content: string } | { error: string };
};

const FIXTURES = join(import.meta.dir, "../fixtures/edits");
const visible = (s: string) =>
  s
    .replace(/⇥/g, "\t")
    .replace(/·/g, " ")
    .replace(/␍/g, "\r")
    .replace(/⟨U\+([0-9A-F]{4,6})⟩/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)));

export function parseCases(text: string, source: string): Case[] {
  const cases: Case[] = [];
  const blocks = text.split(/^=== /m).slice(1);
  for (const block of blocks) {
    const [header, ...rest] = block.split("\n");
    const [name, ...flags] = header!.trim().split(/\s+/);
    const sections = new Map<string, string[]>();
    let current: string[] | null = null;
    let error: string | null = null;
    for (const line of rest) {
      const m = /^--- (file|old|new|expect|error: (\w+))$/.exec(line);
      if (m) {
        if (m[2]) {
          error = m[2];
          current = null;
        } else sections.set(m[1]!, (current = []));
        continue;
      }
      if (current) current.push(line);
      else if (!line.startsWith("#") && line.trim() !== "") throw new Error(`${source}: ${name}: text outside a section: ${line}`);
    }
    const f = new Set(flags);
    const eol = f.has("noeol") ? "" : "\n";
    // file/expect: trailing blank lines separate cases; old/new: literal.
    const doc = (k: string) => {
      const lines = [...(sections.get(k) ?? [])];
      while (lines.length && lines[lines.length - 1] === "") lines.pop();
      return visible(lines.join("\n")) + (lines.length ? eol : "");
    };
    const lit = (k: string) => {
      const lines = sections.get(k);
      if (!lines) throw new Error(`${source}: ${name}: missing --- ${k}`);
      return visible(lines.join("\n"));
    };
    cases.push({
      name: name!,
      source,
      flags: f,
      file: doc("file"),
      old: lit("old"),
      new: lit("new"),
      expect: error ? { error } : { content: doc("expect") },
    });
  }
  return cases;
}

function encodingFor(flags: Set<string>): TextEncodingName {
  if (flags.has("bom")) return "utf-8-bom";
  if (flags.has("utf16le")) return "utf-16le";
  if (flags.has("latin1")) return "latin1";
  return "utf-8";
}
const withEol = (s: string, flags: Set<string>) => (flags.has("crlf") ? s.replace(/\r?\n/g, "\r\n") : s);

const ERROR_PATTERNS: Record<string, RegExp> = {
  ambiguous: /matches \d+ places/,
  not_found: /was not found/,
  no_change: /nothing to change|changes nothing/,
  encoding: /cannot hold/,
  stale: /differ from the file/,
};

const cases = readdirSync(FIXTURES)
  .filter((f) => f.endsWith(".cases"))
  .sort()
  .flatMap((f) => parseCases(readFileSync(join(FIXTURES, f), "utf8"), f));

const dir = mkdtempSync(join(tmpdir(), "khaelor-edit-corpus-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("the corpus has at least 100 cases with unique names", () => {
  expect(cases.length).toBeGreaterThanOrEqual(100);
  expect(new Set(cases.map((c) => c.name)).size).toBe(cases.length);
});

test("edit corpus pass rate", async () => {
  const rt = createToolRuntime(builtinTools());
  const failures: string[] = [];
  const stages = new Map<string, number>();
  let i = 0;
  for (const c of cases) {
    const ws = createWorkspace({ root: dir, spillDir: join(dir, ".spill") });
    const path = join(dir, `case-${i++}.txt`);
    const enc = encodingFor(c.flags);
    writeFileSync(path, encodeText(withEol(c.file, c.flags), enc));
    const ctx = { workspace: ws, signal: new AbortController().signal };
    await rt.execute({ id: "r", name: "read", input: { file_path: path } }, ctx);
    const out = await rt.execute(
      { id: "e", name: "edit", input: { file_path: path, old_string: c.old, new_string: c.new, ...(c.flags.has("replace_all") ? { replace_all: true } : {}) } },
      ctx,
    );
    const text = typeof out.content === "string" ? out.content : JSON.stringify(out.content);
    const stage = /Tolerance used: (.*) \(send/.exec(text)?.[1] ?? (out.isError ? (/differ from the file/.test(text) ? "refused as stale" : "error") : "exact");
    stages.set(stage, (stages.get(stage) ?? 0) + 1);
    const actual = readFileSync(path);
    if ("error" in c.expect) {
      const re = ERROR_PATTERNS[c.expect.error];
      if (!re) throw new Error(`${c.name}: unknown error kind ${c.expect.error}`);
      const unchanged = Buffer.compare(actual, encodeText(withEol(c.file, c.flags), enc)) === 0;
      if (!out.isError || !re.test(text) || !unchanged) failures.push(`${c.source} ${c.name}: wanted error ${c.expect.error}, got ${out.isError ? "error" : "success"}: ${text.slice(0, 300)}`);
    } else {
      const want = encodeText(withEol(c.expect.content, c.flags), enc);
      if (out.isError || Buffer.compare(actual, want) !== 0) {
        failures.push(
          `${c.source} ${c.name}: ${out.isError ? `error: ${text.slice(0, 300)}` : `content differs:\n  want ${JSON.stringify(want.toString("utf8"))}\n  got  ${JSON.stringify(actual.toString("utf8"))}`}`,
        );
      }
    }
  }
  const passed = cases.length - failures.length;
  const rate = ((passed / cases.length) * 100).toFixed(1);
  console.log(`edit corpus: ${passed}/${cases.length} passed (${rate}%)`);
  console.log(`  by outcome: ${[...stages].map(([k, v]) => `${k}=${v}`).join(", ")}`);
  for (const f of failures) console.log(`  FAIL ${f}`);
  // The bar: every case passes. A case that cannot be met is a decision to record in the fixture.
  expect(failures).toEqual([]);
});
