// What the model has seen of each file, so a write or edit can refuse to clobber a file that it
// never read or that changed on disk since (an editor save, a formatter, git checkout).
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { LIMITS, readRegularFile } from "./safe-read.ts";

export type ReadRecord = { mtimeMs: number; size: number; hash: string };
export type Freshness = "fresh" | "unread" | "changed" | "missing";

export const hashBytes = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

export class ReadRecords {
  private readonly records = new Map<string, ReadRecord>();

  /** Remember the file as the model now knows it (after a read, or after our own write). */
  record(path: string, bytes: Uint8Array, mtimeMs?: number): void {
    const mtime = mtimeMs ?? statSync(path).mtimeMs;
    this.records.set(path, { mtimeMs: mtime, size: bytes.length, hash: hashBytes(bytes) });
  }

  get(path: string): ReadRecord | undefined {
    return this.records.get(path);
  }

  forget(path: string): void {
    this.records.delete(path);
  }

  /**
   * Compare the file on disk with what was read. A changed mtime alone (a `touch`, a checkout
   * that rewrote identical bytes) is not a change: the hash decides.
   */
  check(path: string): Freshness {
    const rec = this.records.get(path);
    let st;
    try {
      st = statSync(path);
    } catch {
      return rec ? "missing" : "unread";
    }
    if (!rec) return "unread";
    if (st.mtimeMs === rec.mtimeMs && st.size === rec.size) return "fresh";
    if (st.size !== rec.size) return "changed";
    // A path swapped for a FIFO or a device since it was read is "changed", never opened blocking.
    let bytes: Buffer;
    try {
      bytes = readRegularFile(path, { maxBytes: LIMITS.workFile }).bytes;
    } catch {
      return "changed";
    }
    const now = hashBytes(bytes);
    if (now !== rec.hash) return "changed";
    rec.mtimeMs = st.mtimeMs;
    return "fresh";
  }
}
