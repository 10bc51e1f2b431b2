// The Agent SDK's hook callbacks: initialize's `hooks` names, per event, matchers with callback
// ids; when the event fires here, the host is sent a `hook_callback` control request and its
// answer is read as the hook's output (a PreToolUse deny denies the call, as a command hook's
// would). They join the settings' hooks and always run: the host is the user's own program.
import { z } from "zod";
import { DEFAULT_TIMEOUT_S, HOOK_EVENTS, type HookEntry, type HookEvent } from "../../hooks/config.ts";
import type { ControlChannel } from "./control.ts";

const Matcher = z.looseObject({
  matcher: z.string().optional(),
  hookCallbackIds: z.array(z.string()),
  timeout: z.number().positive().optional(),
  onFailure: z.enum(["continue", "block"]).optional(),
});
const Hooks = z.record(z.string(), z.array(Matcher));

/** The hooks as entries the session's hooks service runs; events KHAELOR never fires and entries it cannot read are named. */
export function sdkHookEntries(raw: unknown, control: ControlChannel): { entries: HookEntry[]; problems: string[] } {
  const parsed = Hooks.safeParse(raw);
  if (!parsed.success) return { entries: [], problems: [`initialize: hooks must map event names to [{ matcher, hookCallbackIds }] (${parsed.error.issues[0]?.message}); no hook callbacks run`] };
  const entries: HookEntry[] = [];
  const unknown: string[] = [];
  for (const [event, matchers] of Object.entries(parsed.data)) {
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      if (matchers.length > 0) unknown.push(event);
      continue;
    }
    for (const m of matchers) {
      for (const id of m.hookCallbackIds) {
        entries.push({
          event: event as HookEvent,
          matcher: m.matcher ?? "",
          command: `SDK hook callback ${id}`,
          timeoutS: m.timeout ?? DEFAULT_TIMEOUT_S,
          file: "the host program",
          scope: "host",
          ...(m.onFailure ? { onFailure: m.onFailure } : {}),
          callback: async (input, signal) => {
            const a = await control.request({ subtype: "hook_callback", callback_id: id, input, ...(typeof input.tool_use_id === "string" ? { tool_use_id: input.tool_use_id } : {}) }, signal);
            return a.ok ? { ok: true, output: a.response } : { ok: false, error: a.error };
          },
        });
      }
    }
  }
  const problems = unknown.length > 0 ? [`initialize: hook callbacks for ${unknown.join(", ")} never run: KHAELOR fires ${HOOK_EVENTS.join(", ")}`] : [];
  return { entries, problems };
}
