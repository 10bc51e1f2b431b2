// The release build's targets: all four by default, a subset with --target, and an unknown one
// (or a stray argument, or a --version that is not one) refused before anything is built, naming the known ones.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { RELEASE_TARGETS, parseTarget } from "../../src/platform/target.ts";

const release = join(import.meta.dir, "../../scripts/release.ts");
async function run(args: string[]) {
  const p = Bun.spawn([process.execPath, release, ...args], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { stdout, stderr, code };
}

test("the four targets, named as the running platform names itself", () => {
  expect(RELEASE_TARGETS).toEqual(["linux-x64", "linux-arm64", "darwin-x64", "darwin-arm64"]);
  expect(parseTarget("darwin-arm64")).toBe("darwin-arm64");
  expect(() => parseTarget("macos-arm64")).toThrow('unknown target "macos-arm64": the known targets are linux-x64, linux-arm64, darwin-x64, darwin-arm64');
});

test("an unknown --target, or a stray argument, is refused before anything is built", async () => {
  for (const args of [["--target=windows-x64"], ["--target", "linux-x64,bun-darwin-arm64"], ["--target"]]) {
    const r = await run(args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("linux-x64, linux-arm64, darwin-x64, darwin-arm64");
    expect(r.stdout).toBe("");
  }
  const stray = await run(["--outdir", "x"]);
  expect(stray.code).toBe(1);
  expect(stray.stderr).toBe('release: unknown argument "--outdir": usage: bun run release [--target linux-x64,linux-arm64,darwin-x64,darwin-arm64] [--out DIR] [--version X.Y.Z] [--no-npm]\n');
  const version = await run(["--version", "next"]);
  expect(version.code).toBe(1);
  expect(version.stderr).toBe('release: --version must be a version such as 1.2.3, got "next"\n');
});
