// Full outputs that were too long for the model's context. The result names the file so the model
// can read or grep the part it needs instead of running the command again.
import { appendFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { fsReason } from "./fs-errors.ts";
import { join } from "node:path";

let counter = 0;

export class SpillFiles {
  /** Why the last save failed (a full disk, say); saving never throws, a tool result must still come back. */
  lastError: string | null = null;

  constructor(readonly dir: string) {}

  /** A fresh path under the spill directory; `label` says where the output came from. */
  newPath(label: string): string {
    mkdirSync(this.dir, { recursive: true });
    const safe = label.replace(/[^A-Za-z0-9_.-]+/g, "-").slice(0, 40) || "output";
    counter++;
    return join(this.dir, `${safe}-${Date.now().toString(36)}-${process.pid}-${counter}.txt`);
  }

  /** The saved file's path, or null when it could not be written (see lastError). */
  write(label: string, text: string | Uint8Array): string | null {
    let path: string | null = null;
    try {
      path = this.newPath(label);
      writeFileSync(path, text);
      return path;
    } catch (e) {
      this.lastError = fsReason(e);
      // A full disk: no empty or cut-off file that looks like the full output.
      if (path) rmSync(path, { force: true });
      return null;
    }
  }

  /** For streams: the file is created on the first chunk and grows with each later one. `path` turns null if a write fails. */
  appender(label: string): { readonly path: string | null; append(chunk: string): void } {
    let path = this.write(label, "");
    return {
      get path() {
        return path;
      },
      append: (chunk) => {
        if (path === null) return;
        try {
          appendFileSync(path, chunk);
        } catch (e) {
          this.lastError = fsReason(e);
          rmSync(path, { force: true });
          path = null;
        }
      },
    };
  }
}
