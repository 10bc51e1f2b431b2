// An npm registry on loopback serving the tarballs `bun run release` wrote, so `npm install` and
// `npx` resolve the launcher's optional dependencies as they would from registry.npmjs.org (by
// each package's os and cpu) without the network. Packages not built here (other platforms) get
// their metadata but no tarball: npm must skip them by platform without downloading one.
import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { RELEASE_TARGETS } from "../../src/platform/target.ts";

type Pkg = { name: string; version: string; [k: string]: unknown };

/** package/package.json, the first entry of an npm tarball. */
function packageJson(tgz: Buffer): Pkg {
  const tar = gunzipSync(tgz);
  const size = parseInt(tar.subarray(124, 136).toString("ascii").replace(/\0.*$/s, ""), 8);
  return JSON.parse(tar.subarray(512, 512 + size).toString("utf8")) as Pkg;
}

export async function startNpmRegistry(npmDir: string): Promise<{ url: string; requests: string[]; close(): void }> {
  const tarballs = new Map<string, Buffer>();
  const docs = new Map<string, Record<string, unknown>>();
  const requests: string[] = [];
  let version = "";
  for (const f of readdirSync(npmDir).filter((f) => f.endsWith(".tgz"))) {
    const bytes = readFileSync(join(npmDir, f));
    const pkg = packageJson(bytes);
    version = pkg.version;
    tarballs.set(`/${pkg.name}/-/${f}`, bytes);
    const dist = { tarball: `/${pkg.name}/-/${f}`, shasum: createHash("sha1").update(bytes).digest("hex"), integrity: `sha512-${createHash("sha512").update(bytes).digest("base64")}` };
    docs.set(pkg.name, { ...pkg, _id: `${pkg.name}@${pkg.version}`, dist });
  }
  for (const t of RELEASE_TARGETS) {
    const [os, cpu] = t.split("-");
    const name = `khaelor-${t}`;
    if (!docs.has(name)) docs.set(name, { name, version, os: [os], cpu: [cpu], _id: `${name}@${version}`, dist: { tarball: `/${name}/-/${name}-${version}.tgz`, shasum: "0".repeat(40) } });
  }
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch(req): Response {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      const tgz = tarballs.get(path);
      if (tgz) return new Response(tgz);
      const doc = docs.get(path.slice(1));
      if (!doc) return new Response(JSON.stringify({ error: "not found" }), { status: 404 });
      const base: string = `http://127.0.0.1:${server.port}`;
      const v: Record<string, unknown> = { ...doc, dist: { ...(doc.dist as object), tarball: base + (doc.dist as { tarball: string }).tarball } };
      return Response.json({ name: doc.name, "dist-tags": { latest: doc.version }, versions: { [doc.version as string]: v } });
    },
  });
  return { url: `http://127.0.0.1:${server.port}/`, requests, close: () => void server.stop(true) };
}
