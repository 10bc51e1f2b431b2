// Costs of the tools' hot paths: the edit cascade on a large file (exact, fuzzy, and the slowest
// case, not found with a "closest text" search), the fixed overhead of one bash call, and what the
// permission guard adds to a grep over a large project.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPermissionEngine } from "../src/permissions/index.ts";
import { planEdit } from "../src/tools/edit-match.ts";
import { builtinTools } from "../src/tools/builtin.ts";
import { createToolRuntime } from "../src/tools/runtime.ts";
import { createWorkspace } from "../src/workspace/local.ts";

function perCall(fn: () => unknown, n: number): number {
  const t0 = performance.now();
  for (let i = 0; i < n; i++) fn();
  return (performance.now() - t0) / n;
}

export async function run(_opts: { json: boolean }) {
  const lines = Array.from({ length: 5000 }, (_, i) => `    const value${i} = compute(${i}, "item-${i}");`);
  const file = lines.join("\n") + "\n";
  const exact = lines[4000]!;
  const fuzzy = `const value4000 = compute(4000, "item-4000");\nconst value4001 = compute(4001, "item-4001");`;
  const missing = `const valueX = compute(4000, "item-4000");\nconst valueY = other();`;
  const results: Array<{ name: string; [k: string]: unknown }> = [
    {
      name: "edit cascade, 5000-line file",
      exact_ms: +perCall(() => planEdit(file, exact, exact + " // x"), 50).toFixed(3),
      line_trimmed_ms: +perCall(() => planEdit(file, fuzzy, fuzzy + " // x"), 20).toFixed(3),
      not_found_with_suggestion_ms: +perCall(() => planEdit(file, missing, "x"), 5).toFixed(3),
    },
  ];
  const dir = mkdtempSync(join(tmpdir(), "khaelor-bench-"));
  const ws = createWorkspace({ root: dir, spillDir: join(dir, "spill") });
  const rt = createToolRuntime(builtinTools());
  const ctx = { workspace: ws, signal: new AbortController().signal };
  const n = 20;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await rt.execute({ id: String(i), name: "bash", input: { command: "true" } }, ctx);
  results.push({ name: "bash call overhead (command `true`)", per_call_ms: +((performance.now() - t0) / n).toFixed(2) });
  rmSync(dir, { recursive: true, force: true });
  results.push(await guardedGrep());
  return results;
}

/** What the permission guard adds to a grep over a project: every file listed and checked first. */
async function guardedGrep() {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-bench-grep-"));
  const files = 20_000;
  for (let d = 0; d < 100; d++) {
    mkdirSync(join(dir, `src/d${d}`), { recursive: true });
    for (let f = 0; f < files / 100; f++) writeFileSync(join(dir, `src/d${d}/f${f}.ts`), `export const v${f} = ${f};\n`);
  }
  mkdirSync(join(dir, ".khaelor"));
  writeFileSync(join(dir, ".khaelor/settings.json"), JSON.stringify({ permissions: { deny: ["Read(./src/d7/**)"] } }));
  const engine = await createPermissionEngine({ projectRoot: dir, home: join(dir, "home"), configHome: join(dir, "config") });
  const ws = createWorkspace({ root: dir, spillDir: join(dir, "spill") });
  const ctx = { workspace: ws, signal: new AbortController().signal };
  const time = async (rt: ReturnType<typeof createToolRuntime>) => {
    const n = 5;
    await rt.execute({ id: "warm", name: "grep", input: { pattern: "v77 =", path: "." } }, ctx);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await rt.execute({ id: String(i), name: "grep", input: { pattern: "v77 =", path: ".", output_mode: "content" } }, ctx);
    return (performance.now() - t0) / n;
  };
  const plain = await time(createToolRuntime(builtinTools()));
  const guarded = await time(createToolRuntime(builtinTools(), { searchGuard: (tool, d) => engine.searchFilter(tool, d) }));
  rmSync(dir, { recursive: true, force: true });
  return {
    name: `grep over ${files.toLocaleString("en-US")} files with a Read deny on one folder`,
    plain_ms: +plain.toFixed(1),
    guarded_ms: +guarded.toFixed(1),
    guard_us_per_file: +(((guarded - plain) * 1000) / files).toFixed(2),
  };
}
