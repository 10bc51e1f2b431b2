// `bun run bench [--json] [name...]`: runs every bench/*.bench.ts (or the named ones), each in a
// process of its own so one bench's heap, loaded grammars or timers never colour another's figures.
// Each module exports `run(opts)` returning results; with --json each result is one JSON line,
// otherwise a readable table. Figures are per-unit costs and ratios, never pass/fail.
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type BenchResult = { name: string; [field: string]: unknown };
export type BenchModule = { run(opts: { json: boolean }): Promise<BenchResult[]> };

async function main() {
  const args = process.argv.slice(2);
  const json = args.includes("--json");
  const dir = import.meta.dir;
  const child = args.indexOf("--module");
  if (child >= 0) {
    const mod = (await import(join(dir, args[child + 1]!))) as BenchModule;
    for (const r of await mod.run({ json })) console.log(json ? JSON.stringify(r) : formatResult(r));
    return;
  }
  const only = args.filter((a) => !a.startsWith("--"));
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
    .sort();
  let failed = 0;
  for (const file of files) {
    // The projects, data homes and logs a bench makes go under a directory of its own, removed
    // when it ends (as `npm test` does): a day of bench runs left hundreds of them in /tmp.
    const root = mkdtempSync(join(tmpdir(), "kb-"));
    const proc = Bun.spawn([process.execPath, import.meta.path, "--module", file, ...(json ? ["--json"] : [])], { stdout: "inherit", stderr: "inherit", env: { ...process.env, TMPDIR: root } });
    const code = await proc.exited;
    rmSync(root, { recursive: true, force: true });
    if (code !== 0) {
      failed++;
      console.error(`bench ${file} failed`);
    }
  }
  if (failed > 0) process.exit(1);
}

function formatResult(r: BenchResult): string {
  const fields = Object.entries(r)
    .filter(([k]) => k !== "name")
    .map(([k, v]) => `${k}=${typeof v === "object" ? JSON.stringify(v) : String(v)}`);
  return `${r.name}\n  ${fields.join("\n  ")}`;
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
