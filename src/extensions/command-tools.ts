// A command's !`cmd` and @path go through the same tools and permission gate as the model's
// calls: a rule that denies `Bash(curl:*)` denies it inside a command file too.
import { existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { PermissionGate } from "../kernel/types.ts";
import { outcomeText } from "../tools/results.ts";
import type { ToolRuntime } from "../tools/types.ts";
import type { Workspace } from "../workspace/types.ts";
import type { Expander } from "./expand.ts";

export type CommandToolsDeps = { tools: ToolRuntime; gate: PermissionGate; workspace: Workspace; cwd: string; signal: AbortSignal };

let counter = 0;

export function runCommandTools(d: CommandToolsDeps): Expander {
  const run = async (name: string, input: Record<string, unknown>): Promise<{ ok: boolean; text: string }> => {
    const call = { id: `command_${Date.now().toString(36)}_${++counter}`, name, input };
    const prepared = await d.tools.prepare(call, { workspace: d.workspace, signal: d.signal });
    if (!prepared.ok) return { ok: false, text: outcomeText(prepared.outcome.content) };
    const decision = await d.gate.authorize(prepared, d.signal);
    if (!decision.allow) return { ok: false, text: decision.message };
    const r = await prepared.run();
    return { ok: !r.isError, text: outcomeText(r.content) };
  };
  return {
    async shell(command) {
      const r = await run("bash", { command });
      return r.ok ? r.text : `(the command \`${command}\` did not run: ${r.text})`;
    },
    async include(path) {
      const abs = resolve(d.cwd, path);
      if (!existsSync(abs) || !statSync(abs).isFile()) return null;
      const r = await run("read", { file_path: abs });
      return r.ok ? r.text : `(not included: ${r.text})`;
    },
  };
}
