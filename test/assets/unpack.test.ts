// Embedded executables are unpacked once per version, verified by hash, and two first runs that
// race each other both end with a whole, runnable file.
import { expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unpackBytes } from "../../src/assets/embedded.ts";

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
