// The images of a session (pasted into the composer, read by a tool) are kept as files in the
// session's folder, <id>.images/ beside <id>.jsonl, and the log's lines reference them by the hash
// of their bytes. Inline, a 3.75 MB screenshot would be a 5 MB JSON line: every resume, fork and
// listing would read it, the same image sent twice would be stored twice, and the redactor, which
// runs over every line for secrets, would scan megabytes of base64 and could match a key's shape
// inside it by chance, corrupting the picture. A file is 0600 like the log, named for its content
// (no two copies, nothing to guess from a name), written and synced before the line that names it,
// and removed with its session (src/session/spill-retention.ts).
import { closeSync, existsSync, fsyncSync, openSync, renameSync, writeSync } from "node:fs";
import { createHash } from "node:crypto";
import { join } from "node:path";
import type { ImageRefReader, ImageRefWriter } from "../events/schema.ts";
import type { StoredImageRef } from "../events/image-refs.ts";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../platform/private-files.ts";
import { FileReadError, readRegularFile } from "../workspace/safe-read.ts";

export const imagesDirOf = (logPath: string): string => logPath.replace(/\.jsonl$/, "") + ".images";

const EXT: Record<string, string> = { "image/png": "png", "image/jpeg": "jpg", "image/gif": "gif", "image/webp": "webp" };
const FILE_NAME = /^[0-9a-f]{32}\.(?:png|jpg|gif|webp)$/;
/** Far above what the API takes (a tool may have read a 5 MB image), never unbounded. */
const MAX_STORED_BYTES = 16 * 1024 * 1024;

/** Stores each image once, synced before the reference is returned (so no line names a file that is not there). */
export function imageStoreWriter(dir: string): ImageRefWriter {
  const stored = new Set<string>();
  return (image) => {
    const bytes = Buffer.from(image.data, "base64");
    const ext = EXT[image.media_type] ?? "bin";
    const file = `${createHash("sha256").update(bytes).digest("hex").slice(0, 32)}.${ext}`;
    const path = join(dir, file);
    if (!stored.has(file) && !existsSync(path)) {
      ensurePrivateDir(dir);
      const tmp = `${path}.${process.pid}.tmp`;
      const fd = openSync(tmp, "w", PRIVATE_FILE_MODE);
      try {
        let n = 0;
        while (n < bytes.length) n += writeSync(fd, bytes, n, bytes.length - n);
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      renameSync(tmp, path);
      const dfd = openSync(dir, "r");
      try {
        fsyncSync(dfd);
      } catch {
        // Some file systems cannot sync a directory; the file itself is synced.
      } finally {
        closeSync(dfd);
      }
    }
    stored.add(file);
    return { type: "image", source: { type: "file", media_type: image.media_type, file, bytes: bytes.length } };
  };
}

/**
 * A reference back to its image. A log is a trust boundary: the name must be one we write (no
 * path leaves the folder), and the bytes must still hash to it. An image that is gone or changed
 * becomes a text block that says so, so the conversation still reads and the request stays valid.
 */
export function imageStoreReader(dir: string): ImageRefReader {
  return (ref: StoredImageRef) => {
    const { file, media_type } = ref.source;
    const gone = (why: string) => ({ type: "text" as const, text: `[an image that is no longer available: ${why}]` });
    if (typeof file !== "string" || !FILE_NAME.test(file) || EXT[media_type] !== file.slice(file.indexOf(".") + 1)) return gone("the session log names it wrongly");
    let bytes: Buffer;
    try {
      bytes = readRegularFile(join(dir, file), { maxBytes: MAX_STORED_BYTES }).bytes;
    } catch (e) {
      return gone(e instanceof FileReadError && e.code === "ENOENT" ? `its copy ${file} was removed from ${dir}` : e instanceof Error ? e.message : String(e));
    }
    if (createHash("sha256").update(bytes).digest("hex").slice(0, 32) !== file.slice(0, 32)) return gone(`its copy ${file} in ${dir} was changed`);
    return { type: "image", source: { type: "base64", media_type, data: bytes.toString("base64") } };
  };
}
