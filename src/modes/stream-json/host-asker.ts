// Permission asks as the host's canUseTool callback answers them (`--permission-prompt-tool stdio`):
// a can_use_tool control request with Claude Code's tool names and input, its answer as ours.
import { isDeepStrictEqual } from "node:util";
import type { Asker } from "../../agent/types.ts";
import { claudeToolInput, claudeToolName } from "../../hooks/tool-names.ts";
import type { ControlChannel } from "./control.ts";
import { grantScopeOf, modeOf, suggestionsFor } from "./permission-updates.ts";

export type HostAskerDeps = {
  control: ControlChannel;
  cwd: string;
  /** A line on stderr, once per key. */
  once(key: string, text: string): void;
  /** The host answered "deny and interrupt": the running turn stops. */
  interrupt(): void;
};

export function hostAsker({ control, cwd, once, interrupt }: HostAskerDeps): Asker {
  return async (req, signal) => {
    // Claude Code's names and input (Bash, an absolute file_path), as init and the hooks give them.
    // A plan presented from its file reaches the host in `plan`, as Claude Code's ExitPlanMode input has it.
    const plan = req.preview?.plan;
    const input = plan ? { ...(claudeToolInput(req.call.input, cwd) as Record<string, unknown>), plan: plan.text } : claudeToolInput(req.call.input, cwd);
    const a = await control.request(
      {
        subtype: "can_use_tool",
        tool_name: claudeToolName(req.call.name),
        input: input as Record<string, unknown>,
        tool_use_id: req.call.id,
        permission_suggestions: suggestionsFor(req.suggestion),
        decision_reason: req.reason,
        title: req.summary,
        description: req.reason,
      },
      signal,
    );
    if (!a.ok) return { allow: false, message: a.error === "cancelled" ? undefined : `(no answer from the host: ${a.error})` };
    const r = a.response;
    if (r.behavior === "allow") {
      // The plan approved for a clean context: the input as asked plus `clearContext: true` (the
      // ExitPlanMode input's open fields, so the SDK's types take it); it is implemented in a new session.
      if (plan && clearsContext(r.updatedInput, input)) return { allow: true, mode: "acceptEdits", clearContext: true };
      // A host that rewrote the call meant its version to run, not the model's: until a changed
      // input can be run, the call is denied rather than run as the host did not allow it.
      if (r.updatedInput !== undefined && JSON.stringify(r.updatedInput) !== JSON.stringify(input)) {
        once("updated-input", "can_use_tool: an allow with a changed updatedInput is not supported yet; such calls are denied");
        return { allow: false, message: "The host allowed this call only with a changed input, which KHAELOR cannot run yet; it was not run." };
      }
      const scope = grantScopeOf(r.updatedPermissions);
      // An approved plan continues in the mode the host names (setMode), else in default.
      const mode = modeOf(r.updatedPermissions);
      return { allow: true, ...(scope && req.suggestion ? { always: { scope } } : {}), ...(mode ? { mode } : {}) };
    }
    if (r.interrupt === true) interrupt();
    return { allow: false, message: typeof r.message === "string" && r.message ? r.message : undefined };
  };
}

/** `updatedInput` is the input asked with `clearContext: true` added, and nothing else changed. */
function clearsContext(updated: unknown, input: unknown): boolean {
  if (typeof updated !== "object" || updated === null || (updated as { clearContext?: unknown }).clearContext !== true) return false;
  const { clearContext: _, ...rest } = updated as Record<string, unknown>;
  return isDeepStrictEqual(rest, input);
}
