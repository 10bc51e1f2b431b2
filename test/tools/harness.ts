// A real workspace in a temp dir and the real tool runtime, plus the ps check every process test
// ends with: nothing started under this file's token may outlive the test.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { builtinTools } from "../../src/tools/builtin.ts";
import { createToolRuntime, type ToolRuntimeOptions } from "../../src/tools/runtime.ts";
import type { ToolOutcome } from "../../src/tools/types.ts";
import { createWorkspace } from "../../src/workspace/local.ts";
import type { LocalWorkspace } from "../../src/workspace/types.ts";

export type Harness = {
  dir: string;
  ws: LocalWorkspace;
  call(name: string, input: unknown, opts?: { signal?: AbortSignal; onProgress?: (s: string) => void }): Promise<ToolOutcome & { text: string }>;
  cleanup(): Promise<void>;
};

export function makeHarness(prefix = "khaelor-tools-", opts: ToolRuntimeOptions = {}): Harness {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const ws = createWorkspace({ root: dir, spillDir: join(dir, ".khaelor-spill") });
  const rt = createToolRuntime(builtinTools(), opts);
  let n = 0;
  return {
    dir,
    ws,
    async call(name, input, opts = {}) {
      const out = await rt.execute(
        { id: `toolu_${++n}`, name, input },
        { workspace: ws, signal: opts.signal ?? new AbortController().signal, ...(opts.onProgress ? { onProgress: opts.onProgress } : {}) },
      );
      const text = typeof out.content === "string" ? out.content : out.content.map((b) => (b.type === "text" ? b.text : `[${b.type}]`)).join("\n");
      return { ...out, text };
    },
    async cleanup() {
      await ws.processes.stopAll(500);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Processes whose command line contains `token` (other than ps itself). */
export function processesWith(token: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid=,stat=,args="], { encoding: "utf8" });
  return out
    .split("\n")
    .filter((l) => l.includes(token) && !/\bps -eo\b/.test(l))
    // Zombies are already dead; their parent just has not reaped them yet.
    .filter((l) => !/^\s*\d+\s+Z/.test(l));
}

/** Wait (on the condition, bounded) until no process with `token` is left; returns what is left. */
export async function leftovers(token: string, withinMs = 3000): Promise<string[]> {
  const deadline = Date.now() + withinMs;
  let left = processesWith(token);
  while (left.length && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    left = processesWith(token);
  }
  return left;
}

/** A `sleep` argument unique to this test run, so ps can find exactly our processes. */
export const sleepToken = (n: number) => `${100 + n}.${process.pid}`;
