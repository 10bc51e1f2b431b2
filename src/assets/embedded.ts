// Files that ship inside the compiled binary. `with { type: "file" }` gives a real path when run
// from source and a `/$bunfs/...` path inside a `bun build --compile` binary, where the file can be
// read but not executed; executables are therefore unpacked to a per-version cache on first use.
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
// The compiled binary targets linux-x64; the ripgrep package for it is an optional dependency of
// @vscode/ripgrep that npm installs on that platform.
import rgEmbedded from "../../node_modules/@vscode/ripgrep-linux-x64/bin/rg" with { type: "file" };
import treeSitterRuntime from "../../node_modules/web-tree-sitter/web-tree-sitter.wasm" with { type: "file" };
import bashWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-bash.wasm" with { type: "file" };
import cSharpWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-c-sharp.wasm" with { type: "file" };
import cppWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-cpp.wasm" with { type: "file" };
import cssWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-css.wasm" with { type: "file" };
import goWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-go.wasm" with { type: "file" };
import javaWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-java.wasm" with { type: "file" };
import javascriptWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-javascript.wasm" with { type: "file" };
import phpWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-php.wasm" with { type: "file" };
import pythonWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-python.wasm" with { type: "file" };
import rubyWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-ruby.wasm" with { type: "file" };
import rustWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-rust.wasm" with { type: "file" };
import tsxWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-tsx.wasm" with { type: "file" };
import typescriptWasm from "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm" with { type: "file" };
import { VERSION } from "../version.ts";

export const grammarFiles = {
  bash: bashWasm,
  c_sharp: cSharpWasm,
  cpp: cppWasm,
  css: cssWasm,
  go: goWasm,
  java: javaWasm,
  javascript: javascriptWasm,
  php: phpWasm,
  python: pythonWasm,
  ruby: rubyWasm,
  rust: rustWasm,
  tsx: tsxWasm,
  typescript: typescriptWasm,
} as const;
export type GrammarName = keyof typeof grammarFiles;

export const treeSitterRuntimeFile: string = treeSitterRuntime;

export function cacheDir(): string {
  const base = process.env.XDG_CACHE_HOME || join(homedir(), ".cache");
  return join(process.env.KHAELOR_CACHE_DIR || join(base, "khaelor"), VERSION);
}

const isBundled = (p: string) => p.startsWith("/$bunfs/") || p.includes("~BUN");

/**
 * A path to an executable copy of an embedded file. From source that is the file itself. In the
 * compiled binary it is unpacked once into the cache, verified by hash on each first use in a
 * process, and written via rename so two first runs racing each other both end with a whole file.
 */
export function unpackExecutable(embedded: string, name: string): string {
  if (!isBundled(embedded)) return embedded;
  return unpackBytes(readFileSync(embedded), join(cacheDir(), "bin"), name);
}

/** Writes `bytes` as an executable named by its hash under `dir`, unless a verified copy is there. */
export function unpackBytes(bytes: Uint8Array, dir: string, name: string): string {
  const hash = createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  const target = join(dir, `${name}-${hash}`);
  if (existsSync(target)) {
    const onDisk = readFileSync(target);
    if (createHash("sha256").update(onDisk).digest("hex").slice(0, 16) === hash) return target;
  }
  mkdirSync(dir, { recursive: true });
  const tmp = `${target}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, bytes, { mode: 0o755 });
  chmodSync(tmp, 0o755);
  renameSync(tmp, target);
  return target;
}

let rgPath: string | null = null;
/** The ripgrep executable (embedded in the binary; unpacked on first use). */
export function ripgrepPath(): string {
  rgPath ??= unpackExecutable(rgEmbedded, "rg");
  return rgPath;
}
