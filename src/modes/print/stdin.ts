// Print mode's task from stdin: read whole (a file) or until the pipe closes, within a size bound.
import { fstatSync } from "node:fs";

/** How long a pipe may stay silent before we decide nothing is coming, when the task was given as an argument. */
const STDIN_GRACE_MS = 1500;

/** More than the API takes in one request (32 MB): reading stops there, so memory stays bounded. */
export const STDIN_MAX_BYTES = 32 * 1024 * 1024;
export const mb = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(bytes >= 10 * 1024 * 1024 ? 0 : 1)} MB` : `${Math.ceil(bytes / 1024)} KB`);

/**
 * The task (or extra input) from stdin. With a task already on the command line, stdin is only
 * extra context, and a parent that leaves an empty pipe open (CI runners, ssh, spawn) must not
 * hang us: a pipe that sends nothing within a grace period is ignored. Files are read whole.
 */
export async function readStdin(optional: boolean): Promise<{ text: string; over: boolean }> {
  let kind: "file" | "pipe" | "other" = "other";
  try {
    const st = fstatSync(0);
    kind = st.isFile() ? "file" : st.isFIFO() || st.isSocket() ? "pipe" : "other";
  } catch {
    return { text: "", over: false };
  }
  if (kind === "other") return { text: "", over: false };
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  const done = new Promise<void>((resolve) => {
    process.stdin.on("data", (c: Buffer) => {
      size += c.length;
      if (size > STDIN_MAX_BYTES) {
        over = true;
        chunks.length = 0;
        process.stdin.destroy();
        resolve();
      } else chunks.push(c);
    });
    process.stdin.on("end", resolve);
    process.stdin.on("error", () => resolve());
  });
  if (!optional || kind === "file") {
    await done;
  } else {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const first = new Promise<void>((resolve) => process.stdin.once("data", () => resolve()));
    const silent = new Promise<"silent">((resolve) => (timer = setTimeout(() => resolve("silent"), STDIN_GRACE_MS)));
    const outcome = await Promise.race([first, done, silent]);
    clearTimeout(timer);
    if (outcome === "silent") {
      process.stdin.pause();
      process.stdin.destroy();
      return { text: "", over: false };
    }
    await done;
  }
  return { text: over ? "" : Buffer.concat(chunks).toString("utf8"), over };
}
