// ripgrep as a bounded subprocess: a time limit and an output limit, so a search over a huge tree
// returns what it found so far instead of hanging the turn or filling memory.
import { spawn } from "node:child_process";

export type RipgrepResult = {
  stdout: string;
  stderr: string;
  /** 0 found, 1 nothing found, 2 error (ripgrep's convention); null when we stopped it. */
  code: number | null;
  timedOut: boolean;
  /** Output passed maxBytes and the search was stopped early. */
  truncated: boolean;
};

export function runRipgrep(
  rg: string,
  args: string[],
  opts: { cwd: string; timeoutMs?: number; maxBytes?: number; signal?: AbortSignal },
): Promise<RipgrepResult> {
  const maxBytes = opts.maxBytes ?? 16 * 1024 * 1024;
  return new Promise((resolve) => {
    const child = spawn(rg, args, { cwd: opts.cwd, stdio: ["ignore", "pipe", "pipe"] });
    const out: Buffer[] = [];
    let size = 0;
    let stderr = "";
    let timedOut = false;
    let truncated = false;
    const stop = () => child.kill("SIGKILL");
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, opts.timeoutMs ?? 30_000);
    opts.signal?.addEventListener("abort", stop, { once: true });
    child.stdout.on("data", (b: Buffer) => {
      if (truncated) return;
      out.push(b);
      size += b.length;
      if (size > maxBytes) {
        truncated = true;
        stop();
      }
    });
    child.stderr.on("data", (b: Buffer) => {
      if (stderr.length < 8192) stderr += b.toString("utf8");
    });
    let done = false;
    const finish = (code: number | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener("abort", stop);
      let stdout = Buffer.concat(out).toString("utf8");
      // A stopped search can end mid-line; drop the partial line.
      if ((timedOut || truncated) && !stdout.endsWith("\n")) stdout = stdout.slice(0, stdout.lastIndexOf("\n") + 1);
      resolve({ stdout, stderr, code: timedOut || truncated ? null : code, timedOut, truncated });
    };
    child.on("error", (e) => {
      stderr += String(e);
      finish(2);
    });
    child.on("close", (code) => finish(code));
  });
}
