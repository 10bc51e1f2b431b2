// What a pseudo-terminal costs per background process: start-to-exit of `true` in a terminal
// against the same through a pipe (the ratio is the figure), and the file descriptors and memory
// each running process holds in KHAELOR.
import { readdirSync } from "node:fs";
import { commandEnv, spawnShellGroup } from "../src/workspace/process-group.ts";
import { ProcessRegistry } from "../src/workspace/process-registry.ts";
import { spawnPtyGroup, terminalEnv } from "../src/workspace/pty-group.ts";

async function perRun(n: number, once: () => Promise<unknown>): Promise<number> {
  await once(); // warm up
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await once();
  return (performance.now() - t0) / n;
}

const openFds = () => readdirSync("/proc/self/fd").length;

export async function run(_opts: { json: boolean }) {
  const n = 30;
  const pipe = await perRun(n, () => spawnShellGroup("true", { cwd: "/tmp", env: commandEnv(), stdin: "pipe" }).exited);
  const pty = await perRun(n, () => spawnPtyGroup("true", { cwd: "/tmp", env: terminalEnv(), onData: () => {} }).exited);

  // Running processes: what each one holds while it runs.
  const reg = new ProcessRegistry();
  const count = 20;
  Bun.gc(true);
  const fds0 = openFds();
  const rss0 = process.memoryUsage().rss;
  for (let i = 0; i < count; i++) reg.start({ command: "echo up; exec sleep 60", cwd: "/tmp" });
  for (const p of reg.list()) await reg.read(p.id, { waitFor: /up/, timeoutMs: 20_000 });
  Bun.gc(true);
  const fds = (openFds() - fds0) / count;
  const rss = (process.memoryUsage().rss - rss0) / count;
  await reg.stopAll(500);
  return [
    {
      name: "background process in a terminal vs a pipe (start to exit of `true`)",
      pipe_ms: +pipe.toFixed(2),
      pty_ms: +pty.toFixed(2),
      ratio: +(pty / pipe).toFixed(2),
      fds_per_running_process: +fds.toFixed(1),
      rss_kib_per_running_process: Math.round(rss / 1024),
    },
  ];
}
