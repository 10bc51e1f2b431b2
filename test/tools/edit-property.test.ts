// Random files, random edits, random model slips: an edit either produces exactly "the file with
// old replaced by new at its one place" or leaves the file untouched, and a tolerance never changes
// a byte outside the replaced lines. Seeded, so a failure names a case that replays.
//
// The model's slips are the classes the matcher tolerates (read's line numbers, a fence around both
// strings, look-alike characters) plus the one it must refuse: a block whose ends match but whose
// lines between the model remembers wrongly and keeps.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { planEdit } from "../../src/tools/edit-match.ts";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createToolRuntime } from "../../src/tools/runtime.ts";
import { createWorkspace } from "../../src/workspace/local.ts";
import { seededRandom } from "../support/prng.ts";
import { chance, KINDS, makeCase, violation } from "./edit-random.ts";

const PLAN_CASES = 5000;
const TOOL_CASES = 300;

test(`property: ${PLAN_CASES} random edits apply exactly at their one place or not at all`, () => {
  const r = seededRandom(36);
  const failures: string[] = [];
  const counts = new Map<string, number>();
  for (let i = 0; i < PLAN_CASES; i++) {
    const c = makeCase(r);
    const plan = planEdit(c.file, c.old, c.new, c.replaceAll);
    const key = `${c.kind}:${plan.ok ? "applied" : plan.kind}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
    const v = violation(c, plan);
    if (v && failures.length < 5) failures.push(`case ${i} (${c.kind}): ${v}\n${JSON.stringify({ file: c.file, old: c.old, new: c.new })}`);
  }
  console.log(`edit property: ${PLAN_CASES} cases: ${[...counts].sort().map(([k, v]) => `${k}=${v}`).join(", ")}`);
  expect(failures).toEqual([]);
  // Every class ran, and the tolerated ones did apply: a property that only refuses proves nothing.
  for (const k of KINDS) expect([...counts.keys()].some((x) => x.startsWith(`${k}:`))).toBe(true);
  for (const k of ["lookalike", "prefix", "fence", "partial-lookalike", "stale-replaced", "unseen-line"]) expect(counts.get(`${k}:applied`) ?? 0).toBeGreaterThan(0);
});

const dir = mkdtempSync(join(tmpdir(), "khaelor-edit-property-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test(`property: through the tool, ${TOOL_CASES} edits keep CRLF and the BOM, and a refused edit leaves the bytes alone`, async () => {
  const r = seededRandom(3636);
  const rt = createToolRuntime(builtinTools());
  const failures: string[] = [];
  for (let i = 0; i < TOOL_CASES; i++) {
    const c = makeCase(r);
    const crlf = chance(r, 0.5);
    const bom = chance(r, 0.3);
    const onDisk = (text: string) => Buffer.concat([Buffer.from(bom ? [0xef, 0xbb, 0xbf] : []), Buffer.from(crlf ? text.replace(/\n/g, "\r\n") : text, "utf8")]);
    const ws = createWorkspace({ root: dir, spillDir: join(dir, ".spill") });
    const path = join(dir, `case-${i}.txt`);
    const before = onDisk(c.file);
    writeFileSync(path, before);
    const ctx = { workspace: ws, signal: new AbortController().signal };
    await rt.execute({ id: "r", name: "read", input: { file_path: path } }, ctx);
    const out = await rt.execute({ id: "e", name: "edit", input: { file_path: path, old_string: c.old, new_string: c.new, ...(c.replaceAll ? { replace_all: true } : {}) } }, ctx);
    const plan = planEdit(c.file, c.old, c.new, c.replaceAll);
    const after = readFileSync(path);
    const want = plan.ok ? onDisk(plan.content) : before;
    if (out.isError === plan.ok || !after.equals(want)) failures.push(`tool case ${i} (${c.kind}, crlf=${crlf}, bom=${bom}): ${out.isError ? "refused" : "applied"}, plan ${plan.ok ? "applied" : "refused"}`);
  }
  expect(failures.slice(0, 5)).toEqual([]);
});
