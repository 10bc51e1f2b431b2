// Writes that never leave a half-written file behind: a crash or a full disk leaves either the old
// file or the new one. The temporary file sits in the same directory so rename() stays atomic (it
// cannot cross file systems), and the existing mode is carried over so an executable stays one.
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export function writeFileAtomic(path: string, data: Uint8Array, opts: { mode?: number } = {}): void {
  const dir = dirname(path);
  mkdirSync(dir, { recursive: true });
  let mode = opts.mode;
  if (mode === undefined) {
    try {
      mode = statSync(path).mode & 0o7777;
    } catch {
      mode = 0o644;
    }
  }
  const tmp = join(dir, `.${basename(path)}.khaelor-${process.pid}-${Date.now().toString(36)}.tmp`);
  const fd = openSync(tmp, "w", mode);
  try {
    // open() applies the umask; the file must end with exactly the old mode.
    fchmodSync(fd, mode);
    let off = 0;
    while (off < data.length) off += writeSync(fd, data, off, data.length - off);
    fsyncSync(fd);
    closeSync(fd);
  } catch (e) {
    try {
      closeSync(fd);
    } catch {}
    try {
      unlinkSync(tmp);
    } catch {}
    throw e;
  }
  try {
    renameSync(tmp, path);
  } catch (e) {
    try {
      unlinkSync(tmp);
    } catch {}
    throw e;
  }
  // The rename is durable only once the directory entry is; best effort (not every FS allows it).
  try {
    const dfd = openSync(dir, "r");
    try {
      fsyncSync(dfd);
    } finally {
      closeSync(dfd);
    }
  } catch {}
}
