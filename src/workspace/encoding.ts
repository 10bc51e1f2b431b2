// Text files as agents meet them: mostly UTF-8, sometimes with a BOM, now and then UTF-16 from
// Windows tools or Latin-1 from old projects. We decode by BOM first, then by UTF-8 validity, and
// re-encode an edited file exactly the way it came in so an edit never changes its encoding.

export type TextEncodingName = "utf-8" | "utf-8-bom" | "utf-16le" | "utf-16be" | "latin1";

export type DecodedText = { text: string; encoding: TextEncodingName };

const utf8Strict = new TextDecoder("utf-8", { fatal: true });

export function decodeText(bytes: Uint8Array): DecodedText {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder("utf-8").decode(bytes.subarray(3)), encoding: "utf-8-bom" };
  }
  if (bytes[0] === 0xff && bytes[1] === 0xfe) {
    return { text: new TextDecoder("utf-16le").decode(bytes.subarray(2)), encoding: "utf-16le" };
  }
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    return { text: decodeUtf16be(bytes.subarray(2)), encoding: "utf-16be" };
  }
  try {
    return { text: utf8Strict.decode(bytes), encoding: "utf-8" };
  } catch {
    return { text: Buffer.from(bytes).toString("latin1"), encoding: "latin1" };
  }
}

export function encodeText(text: string, encoding: TextEncodingName): Buffer {
  switch (encoding) {
    case "utf-8":
      return Buffer.from(text, "utf8");
    case "utf-8-bom":
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, "utf8")]);
    case "utf-16le":
      return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, "utf16le")]);
    case "utf-16be":
      return Buffer.concat([Buffer.from([0xfe, 0xff]), swapBytes(Buffer.from(text, "utf16le"))]);
    case "latin1":
      return Buffer.from(text, "latin1");
  }
}

/** True when `text` survives a round trip through `encoding` (Latin-1 cannot hold "→" or emoji). */
export function canEncode(text: string, encoding: TextEncodingName): boolean {
  if (encoding !== "latin1") return true;
  // Latin-1 holds exactly the code points 0..255.
  return !/[^\u0000-\u00ff]/.test(text);
}

function decodeUtf16be(bytes: Uint8Array): string {
  return swapBytes(Buffer.from(bytes)).toString("utf16le");
}

function swapBytes(buf: Buffer): Buffer {
  const out = Buffer.from(buf.subarray(0, buf.length - (buf.length % 2)));
  out.swap16();
  return out;
}

/**
 * Binary means "would be garbage as text": a NUL byte in the first 8 KB (the heuristic git and
 * ripgrep use), unless a UTF-16 BOM explains the NULs.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return false;
  const n = Math.min(bytes.length, 8192);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}

export type LineEnding = "lf" | "crlf";

/** The file's dominant line ending; new lines an edit introduces use it. */
export function dominantLineEnding(text: string): LineEnding {
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? "crlf" : "lf";
}
