// `khaelor sandbox [--] CMD...`: one command run the way the agent's bash tool runs it, in the
// sandbox the settings describe (turned on for this run even where the settings leave it off), so
// a user can try their rules. What the sandbox blocked is said after the output; the exit code is
// the command's. Where the sandbox cannot run it says why and runs nothing.
import { createPermissionEngine } from "../permissions/index.ts";
import { openSessionSandbox } from "../agent/sandbox-wiring.ts";
import { bashTool } from "../tools/bash.ts";
import { createWorkspace } from "../workspace/local.ts";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export async function sandboxCommand(args: string[], cwd: string): Promise<number> {
  const words = args[0] === "--" ? args.slice(1) : args;
  if (words.length === 0 || words[0] === "--help" || words[0] === "-h") {
    process.stdout.write("usage: khaelor sandbox [--] COMMAND [ARGS...]\nRuns COMMAND confined as the agent would (bubblewrap on Linux, Seatbelt on macOS) and says what the sandbox blocked.\n");
    return words.length === 0 ? 2 : 0;
  }
  const engine = await createPermissionEngine({ projectRoot: cwd });
  const { sandbox } = await openSessionSandbox(cwd, engine, { editorTerminal: false });
  const state = await sandbox.toggle(true);
  if (state.kind !== "on") {
    process.stderr.write(`khaelor sandbox: the sandbox cannot run here: ${state.kind === "unavailable" ? `${state.why}. ${state.install}` : "off"}. Nothing was run.\n`);
    await sandbox.close();
    return 1;
  }
  process.stderr.write(`khaelor sandbox: confined by ${state.enforcer}; network ${sandbox.settings.allowedDomains.length ? `to ${sandbox.settings.allowedDomains.join(", ")}` : "closed"}\n`);
  for (const w of state.warnings) process.stderr.write(`khaelor sandbox: ${w}\n`);
  const spill = mkdtempSync(join(tmpdir(), "khaelor-sandbox-spill-"));
  const ws = createWorkspace({ root: cwd, spillDir: spill });
  ws.confine = sandbox;
  const line = words.length === 1 ? words[0]! : words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
  try {
    const out = await bashTool.run!({ command: line }, { workspace: ws, signal: new AbortController().signal, toolUseId: "sandbox-cli" } as Parameters<NonNullable<typeof bashTool.run>>[1]);
    const text = typeof out.content === "string" ? out.content : out.content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
    process.stdout.write(`${text}\n`);
    const code = /\[(?:[^\]]*; )?exit code (\d+)/.exec(text);
    return out.isError ? Number(code?.[1] ?? 1) || 1 : 0;
  } finally {
    await ws.processes.stopAll(500);
    await sandbox.close();
    rmSync(spill, { recursive: true, force: true });
  }
}
