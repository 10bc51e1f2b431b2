// The sandbox's costs and what it saves: the time a confined `true` takes through the bash tool
// against an unconfined one (bubblewrap's start-up per command, with the network closed and with
// the proxy relay), and the permission prompts in a scripted realistic session of 30 tool calls
// (tests, builds, git, a dev server, package installs from a local registry) with the sandbox off
// and on (autoAllowBashIfSandboxed), each call decided by the real rules engine and the real gate.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sandboxGate } from "../src/agent/sandbox-gate.ts";
import { createPermissionEngine } from "../src/permissions/index.ts";
import { probeSandbox } from "../src/sandbox/availability.ts";
import { openSandbox } from "../src/sandbox/sandbox.ts";
import { DEFAULT_SANDBOX } from "../src/sandbox/settings.ts";
import { bashTool } from "../src/tools/bash.ts";
import type { ToolContext } from "../src/tools/types.ts";
import { createWorkspace } from "../src/workspace/local.ts";
import type { CommandConfinement } from "../src/workspace/types.ts";

const SESSION: { name: string; input: Record<string, unknown> }[] = [
  ...["ls", "cat package.json", "git status", "git log --oneline -5", "rg TODO src", "bun test", "bun run build", "npm test", "npx tsc --noEmit", "git diff"].map((command) => ({ name: "bash", input: { command } })),
  { name: "process", input: { action: "start", name: "dev", command: "npm run dev" } },
  { name: "process", input: { action: "read", id: "dev" } },
  ...["curl -s http://localhost:3000/", "npm install --registry http://127.0.0.1:4873 left-pad", "npm ci", "bun add zod", "mkdir -p src/new && touch src/new/a.ts", "git add -A", "git commit -m wip", "git checkout -b feature", "node scripts/gen.js", "python3 -m pytest", "make", "cargo build", "go test ./...", "rm -rf dist", "cp -r src tmp-copy", "sed -i s/a/b/ src/x.ts", "git stash", "npm run lint"].map((command) => ({ name: "bash", input: { command } })),
];

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
  const closed = await openSandbox({ root, settings: { ...DEFAULT_SANDBOX, enabled: true } });
  const proxied = await openSandbox({ root, settings: { ...DEFAULT_SANDBOX, enabled: true, allowedDomains: ["registry.npmjs.org"] } });
  const n = 30;
  const plain = await perRun(n, once(undefined));
  const confined = await perRun(n, once(closed));
  const withProxy = await perRun(n, once(proxied));

  const engine = await createPermissionEngine({ projectRoot: root });
  const gate = sandboxGate(closed);
  let off = 0;
  let on = 0;
  SESSION.forEach((c, i) => {
    const call = { id: `c${i}`, name: c.name, input: c.input };
    const d = engine.decide({ tool: c.name, input: c.input, cwd: root });
    if (d.behavior === "ask") off++;
    if (gate.decide(call, d).behavior === "ask") on++;
  });
  await closed.close();
  await proxied.close();
  rmSync(root, { recursive: true, force: true });
  return [
    { name: "sandbox: bash `true` through the tool, unconfined vs bubblewrap", unconfined_ms: +plain.toFixed(2), confined_ms: +confined.toFixed(2), confined_with_proxy_ms: +withProxy.toFixed(2), cost_ms: +(confined - plain).toFixed(2), runs: n },
    { name: `sandbox: permission prompts in a scripted ${SESSION.length}-call session (default mode)`, prompts_off: off, prompts_on: on, calls: SESSION.length },
  ];
}
