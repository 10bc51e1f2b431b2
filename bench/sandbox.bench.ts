// The sandbox's cost per command: the time a confined `true` takes through the bash tool against an
// unconfined one (bubblewrap's start-up, joining the session's network, with no domain allowed and
// with one). The prompts it saves are measured in a real session: sandbox-session.bench.ts.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { probeSandbox } from "../src/sandbox/availability.ts";
import { openSandbox } from "../src/sandbox/sandbox.ts";
import { DEFAULT_SANDBOX } from "../src/sandbox/settings.ts";
import { bashTool } from "../src/tools/bash.ts";
import type { ToolContext } from "../src/tools/types.ts";
import { createWorkspace } from "../src/workspace/local.ts";
import type { CommandConfinement } from "../src/workspace/types.ts";

async function perRun(n: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - t0) / n;
}

export async function run(_opts: { json: boolean }) {
  const avail = probeSandbox();
  if (!avail.ok) return [{ name: "sandbox (skipped)", why: avail.why }];
  const root = mkdtempSync(join(tmpdir(), "khaelor-bench-sandbox-"));
  execFileSync("git", ["init", "-q"], { cwd: root });
  writeFileSync(join(root, "package.json"), "{}\n");
  const ws = createWorkspace({ root, spillDir: join(root, ".spill") });
  const ctx = { workspace: ws, signal: new AbortController().signal, toolUseId: "bench" } as unknown as ToolContext;
  const once = (confine: CommandConfinement | undefined) => async () => {
    ws.confine = confine;
    const out = await bashTool.run!({ command: "true" }, ctx);
    if (out.isError) throw new Error(`true failed: ${JSON.stringify(out.content)}`);
  };
  const n = 30;
  const plain = await perRun(n, once(undefined));
  // One sandbox at a time: two on one project would each remove the mount points the other
  // planned around (two sessions in one project share that race).
  const closed = await openSandbox({ root, settings: { ...DEFAULT_SANDBOX, enabled: true } });
  const confined = await perRun(n, once(closed));
  await closed.close();
  const proxied = await openSandbox({ root, settings: { ...DEFAULT_SANDBOX, enabled: true, allowedDomains: ["registry.npmjs.org"] } });
  const withProxy = await perRun(n, once(proxied));
  await proxied.close();
  rmSync(root, { recursive: true, force: true });
  return [
    { name: "sandbox: bash `true` through the tool, unconfined vs bubblewrap", unconfined_ms: +plain.toFixed(2), confined_ms: +confined.toFixed(2), confined_with_proxy_ms: +withProxy.toFixed(2), cost_ms: +(confined - plain).toFixed(2), runs: n },
  ];
}
