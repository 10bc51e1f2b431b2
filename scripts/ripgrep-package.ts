// The ripgrep executable a build for a target embeds: from @vscode/ripgrep-<target>, at the version
// and integrity package-lock.json records. npm installs only the one for the machine it runs on (the
// others are optional dependencies for other platforms), so a release build fetches the others
// with `npm pack` (npm's own registry settings and cache), checks each tarball against the
// lockfile's integrity, and unpacks it under node_modules/.cache, where `npm ci` clears it again.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ReleaseTarget } from "../src/platform/target.ts";

const root = join(import.meta.dir, "..");

export type RipgrepPackage = { name: string; version: string; integrity: string; rg: string };

function locked(name: string): { version: string; integrity: string } {
  const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as { packages?: Record<string, { version?: string; integrity?: string }> };
  const entry = lock.packages?.[`node_modules/${name}`];
  if (!entry?.version || !entry.integrity) throw new Error(`package-lock.json has no ${name} with an integrity hash: run npm install, then commit package-lock.json`);
  return { version: entry.version, integrity: entry.integrity };
}

function integrityOf(bytes: Uint8Array): string {
  return `sha512-${createHash("sha512").update(bytes).digest("base64")}`;
}

export function ripgrepPackage(target: ReleaseTarget): RipgrepPackage {
  const name = `@vscode/ripgrep-${target}`;
  const { version, integrity } = locked(name);
  const found = (dir: string): RipgrepPackage => ({ name, version, integrity, rg: join(dir, "bin", "rg") });

  // npm installed it (this machine's platform): npm checked it against the lockfile.
  const installed = join(root, "node_modules", name);
  if (existsSync(join(installed, "package.json"))) {
    const v = (JSON.parse(readFileSync(join(installed, "package.json"), "utf8")) as { version?: string }).version;
    if (v === version) return found(installed);
  }

  const cache = join(root, "node_modules", ".cache", "khaelor-release", `${name.replace("/", "+")}-${version}`);
  const stamp = join(cache, ".integrity");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === integrity) return found(cache);

  mkdirSync(join(cache, ".."), { recursive: true });
  const work = mkdtempSync(`${cache}.partial-`);
  try {
    const pack = spawnSync("npm", ["pack", `${name}@${version}`, "--pack-destination", work, "--json", "--silent"], { encoding: "utf8" });
    if (pack.status !== 0) throw new Error(`npm pack ${name}@${version} failed (${pack.status}): ${pack.stderr.trim() || pack.error?.message || ""}`);
    const [{ filename }] = JSON.parse(pack.stdout) as [{ filename: string }];
    const tarball = join(work, filename);
    const got = integrityOf(readFileSync(tarball));
    if (got !== integrity) throw new Error(`${name}@${version} from the registry does not match package-lock.json (integrity ${got}, locked ${integrity}); not using it`);
    const tar = spawnSync("tar", ["-xzf", tarball, "-C", work], { encoding: "utf8" });
    if (tar.status !== 0) throw new Error(`unpacking ${filename} failed: ${tar.stderr.trim()}`);
    writeFileSync(join(work, "package", ".integrity"), integrity);
    rmSync(cache, { recursive: true, force: true });
    renameSync(join(work, "package"), cache);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  return found(cache);
}
