// An image as the model can take it (pasted into the composer, on the clipboard, sent by an
// editor over ACP). What it is comes from its first bytes, never its name (a .png that is really
// HTML is no image); its size and its dimensions are checked against the Messages API's limits
// here, before anything is sent, since an image the API refuses would stay in the conversation
// and fail every later request. There is no image library in the binary, so nothing is scaled: a
// too-large image is refused with what to do instead. Pure: reading a file is ../workspace/image-file.ts.
import type { ImageBlock, ImageMediaType } from "./types.ts";

/** Sizes as the messages say them: "812 bytes", "24 KB", "3.8 MB". */
export function imageBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / 1024 ** 2).toFixed(n < 10 * 1024 ** 2 ? 1 : 0)} MB`;
}

/**
 * The API's limits for one image. Its 5 MB cap is on the base64 text (Claude Code's limits say so,
 * and the API's error counts that length), so the file itself may be at most 3.75 MB; an image
 * wider or taller than 8000 px is refused, and in a request with more than 20 images, one over
 * 2000 px.
 */
export const IMAGE_LIMITS = {
  maxBase64Chars: 5 * 1024 * 1024,
  maxBytes: (5 * 1024 * 1024 * 3) / 4,
  maxSide: 8000,
  manyImages: 20,
  maxSideWhenMany: 2000,
} as const;

export type ImageData = {
  /** The file's name as the chip shows it (the clipboard's is made up). */
  name: string;
  mediaType: ImageMediaType;
  bytes: Buffer;
  width: number | null;
  height: number | null;
};

export type ImageLoad =
  | { ok: true; image: ImageData }
  /** Not an image, or not there: the caller keeps what was pasted as text. */
  | { ok: false; notImage: true; reason: string }
  /** An image, but one the API would refuse: the caller says why. */
  | { ok: false; notImage: false; reason: string };

/** The media type the bytes declare (their magic numbers), or null for anything else. */
export function sniffImage(b: Uint8Array): ImageMediaType | null {
  const at = (i: number, ...xs: number[]) => xs.every((x, k) => b[i + k] === x);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (b[4] === 0x37 || b[4] === 0x39) && b[5] === 0x61) return "image/gif";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return null;
}

/** Width and height from the image's header, or null when the header is not where the format puts it. */
export function imageSize(b: Buffer, type: ImageMediaType): { width: number; height: number } | null {
  try {
    switch (type) {
      case "image/png":
        return b.toString("latin1", 12, 16) === "IHDR" ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) } : null;
      case "image/gif":
        return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
      case "image/webp":
        return webpSize(b);
      case "image/jpeg":
        return jpegSize(b);
    }
  } catch {
    return null; // a header cut short
  }
}

function webpSize(b: Buffer): { width: number; height: number } | null {
  const chunk = b.toString("latin1", 12, 16);
  if (chunk === "VP8X") return { width: 1 + b.readUIntLE(24, 3), height: 1 + b.readUIntLE(27, 3) };
  if (chunk === "VP8L" && b[20] === 0x2f) {
    const bits = b.readUInt32LE(21);
    return { width: 1 + (bits & 0x3fff), height: 1 + ((bits >>> 14) & 0x3fff) };
  }
  if (chunk === "VP8 " && b[23] === 0x9d && b[24] === 0x01 && b[25] === 0x2a) return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
  return null;
}

/** The first start-of-frame marker's dimensions, walking the segments (EXIF and the like come first). */
function jpegSize(b: Buffer): { width: number; height: number } | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1]!;
    if (marker === 0xff) {
      i++;
      continue;
    }
    // Markers without a length: restart markers, SOI, TEM.
    if ((marker >= 0xd0 && marker <= 0xd8) || marker === 0x01) {
      i += 2;
      continue;
    }
    const len = b.readUInt16BE(i + 2);
    const sof = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (sof) return { width: b.readUInt16BE(i + 7), height: b.readUInt16BE(i + 5) };
    i += 2 + len;
  }
  return null;
}

/** The bytes as an image the API takes, or why not (`name` is what the user knows it by). */
export function checkImage(name: string, bytes: Buffer): ImageLoad {
  const mediaType = sniffImage(bytes);
  if (!mediaType) return { ok: false, notImage: true, reason: `${name} is not a PNG, JPEG, GIF or WebP image` };
  if (bytes.length > IMAGE_LIMITS.maxBytes) return { ok: false, notImage: false, reason: tooBig(name, bytes.length) };
  const size = imageSize(bytes, mediaType);
  if (size && (size.width > IMAGE_LIMITS.maxSide || size.height > IMAGE_LIMITS.maxSide))
    return { ok: false, notImage: false, reason: `${name} is ${size.width}×${size.height} pixels; the API takes images up to ${IMAGE_LIMITS.maxSide}×${IMAGE_LIMITS.maxSide}. KHAELOR cannot scale images (there is no image library in it): scale it down first and paste that.` };
  return { ok: true, image: { name, mediaType, bytes, width: size?.width ?? null, height: size?.height ?? null } };
}

export const tooBig = (name: string, n: number) =>
  `${name} is ${imageBytes(n)}; the API takes images up to ${imageBytes(IMAGE_LIMITS.maxBytes)} (5 MB once encoded). KHAELOR cannot scale or recompress images (there is no image library in it): make it smaller first (a lower resolution, or JPEG) and paste that.`;

/** A request holding more than 20 images takes none over 2000 px: the reason, or null. */
export function manyImagesProblem(images: readonly ImageData[], alreadyInConversation = 0): string | null {
  if (images.length + alreadyInConversation <= IMAGE_LIMITS.manyImages) return null;
  const big = images.find((i) => (i.width ?? 0) > IMAGE_LIMITS.maxSideWhenMany || (i.height ?? 0) > IMAGE_LIMITS.maxSideWhenMany);
  if (!big) return null;
  return `${big.name} is ${big.width}×${big.height} pixels, and with more than ${IMAGE_LIMITS.manyImages} images in one request the API takes none over ${IMAGE_LIMITS.maxSideWhenMany}×${IMAGE_LIMITS.maxSideWhenMany}. KHAELOR cannot scale images: scale it down first, or send fewer images.`;
}

/**
 * An image a host sent as base64 (an editor over ACP, a stream-json host) as the block to send,
 * or why it is left out. The media type is the bytes' own (a host may name it wrongly, and the
 * API refuses a mismatch); the limits are the composer's.
 */
export function hostImage(data: string, name: string): { block: ImageBlock } | { skipped: string } {
  // Only the base64 alphabet decodes to the bytes the host meant; anything else would be garbled silently.
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data.replace(/\s+/g, ""))) return { skipped: `${name} (its data is not base64)` };
  if (data.length > IMAGE_LIMITS.maxBase64Chars * 2) return { skipped: `${name} (${imageBytes(Math.floor((data.length * 3) / 4))}, over the API's ${imageBytes(IMAGE_LIMITS.maxBytes)} limit for an image; there is no image library here to scale it)` };
  const r = checkImage(name, Buffer.from(data, "base64"));
  if (!r.ok) return { skipped: r.notImage ? `${name} (not a PNG, JPEG, GIF or WebP image)` : r.reason };
  return { block: { type: "image", source: { type: "base64", media_type: r.image.mediaType, data: r.image.bytes.toString("base64") } } };
}
