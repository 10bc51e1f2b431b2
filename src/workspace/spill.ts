// Full outputs that were too long for the model's context. The result names the file so the model
// can read or grep the part it needs instead of running the command again.
import { appendFileSync, rmSync, writeFileSync } from "node:fs";
import { fsReason } from "./fs-errors.ts";
import { join } from "node:path";
import { ensurePrivateDir, PRIVATE_FILE_MODE } from "../platform/private-files.ts";

/** Streamed output is redacted in blocks: one is written once this much follows it unwritten. */
const HOLD_CHARS = 64 * 1024;
const CARRY_CHARS = 16 * 1024;

let counter = 0;

export class SpillFiles {
  /** Why the last save failed (a full disk, say); saving never throws, a tool result must still come back. */
  lastError: string | null = null;

  /** `redact` is the session log's redactor for plain text (spill files live in the data directory too). */
  constructor(
    readonly dir: string,
    private readonly redact: (text: string) => string = (t) => t,
  ) {}

  /** A fresh path under the spill directory; `label` says where the output came from. */
  newPath(label: string): string {
    ensurePrivateDir(this.dir);
    const safe = label.replace(/[^A-Za-z0-9_.-]+/g, "-").slice(0, 40) || "output";
    counter++;
    return join(this.dir, `${safe}-${Date.now().toString(36)}-${process.pid}-${counter}.txt`);
  }

  /** The saved file's path, or null when it could not be written (see lastError). */
  write(label: string, text: string | Uint8Array): string | null {
    let path: string | null = null;
    try {
      path = this.newPath(label);
      // Whole outputs of `env` or `cat .env`: the same redactor as the session log, and 0600.
      writeFileSync(path, typeof text === "string" ? this.redact(text) : text, { mode: PRIVATE_FILE_MODE });
      return path;
    } catch (e) {
      this.lastError = fsReason(e);
      // A full disk: no empty or cut-off file that looks like the full output.
      if (path) rmSync(path, { force: true });
      return null;
    }
  }

  /** For streams: the file is created on the first chunk and grows with each later one. `path` turns null if a write fails. */
  appender(label: string): SpillAppender {
    let path = this.write(label, "");
    // Chunks are held until a block ends on a line break well before the newest text, so a secret
    // split across two chunks is still whole when it is redacted; end() writes the rest.
    let pending = "";
    const flush = (all: boolean) => {
      if (path === null) return;
      let cut = pending.length;
      if (!all) {
        cut = pending.lastIndexOf("\n", pending.length - CARRY_CHARS);
        // A private key block still open at the cut stays for the next block.
        const open = pending.lastIndexOf("-----BEGIN", cut);
        if (open !== -1 && pending.indexOf("-----END", open) === -1) cut = pending.lastIndexOf("\n", open);
        if (cut <= 0) return;
        cut++;
      }
      const block = pending.slice(0, cut);
      pending = pending.slice(cut);
      if (!this.appendOrDrop(path, this.redact(block))) path = null;
    };
    return {
      get path() {
        return path;
      },
      append: (chunk) => {
        if (path === null) return;
        pending += chunk;
        if (pending.length >= HOLD_CHARS + CARRY_CHARS) flush(false);
        // One endless line: written unsplit-safe no longer, but memory stays bounded.
        if (pending.length >= 4 * HOLD_CHARS) flush(true);
      },
      end: () => flush(true),
    };
  }

  /** Appends to a spill file; a failed write removes the file (half a spill misleads) and says why in lastError. */
  private appendOrDrop(path: string, data: string | Uint8Array): boolean {
    try {
      appendFileSync(path, data);
      return true;
    } catch (e) {
      this.lastError = fsReason(e);
      rmSync(path, { force: true });
      return false;
    }
  }

  /** For binary streams: the exact bytes, appended as they come. `path` turns null if a write fails. */
  bytesAppender(label: string): SpillAppender {
    let path = this.write(label, new Uint8Array());
    const appendBytes = (chunk: Uint8Array) => {
      if (path !== null && !this.appendOrDrop(path, chunk)) path = null;
    };
    return {
      get path() {
        return path;
      },
      append: (chunk) => appendBytes(Buffer.from(chunk, "utf8")),
      appendBytes,
      end: () => {},
    };
  }
}

export type SpillAppender = {
  readonly path: string | null;
  append(chunk: string): void;
  /** bytesAppender's: binary output as it came (not decoded to U+FFFD text, not redacted as text). */
  appendBytes?(chunk: Uint8Array): void;
  /** Writes what is still held back; the file is whole after it. */
  end(): void;
};
