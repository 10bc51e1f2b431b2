// A text file as read, written and edited: its decoded text plus everything needed to write it back
// the way it was (encoding, BOM, line endings).
import type { Stats } from "node:fs";
import { LIMITS, readRegularFile } from "../workspace/safe-read.ts";
import { decodeText, dominantLineEnding, looksBinary, type LineEnding, type TextEncodingName } from "../workspace/encoding.ts";
import type { LocalWorkspace } from "../workspace/types.ts";

export type LoadedFile = {
  bytes: Buffer;
  stat: Stats;
  text: string;
  encoding: TextEncodingName;
  eol: LineEnding;
  binary: boolean;
};

export const MAX_LOAD_BYTES = LIMITS.workFile;

/** Throws FileReadError for a missing, special (FIFO, device) or oversized file. */
export function loadFile(abs: string, maxBytes = MAX_LOAD_BYTES): LoadedFile {
  const { bytes, stat } = readRegularFile(abs, { maxBytes });
  const binary = looksBinary(bytes);
  const { text, encoding } = binary ? { text: "", encoding: "utf-8" as const } : decodeText(bytes);
  return { bytes, stat, text, encoding, eol: dominantLineEnding(text), binary };
}

/**
 * A file to read, edit or write, its content from the workspace's files when it has them (an
 * editor's buffer, which may hold unsaved changes) and from the disk otherwise. The disk is read
 * either way: it says whether the file exists, is regular and is binary (a buffer is always text).
 */
export async function loadWorkFile(ws: LocalWorkspace, abs: string, maxBytes = MAX_LOAD_BYTES): Promise<LoadedFile> {
  const disk = loadFile(abs, maxBytes);
  if (!ws.files || disk.binary) return disk;
  const text = await ws.files.readText(abs);
  // What the buffer holds is what was seen: the stale-write check compares against these bytes.
  return { ...disk, bytes: Buffer.from(text, "utf8"), text, encoding: "utf-8", eol: dominantLineEnding(text) };
}

/** The content the model would see now: the workspace's files when it has them, else the disk. */
export async function currentBytes(ws: LocalWorkspace, abs: string): Promise<Buffer> {
  if (ws.files) return Buffer.from(await ws.files.readText(abs), "utf8");
  return readRegularFile(abs, { maxBytes: LIMITS.workFile }).bytes;
}

export const encodingLabel: Record<TextEncodingName, string> = {
  "utf-8": "UTF-8",
  "utf-8-bom": "UTF-8 with BOM",
  "utf-16le": "UTF-16 LE",
  "utf-16be": "UTF-16 BE",
  latin1: "Latin-1 (not valid UTF-8)",
};

/** A short description of what a binary file is, from its magic bytes. */
export function describeBinary(bytes: Uint8Array): string {
  const b = Buffer.from(bytes.subarray(0, 8));
  const hex = b.toString("hex");
  if (hex.startsWith("7f454c46")) return "ELF executable";
  if (hex.startsWith("504b0304")) return "zip archive (also jar, docx, xlsx)";
  if (hex.startsWith("1f8b")) return "gzip data";
  if (hex.startsWith("25504446")) return "PDF document";
  if (hex.startsWith("0061736d")) return "WebAssembly module";
  if (hex.startsWith("53514c69")) return "SQLite database";
  if (hex.startsWith("cafebabe")) return "Java class or Mach-O fat binary";
  return "binary data";
}
