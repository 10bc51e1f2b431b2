// Full outputs that were too long for the model's context. The result names the file so the model
// can read or grep the part it needs instead of running the command again.
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

let counter = 0;

export class SpillFiles {
  constructor(readonly dir: string) {}

  /** A fresh path under the spill directory; `label` says where the output came from. */
  newPath(label: string): string {
    mkdirSync(this.dir, { recursive: true });
    const safe = label.replace(/[^A-Za-z0-9_.-]+/g, "-").slice(0, 40) || "output";
    counter++;
    return join(this.dir, `${safe}-${Date.now().toString(36)}-${process.pid}-${counter}.txt`);
  }

  write(label: string, text: string | Uint8Array): string {
    const path = this.newPath(label);
    writeFileSync(path, text);
    return path;
  }

  /** For streams: the file is created on the first chunk and grows with each later one. */
  appender(label: string): { path: string; append(chunk: string): void } {
    const path = this.newPath(label);
    writeFileSync(path, "");
    return { path, append: (chunk) => appendFileSync(path, chunk) };
  }
}
