// Embedded executables are unpacked once per version, verified by hash, and two first runs that
// race each other both end with a whole, runnable file. The embedded ripgrep is checked against
// the hash the build recorded before it is unpacked, and is refused on the wrong platform.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { executableRipgrep, unpackBytes } from "../../src/assets/embedded.ts";

const script = (tag: string) => new TextEncoder().encode(`#!/bin/sh\necho ${tag}${" ".repeat(200_000)}\n`);

test("racing first runs in separate processes all get the same complete executable", async () => {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-unpack-"));
  const src = join(dir, "payload");
  writeFileSync(src, script("ran"));
  const code = `const { unpackBytes } = await import(${JSON.stringify(join(import.meta.dir, "../../src/assets/embedded.ts"))});
    const { readFileSync } = await import("node:fs");
    process.stdout.write(unpackBytes(readFileSync(${JSON.stringify(src)}), ${JSON.stringify(join(dir, "bin"))}, "tool"));`;
  const procs = Array.from({ length: 6 }, () => Bun.spawn([process.execPath, "-e", code], { stdout: "pipe" }));
  const paths = await Promise.all(procs.map((p) => new Response(p.stdout).text()));
  expect(new Set(paths).size).toBe(1);
  const target = paths[0]!;
  expect(readFileSync(target).equals(readFileSync(src))).toBe(true);
  expect(statSync(target).mode & 0o111).not.toBe(0);
  expect(readdirSync(join(dir, "bin"))).toEqual([target.split("/").at(-1)!]);
  expect((await new Response(Bun.spawn([target], { stdout: "pipe" }).stdout).text()).trim()).toBe("ran");
});

test("a corrupted cached copy is replaced, not trusted", () => {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-unpack-"));
  const bytes = script("good");
  const path = unpackBytes(bytes, dir, "tool");
  writeFileSync(path, "truncated");
  expect(unpackBytes(bytes, dir, "tool")).toBe(path);
  expect(readFileSync(path).equals(Buffer.from(bytes))).toBe(true);
});

describe("the embedded ripgrep", () => {
  const rg = (tag: string) => {
    const dir = mkdtempSync(join(tmpdir(), "khaelor-asset-"));
    const file = join(dir, "rg");
    writeFileSync(file, script(tag));
    return { dir, file, bytes: readFileSync(file) };
  };
  const hash = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

  test("from source it is npm's own copy, used in place", () => {
    const { dir, file } = rg("source");
    expect(executableRipgrep({ file, platform: "linux-x64", source: "@vscode/ripgrep-linux-x64", sha256: null }, "linux-x64", join(dir, "cache"))).toBe(file);
    expect(existsSync(join(dir, "cache"))).toBe(false);
  });

  test("in a binary it is unpacked once its hash matches the build's, and runs", async () => {
    const { dir, file, bytes } = rg("embedded");
    const path = executableRipgrep({ file, platform: "darwin-arm64", source: "@vscode/ripgrep-darwin-arm64@1.18.0", sha256: hash(bytes) }, "darwin-arm64", join(dir, "cache"));
    expect(path.startsWith(join(dir, "cache", "rg-"))).toBe(true);
    expect((await new Response(Bun.spawn([path], { stdout: "pipe" }).stdout).text()).trim()).toBe("embedded");
  });

  test("damaged, it is named with what to do, and nothing is unpacked", () => {
    const { dir, file, bytes } = rg("embedded");
    const built = hash(bytes);
    writeFileSync(file, script("tampered"));
    expect(() => executableRipgrep({ file, platform: "linux-arm64", source: "@vscode/ripgrep-linux-arm64@1.18.0", sha256: built }, "linux-arm64", join(dir, "cache"))).toThrow(
      /^the ripgrep embedded in this khaelor \(@vscode\/ripgrep-linux-arm64@1\.18\.0\) is damaged \(sha256 [0-9a-f]{16}…, built with [0-9a-f]{16}…\): download khaelor-linux-arm64 again and check it against khaelor-linux-arm64\.sha256$/,
    );
    expect(existsSync(join(dir, "cache"))).toBe(false);
  });

  test("on another platform it says which binary to download instead, and nothing is unpacked", () => {
    const { dir, file, bytes } = rg("embedded");
    const asset = { file, platform: "darwin-arm64", source: "@vscode/ripgrep-darwin-arm64@1.18.0", sha256: hash(bytes) };
    expect(() => executableRipgrep(asset, "linux-x64", join(dir, "cache"))).toThrow(
      "this khaelor is built for darwin-arm64 and its embedded ripgrep (@vscode/ripgrep-darwin-arm64@1.18.0) cannot run on linux-x64: download khaelor-linux-x64 instead",
    );
    expect(() => executableRipgrep(asset, "freebsd-x64", join(dir, "cache"))).toThrow("KHAELOR ships binaries for linux-x64, linux-arm64, darwin-x64, darwin-arm64; on freebsd-x64, run it from source");
    expect(existsSync(join(dir, "cache"))).toBe(false);
  });
});
