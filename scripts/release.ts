// Builds the release binaries: dist/release/khaelor-<target> for every target (or those named with
// --target linux-arm64,darwin-arm64), each with khaelor-<target>.sha256 beside it in the format
// `sha256sum -c` and `shasum -a 256 -c` read.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { RELEASE_TARGETS, parseTarget, type ReleaseTarget } from "../src/platform/target.ts";
import { compile, describe } from "./compile.ts";

const root = join(import.meta.dir, "..");
const outDir = join(root, "dist", "release");

function targetsFrom(args: string[]): ReleaseTarget[] {
  const named: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--target") {
      const v = args[++i];
      if (v === undefined) throw new Error(`--target needs a value: one or more of ${RELEASE_TARGETS.join(", ")}`);
      named.push(...v.split(","));
    } else if (a.startsWith("--target=")) named.push(...a.slice("--target=".length).split(","));
    else throw new Error(`unknown argument ${JSON.stringify(a)}: usage: bun run release [--target ${RELEASE_TARGETS.join(",")}]`);
  }
  return named.length === 0 ? [...RELEASE_TARGETS] : [...new Set(named.map(parseTarget))];
}

try {
  const targets = targetsFrom(process.argv.slice(2));
  mkdirSync(outDir, { recursive: true });
  const started = performance.now();
  for (const target of targets) {
    const outfile = join(outDir, `khaelor-${target}`);
    rmSync(`${outfile}.sha256`, { force: true }); // no checksum beside a binary it was not made from
    const built = await compile(target, outfile);
    const sum = createHash("sha256").update(readFileSync(outfile)).digest("hex");
    writeFileSync(`${outfile}.sha256`, `${sum}  ${basename(outfile)}\n`);
    console.log(`built ${describe(built)}, sha256 ${sum}`);
  }
  console.log(`release: ${targets.length} binaries in ${outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(`release: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
