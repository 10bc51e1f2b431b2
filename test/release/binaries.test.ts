// The release binaries (bun run release), checked where they cannot all run: each is an executable
// of its own platform and CPU, carries that platform's ripgrep byte for byte and the tree-sitter Bash
// grammar (and no other: code is highlighted without tree-sitter), and matches its .sha256 and its
// entry in manifest.json, and its npm package (dist/npm) carries it byte for byte. On a linux-x64 machine, the linux-x64 one with its embedded ripgrep
// damaged refuses to unpack it and says what to do. Runs when KHAELOR_RELEASE_DIR names
// dist/release (CI); the arm64 binary's session under qemu is scripts/arm64-smoke.sh.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executableFormat } from "../../scripts/executable-format.ts";
import { checkCodeSignature } from "../../scripts/macho-signature.ts";
import { ripgrepPackage } from "../../scripts/ripgrep-package.ts";
import { grammarFiles, treeSitterRuntimeFile } from "../../src/assets/embedded.ts";
import { RELEASE_TARGETS, runningPlatform } from "../../src/platform/target.ts";
import { VERSION } from "../../src/version.ts";
import { gunzipSync } from "node:zlib";
import { fakeApiFixture } from "../support/fake-api.ts";
import { isolatedEnv, parseNdjson } from "../support/cli.ts";

const dir = process.env.KHAELOR_RELEASE_DIR;
const serve = fakeApiFixture();
const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");
/** Whether `inner` appears whole in `outer`: found by its first 4 KiB, then compared in full. */
function carries(outer: Buffer, inner: Buffer): boolean {
  const head = inner.subarray(0, 4096);
  for (let at = outer.indexOf(head); at !== -1; at = outer.indexOf(head, at + 1)) {
    if (outer.subarray(at, at + inner.length).equals(inner)) return true;
  }
  return false;
}

describe.skipIf(!dir)("release binaries", () => {
  for (const target of RELEASE_TARGETS) {
    test(`khaelor-${target}: a ${target} executable carrying ${target}'s ripgrep and the Bash grammar, matching its .sha256`, () => {
      const file = join(dir!, `khaelor-${target}`);
      const bin = readFileSync(file);
      const [os = "", arch = ""] = target.split("-");
      expect(executableFormat(bin)).toEqual({ os, arch });
      expect(readFileSync(`${file}.sha256`, "utf8")).toBe(`${sha256(bin)}  khaelor-${target}\n`);

      const rg = readFileSync(ripgrepPackage(target).rg);
      expect(executableFormat(rg)).toEqual({ os, arch });
      expect(carries(bin, rg)).toBe(true);
      for (const other of RELEASE_TARGETS.filter((t) => t !== target)) expect(carries(bin, readFileSync(ripgrepPackage(other).rg))).toBe(false);
      const missing = [treeSitterRuntimeFile, ...Object.values(grammarFiles)].filter((wasm) => !carries(bin, readFileSync(wasm)));
      expect(missing).toEqual([]);
      expect(carries(bin, readFileSync(join(import.meta.dir, "../../node_modules/@vscode/tree-sitter-wasm/wasm/tree-sitter-typescript.wasm")))).toBe(false);

      // macOS runs arm64 code only when signed, every page as signed; x64 runs unsigned code but
      // kills code whose signature does not match it. The same holds for the ripgrep it unpacks.
      if (target === "darwin-arm64") {
        expect(checkCodeSignature(bin)).toMatchObject({ adhoc: true });
        expect(checkCodeSignature(rg)).toMatchObject({ adhoc: true });
      }
      if (target === "darwin-x64") {
        expect(checkCodeSignature(bin)).toEqual({ problem: "unsigned (no LC_CODE_SIGNATURE)" });
        expect(checkCodeSignature(rg)).toEqual({ problem: "unsigned (no LC_CODE_SIGNATURE)" });
      }
    });
  }

  test("manifest.json names each binary with its size and sha256; the npm tarballs hold them, each for its os and cpu", () => {
    const manifest = JSON.parse(readFileSync(join(dir!, "manifest.json"), "utf8"));
    expect(manifest.name).toBe("khaelor");
    expect(manifest.version).toBe(VERSION);
    for (const target of RELEASE_TARGETS) {
      const bin = readFileSync(join(dir!, `khaelor-${target}`));
      expect(manifest.files[target]).toEqual({ file: `khaelor-${target}`, size: bin.length, sha256: sha256(bin) });
      const tar = gunzipSync(readFileSync(join(dir!, "..", "npm", `khaelor-${target}-${VERSION}.tgz`)));
      const size = parseInt(tar.subarray(124, 136).toString("ascii"), 8);
      const pkg = JSON.parse(tar.subarray(512, 512 + size).toString("utf8"));
      expect(pkg).toMatchObject({ name: `khaelor-${target}`, version: VERSION, os: [target.split("-")[0]], cpu: [target.split("-")[1]] });
      expect(carries(tar, bin)).toBe(true);
    }
    expect(readFileSync(join(dir!, "install.sh"), "utf8")).toStartWith("#!/bin/sh\n");
  }, 60_000);

  test.skipIf(runningPlatform() !== "linux-x64")("a damaged embedded ripgrep is named, with what to do, and never unpacked or run", async () => {
    const work = mkdtempSync(join(tmpdir(), "khaelor-damaged-"));
    const bin = readFileSync(join(dir!, "khaelor-linux-x64"));
    const at = bin.indexOf(readFileSync(ripgrepPackage("linux-x64").rg));
    bin[at + 100_000] = bin[at + 100_000]! ^ 0xff;
    const damaged = join(work, "khaelor");
    writeFileSync(damaged, bin, { mode: 0o755 });
    const project = join(work, "project");
    mkdirSync(project);
    writeFileSync(join(project, "notes.txt"), "needle\n");
    const api = await serve({
      turns: [
        { content: [{ type: "tool_use", name: "grep", input: { pattern: "needle" } }] },
        { content: [{ type: "text", text: "done" }], expect: { lastHasToolResult: { isError: true } } },
      ],
    });
    const env = isolatedEnv(api.url);
    const proc = Bun.spawn([damaged, "-p", "find it", "--output-format", "stream-json", "--permission-mode", "bypassPermissions"], { cwd: project, env, stdout: "pipe", stderr: "pipe" });
    const out = await new Response(proc.stdout).text();
    await proc.exited;
    expect(api.checkFailures).toEqual([]);
    const results = parseNdjson(out).flatMap((l) => (l.type === "user" ? ((l.message as { content: { type: string; content?: string }[] }).content ?? []) : []));
    const text = results.map((r) => r.content ?? "").join("\n");
    expect(text).toContain("the ripgrep embedded in this khaelor (@vscode/ripgrep-linux-x64@1.18.0) is damaged");
    expect(text).toContain("download khaelor-linux-x64 again and check it against khaelor-linux-x64.sha256");
    const cache = join(env.XDG_CACHE_HOME!, "khaelor");
    const unpacked = existsSync(cache) ? readdirSync(cache, { recursive: true }).map(String).filter((p) => p.includes("rg")) : [];
    expect(unpacked).toEqual([]);
  }, 60_000);
});
