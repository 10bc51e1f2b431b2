// A gzipped ustar archive from files in memory: what `npm pack` writes (entries under `package/`,
// a fixed date so the same files make the same tarball), without running npm: `npm pack` took 15 s
// for one platform package here, this takes 6 s (gzip level 6: 59 MB for the 120 MB binary; level 1
// took 1.4 s but made 72 MB, which every npm install would download).
import { gzip } from "node:zlib";
import { promisify } from "node:util";

export type TarEntry = { path: string; bytes: Uint8Array; mode: number };

const BLOCK = 512;
// npm's own fixed date for every entry (1985-10-26T08:15:00Z), so tarballs are reproducible.
const MTIME = 499162500;

function header(e: TarEntry): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(e.path) > 100) throw new Error(`tar: path too long for ustar: ${e.path}`);
  const octal = (n: number, width: number) => n.toString(8).padStart(width - 1, "0") + "\0";
  h.write(e.path, 0, 100, "utf8");
  h.write(octal(e.mode, 8), 100, "ascii");
  h.write(octal(0, 8), 108, "ascii"); // uid
  h.write(octal(0, 8), 116, "ascii"); // gid
  h.write(octal(e.bytes.byteLength, 12), 124, "ascii");
  h.write(octal(MTIME, 12), 136, "ascii");
  h.write("        ", 148, "ascii"); // the checksum field counts as spaces while summing
  h.write("0", 156, "ascii"); // a regular file
  h.write("ustar\0" + "00", 257, "ascii");
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + " ", 148, "ascii");
  return h;
}

export function tarBytes(entries: TarEntry[]): Buffer {
  const parts: Buffer[] = [];
  for (const e of entries) {
    parts.push(header(e), Buffer.from(e.bytes.buffer, e.bytes.byteOffset, e.bytes.byteLength));
    const pad = (BLOCK - (e.bytes.byteLength % BLOCK)) % BLOCK;
    if (pad) parts.push(Buffer.alloc(pad));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return Buffer.concat(parts);
}

export async function tgz(entries: TarEntry[], level = 6): Promise<Buffer> {
  return promisify(gzip)(tarBytes(entries), { level });
}
