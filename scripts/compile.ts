// Compiles src/main.ts into one self-contained executable for a target: bytecode on for start-up
// time; bunfig and .env autoloading off inside the binary, so a project's .env never leaks into the
// agent. Bun cross-compiles by fetching the target's runtime from the npm registry (cached after).
// The one per-target input is ripgrep: src/assets/ripgrep-asset.ts is swapped for a module that
// embeds the target's rg and its sha256. Grammars and everything else are the same bytes everywhere.
import { createHash } from "node:crypto";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ReleaseTarget } from "../src/platform/target.ts";
import { checkCodeSignature, withoutCodeSignature } from "./macho-signature.ts";
import { ripgrepPackage } from "./ripgrep-package.ts";

const root = join(import.meta.dir, "..");
const bunTarget = { "linux-x64": "bun-linux-x64", "linux-arm64": "bun-linux-arm64", "darwin-x64": "bun-darwin-x64", "darwin-arm64": "bun-darwin-arm64" } as const;

export type Compiled = { target: ReleaseTarget; outfile: string; bytes: number; seconds: number; ripgrep: string };

/** `version`: what the binary says it is, instead of package.json's (tests build an older one to update from). */
export async function compile(target: ReleaseTarget, outfile: string, version?: string): Promise<Compiled> {
  const started = performance.now();
  const rg = ripgrepPackage(target);
  const sha256 = createHash("sha256").update(readFileSync(rg.rg)).digest("hex");
  const source = `${rg.name}@${rg.version}`;
  const asset = `import file from ${JSON.stringify(rg.rg)} with { type: "file" };
export function ripgrepAsset() {
  return { file, platform: ${JSON.stringify(target)}, source: ${JSON.stringify(source)}, sha256: ${JSON.stringify(sha256)} };
}
`;
  const result = await Bun.build({
    entrypoints: [join(root, "src", "main.ts")],
    compile: { target: bunTarget[target], outfile, autoloadDotenv: false, autoloadBunfig: false },
    bytecode: true,
    minify: true,
    sourcemap: "none",
    plugins: [
      {
        name: "khaelor-ripgrep-asset",
        setup(build) {
          build.onLoad({ filter: /[\\/]src[\\/]assets[\\/]ripgrep-asset\.ts$/ }, () => ({ loader: "ts", contents: asset }));
          if (version !== undefined) build.onLoad({ filter: /[\\/]src[\\/]version\.ts$/ }, () => ({ loader: "ts", contents: `export const VERSION: string = ${JSON.stringify(version)};\n` }));
        },
      },
    ],
  });
  if (!result.success) throw new Error(`building ${target} failed:\n${result.logs.map(String).join("\n")}`);
  if (target.startsWith("darwin-")) settleSignature(target, outfile);
  return { target, outfile, bytes: statSync(outfile).size, seconds: (performance.now() - started) / 1000, ripgrep: source };
}

/**
 * A darwin binary leaves here with a code signature that covers it (arm64, which macOS requires to
 * be signed; Bun signs it ad hoc) or with none (x64, whose stale signature is removed: see
 * scripts/macho-signature.ts). A broken arm64 signature fails the build: that binary would be killed.
 */
function settleSignature(target: ReleaseTarget, outfile: string): void {
  const bytes = readFileSync(outfile);
  const sig = checkCodeSignature(bytes);
  if (!("problem" in sig)) return;
  if (target === "darwin-arm64") throw new Error(`${outfile}: the code signature Bun wrote is invalid (${sig.problem}); macOS would kill it at launch`);
  writeFileSync(outfile, withoutCodeSignature(bytes));
}

export const describe = (c: Compiled): string => `${c.outfile} (${c.target}, ${(c.bytes / 1024 / 1024).toFixed(1)} MB, ${c.ripgrep}) in ${c.seconds.toFixed(1)} s`;
