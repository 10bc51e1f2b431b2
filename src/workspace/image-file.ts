// An image file the user names (a pasted or dropped path), opened as every file we open (regular
// file, never past a cap): its first bytes say whether it is an image at all, before a large file
// is read whole. The checks against the API's limits are ../model/images.ts.
import { basename } from "node:path";
import { checkImage, IMAGE_LIMITS, sniffImage, tooBig, type ImageLoad } from "../model/images.ts";
import { FileReadError, readRegularFile } from "./safe-read.ts";

/** The file as an image the API takes, or why not (not an image, not there, too large). */
export function loadImageFile(path: string): ImageLoad {
  const name = basename(path);
  let head;
  try {
    head = readRegularFile(path, { maxBytes: 16, truncate: true });
  } catch (e) {
    return { ok: false, notImage: true, reason: e instanceof FileReadError ? e.message : String(e) };
  }
  if (!sniffImage(head.bytes)) return { ok: false, notImage: true, reason: `${name} is not a PNG, JPEG, GIF or WebP image` };
  if (head.stat.size > IMAGE_LIMITS.maxBytes) return { ok: false, notImage: false, reason: tooBig(name, head.stat.size) };
  try {
    return checkImage(name, readRegularFile(path, { maxBytes: IMAGE_LIMITS.maxBytes }).bytes);
  } catch (e) {
    if (e instanceof FileReadError && e.code === "EFBIG") return { ok: false, notImage: false, reason: tooBig(name, IMAGE_LIMITS.maxBytes + 1) };
    return { ok: false, notImage: false, reason: e instanceof Error ? e.message : String(e) };
  }
}

