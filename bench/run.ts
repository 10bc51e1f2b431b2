// `bun run bench [--json] [name...]`: runs every bench/*.bench.ts (or the named ones).
// Each module exports `run(opts)` returning results; with --json each result is one JSON line,
// otherwise a readable table. Figures are per-unit costs and ratios, never pass/fail.
import { readdirSync } from "node:fs";
import { join } from "node:path";

export type BenchResult = { name: string; [field: string]: unknown };
export type BenchModule = { run(opts: { json: boolean }): Promise<BenchResult[]> };

async function main() {
  const args = process.argv.slice(2);
  const json = args.includes("--json");
  const only = args.filter((a) => !a.startsWith("--"));
  const dir = import.meta.dir;
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".bench.ts"))
    .filter((f) => only.length === 0 || only.some((o) => f.startsWith(o)))
    .sort();
  for (const file of files) {
    const mod = (await import(join(dir, file))) as BenchModule;
    const results = await mod.run({ json });
    for (const r of results) {
      if (json) console.log(JSON.stringify(r));
      else console.log(formatResult(r));
    }
  }
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
