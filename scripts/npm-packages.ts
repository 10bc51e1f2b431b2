// The npm packages of a release, as tarballs ready for `npm publish <file>` (publishing is a
// person's step): `khaelor`, a launcher whose optional dependencies are one package per platform,
// and `khaelor-<platform>` for each binary built, holding it, with `os` and `cpu` so npm installs
// only the one for the machine (as @openai/codex and @anthropic-ai/claude-code do).
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RELEASE_TARGETS, type ReleaseTarget } from "../src/platform/target.ts";
import { tgz, type TarEntry } from "./tar.ts";

const LAUNCHER = join(import.meta.dir, "npm", "launcher.sh");
const json = (o: unknown) => Buffer.from(JSON.stringify(o, null, 2) + "\n");
const text = (s: string) => Buffer.from(s);

export const platformPackage = (target: ReleaseTarget) => `khaelor-${target}`;

function launcherEntries(version: string): TarEntry[] {
  const manifest = {
    name: "khaelor",
    version,
    description: "A terminal-native coding agent",
    bin: { khaelor: "bin/khaelor" },
    os: ["linux", "darwin"],
    optionalDependencies: Object.fromEntries(RELEASE_TARGETS.map((t) => [platformPackage(t), version])),
  };
  const readme = `# khaelor\n\nA terminal-native coding agent. \`npm install -g khaelor\` installs the binary for your machine\n(one of ${RELEASE_TARGETS.map(platformPackage).join(", ")}) and the \`khaelor\` command; \`npx khaelor\` runs it without installing.\nUpdate with \`npm install -g khaelor@latest\`.\n`;
  return [
    { path: "package/package.json", bytes: json(manifest), mode: 0o644 },
    { path: "package/README.md", bytes: text(readme), mode: 0o644 },
    { path: "package/bin/khaelor", bytes: readFileSync(LAUNCHER), mode: 0o755 },
  ];
}

function platformEntries(target: ReleaseTarget, version: string, binary: string): TarEntry[] {
  const [os, cpu] = target.split("-");
  const manifest = { name: platformPackage(target), version, description: `The khaelor binary for ${target} (installed by the khaelor package)`, os: [os], cpu: [cpu], preferUnplugged: true };
  return [
    { path: "package/package.json", bytes: json(manifest), mode: 0o644 },
    { path: "package/README.md", bytes: text(`# ${platformPackage(target)}\n\nThe khaelor binary for ${target}. Install \`khaelor\` instead: it picks this package on ${target}.\n`), mode: 0o644 },
    { path: "package/bin/khaelor", bytes: readFileSync(binary), mode: 0o755 },
  ];
}

/** Writes the tarballs into `outDir`: the launcher's, then one per built binary. Returns their paths. */
export async function writeNpmPackages(outDir: string, version: string, binaries: { target: ReleaseTarget; file: string }[]): Promise<string[]> {
  const jobs = [
    { file: join(outDir, `khaelor-${version}.tgz`), entries: launcherEntries(version) },
    ...binaries.map((b) => ({ file: join(outDir, `${platformPackage(b.target)}-${version}.tgz`), entries: platformEntries(b.target, version, b.file) })),
  ];
  // zlib works off the main thread: two at a time use the two cores CI has, and hold two binaries in memory, not four.
  const queue = [...jobs];
  const worker = async () => {
    for (let j = queue.shift(); j; j = queue.shift()) writeFileSync(j.file, await tgz(j.entries));
  };
  await Promise.all([worker(), worker()]);
  return jobs.map((j) => j.file);
}
