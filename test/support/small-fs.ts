// A real file system that fills up: a small tmpfs (needs root, as in CI). `fill()` takes every free
// byte with a filler file, `free()` gives it back; writes in between get ENOSPC from the kernel.
import { afterAll } from "bun:test";
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type SmallFs = { dir: string; fill(): void; free(): void };

/** One tmpfs per test file, unmounted when the file's tests end; null where mounting is not allowed. */
export function smallFs(size = "512k"): SmallFs | null {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-tmpfs-"));
  if (Bun.spawnSync(["mount", "-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir]).exitCode !== 0) return null;
  afterAll(() => {
    Bun.spawnSync(["umount", "-l", dir]);
  });
  let n = 0;
  const fillers: string[] = [];
  return {
    dir,
    fill() {
      const path = join(dir, `.filler-${n++}`);
      fillers.push(path);
      const fd = openSync(path, "w");
      const block = Buffer.alloc(4096);
      try {
        for (;;) writeSync(fd, block);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "ENOSPC") throw e;
      } finally {
        closeSync(fd);
      }
      // tmpfs pages: the last partial page can still take a few bytes; take them too.
      const tail = openSync(path, "a");
      try {
        for (;;) writeSync(tail, Buffer.alloc(1));
      } catch {
      } finally {
        closeSync(tail);
      }
    },
    free() {
      for (const f of fillers.splice(0)) rmSync(f, { force: true });
    },
  };
}
