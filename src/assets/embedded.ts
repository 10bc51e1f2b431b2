// Files that ship inside the compiled binary. `with { type: "file" }` gives a real path when run
// from source and a `/$bunfs/...` path inside a `bun build --compile` binary, where the file can be
// read but not executed; executables are therefore unpacked to a per-version cache on first use.
// The tree-sitter runtime and its Bash grammar (shell parsing for permissions, src/permissions/) are
// the same on every platform; ripgrep is the build target's (./ripgrep-asset.ts).
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { userDirs } from "../platform/dirs.ts";
import { RELEASE_TARGETS, isReleaseTarget, runningPlatform } from "../platform/target.ts";
import { ripgrepAsset, type RipgrepAsset } from "./ripgrep-asset.ts";
import treeSitterRuntime from "../../node_modules/web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import bashWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm" with { type: "file" };
import { VERSION } from "../version.ts";

export const grammarFiles = {
  bash: bashWasm,
} as const;
export type GrammarName = keyof typeof grammarFiles;

export const treeSitterRuntimeFile: string = treeSitterRuntime;

export function cacheDir(): string {
  return join(process.env.KHAELOR_CACHE_DIR || join(userDirs().cache, "khaelor"), VERSION);
}

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

/**
 * Writes `bytes` as an executable named by its hash under `dir`, unless a copy with that hash is
 * there. Verified by hash on each first use in a process, and written via rename, so two first runs
 * racing each other both end with a whole file and a half-written one is never run.
 */
export function unpackBytes(bytes: Uint8Array, dir: string, name: string, hash = sha256(bytes)): string {
  const target = join(dir, `${name}-${hash.slice(0, 16)}`);
  if (existsSync(target) && sha256(readFileSync(target)) === hash) return target;
  mkdirSync(dir, { recursive: true });
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, bytes, { mode: 0o755 });
  chmodSync(tmp, 0o755);
  renameSync(tmp, target);
  return target;
}

/**
 * An executable path for a ripgrep asset. From source, npm's own copy. In a compiled binary the
 * embedded bytes are checked against the hash recorded at build time before anything is unpacked:
 * a binary for another platform, or one whose embedded ripgrep was damaged, says so and runs nothing.
 */
export function executableRipgrep(asset: RipgrepAsset, running: string, dir: string): string {
  if (asset.sha256 === null) return asset.file;
  if (asset.platform !== running) {
    const instead = isReleaseTarget(running) ? `download khaelor-${running} instead` : `KHAELOR ships binaries for ${RELEASE_TARGETS.join(", ")}; on ${running}, run it from source`;
    throw new Error(`this khaelor is built for ${asset.platform} and its embedded ripgrep (${asset.source}) cannot run on ${running}: ${instead}`);
  }
  let bytes: Uint8Array;
  try {
    bytes = readFileSync(asset.file);
  } catch (e) {
    throw new Error(`the ripgrep embedded in this khaelor (${asset.source}) cannot be read (${e instanceof Error ? e.message : String(e)}): download khaelor-${asset.platform} again and check it against khaelor-${asset.platform}.sha256`);
  }
  const got = sha256(bytes);
  if (got !== asset.sha256) {
    throw new Error(`the ripgrep embedded in this khaelor (${asset.source}) is damaged (sha256 ${got.slice(0, 16)}…, built with ${asset.sha256.slice(0, 16)}…): download khaelor-${asset.platform} again and check it against khaelor-${asset.platform}.sha256`);
  }
  return unpackBytes(bytes, dir, "rg", got);
}

let rgPath: string | null = null;
/** The ripgrep executable (embedded in the binary; unpacked on first use). */
export function ripgrepPath(): string {
  rgPath ??= executableRipgrep(ripgrepAsset(), runningPlatform(), join(cacheDir(), "bin"));
  return rgPath;
}
