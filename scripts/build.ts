// Builds dist/khaelor for the machine it runs on: the fast build for development and CI.
// `bun run release` builds every platform.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { parseTarget, runningPlatform } from "../src/platform/target.ts";
import { compile, describe } from "./compile.ts";

const root = join(import.meta.dir, "..");
try {
  const target = parseTarget(runningPlatform());
  mkdirSync(join(root, "dist"), { recursive: true });
  console.log(`built ${describe(await compile(target, join(root, "dist", "khaelor")))}`);
} catch (e) {
  console.error(`build: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
