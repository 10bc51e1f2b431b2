// Builds a release into dist/release (or --out DIR): khaelor-<target> for every target (or those
// named with --target linux-arm64,darwin-arm64), each with khaelor-<target>.sha256 beside it in the
// format `sha256sum -c` and `shasum -a 256 -c` read; manifest.json (version, and per platform the
// file, size and sha256: what `khaelor update` reads); install.sh; and the npm packages as tarballs
// in dist/npm (or DIR/npm). --version V builds binaries that say they are V (tests build an older
// release to update from); the default is package.json's. --no-npm skips the npm tarballs.
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { manifestText, type ReleaseManifest } from "../src/install/manifest.ts";
import { RELEASE_TARGETS, parseTarget, type ReleaseTarget } from "../src/platform/target.ts";
import { VERSION } from "../src/version.ts";
import { compile, describe } from "./compile.ts";
import { writeNpmPackages } from "./npm-packages.ts";

const root = join(import.meta.dir, "..");
const USAGE = `usage: bun run release [--target ${RELEASE_TARGETS.join(",")}] [--out DIR] [--version X.Y.Z] [--no-npm]`;

type Options = { targets: ReleaseTarget[]; outDir: string; npmDir: string | null; version: string };

function optionsFrom(args: string[]): Options {
  const named: string[] = [];
  let out: string | null = null;
  let version = VERSION;
  let npm = true;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)] : [a, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined) throw new Error(flag === "--target" ? `--target needs a value: one or more of ${RELEASE_TARGETS.join(", ")}` : `${flag} needs a value: ${USAGE}`);
      return v;
    };
    if (flag === "--target") named.push(...value().split(","));
    else if (flag === "--out") out = resolve(value());
    else if (flag === "--version") {
      version = value();
      if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) throw new Error(`--version must be a version such as 1.2.3, got ${JSON.stringify(version)}`);
    } else if (a === "--no-npm") npm = false;
    else throw new Error(`unknown argument ${JSON.stringify(a)}: ${USAGE}`);
  }
  const targets = named.length === 0 ? [...RELEASE_TARGETS] : [...new Set(named.map(parseTarget))];
  return { targets, outDir: out ?? join(root, "dist", "release"), npmDir: !npm ? null : out ? join(out, "npm") : join(root, "dist", "npm"), version };
}

try {
  const o = optionsFrom(process.argv.slice(2));
  mkdirSync(o.outDir, { recursive: true });
  const started = performance.now();
  const manifest: ReleaseManifest = { name: "khaelor", version: o.version, files: {} };
  // No manifest beside binaries it does not describe, while they are being rebuilt.
  rmSync(join(o.outDir, "manifest.json"), { force: true });
  for (const target of o.targets) {
    const outfile = join(o.outDir, `khaelor-${target}`);
    rmSync(`${outfile}.sha256`, { force: true }); // no checksum beside a binary it was not made from
    const built = await compile(target, outfile, o.version === VERSION ? undefined : o.version);
    const sum = createHash("sha256").update(readFileSync(outfile)).digest("hex");
    writeFileSync(`${outfile}.sha256`, `${sum}  ${basename(outfile)}\n`);
    manifest.files[target] = { file: basename(outfile), size: built.bytes, sha256: sum };
    console.log(`built ${describe(built)}, sha256 ${sum}`);
  }
  copyFileSync(join(root, "install.sh"), join(o.outDir, "install.sh"));
  writeFileSync(join(o.outDir, "manifest.json"), manifestText(manifest));
  if (o.npmDir !== null) {
    mkdirSync(o.npmDir, { recursive: true });
    const tarballs = await writeNpmPackages(o.npmDir, o.version, o.targets.map((t) => ({ target: t, file: join(o.outDir, `khaelor-${t}`) })));
    console.log(`npm packages: ${tarballs.map((t) => basename(t)).join(", ")} in ${o.npmDir}`);
  }
  console.log(`release ${o.version}: ${o.targets.length} binaries, manifest.json and install.sh in ${o.outDir} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
} catch (e) {
  console.error(`release: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
