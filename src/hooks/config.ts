// Hooks as Claude Code's settings write them: `hooks.<Event>[] = { matcher?, hooks: [{ type:
// "command", command, timeout? }] }`, read from the user's settings (KHAELOR's and Claude Code's) and the project's
// .khaelor/settings.json and .khaelor/settings.local.json. A broken entry is reported with its
// file and skipped; the rest still load.
import { existsSync } from "node:fs";
import { z } from "zod";
import { LIMITS, readRegularText } from "../workspace/safe-read.ts";
import type { TrustItem } from "../trust/project-trust.ts";
import { fingerprintOf } from "../trust/project-trust.ts";

export const HOOK_EVENTS = ["PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SessionStart", "SessionEnd", "PreCompact", "Notification", "SubagentStart", "SubagentStop"] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];

/** Claude Code's default, in seconds. */
export const DEFAULT_TIMEOUT_S = 60;

/** "host": a hook the program driving KHAELOR registered (the Agent SDK's hook callbacks). */
export type HookScope = "user" | "project" | "local" | "host";

/** The host's answer to one hook: its JSON output (Claude Code's hook output), or why it has none. */
export type HookCallback = (input: Record<string, unknown>, signal: AbortSignal) => Promise<{ ok: true; output: unknown } | { ok: false; error: string }>;

/** One command to run for an event, with where it was written. */
export type HookEntry = {
  event: HookEvent;
  /** Absent or empty: every occurrence of the event. */
  matcher: string;
  command: string;
  timeoutS: number;
  file: string;
  scope: HookScope;
  /** A host's hook: called instead of running `command` (which only names it). */
  callback?: HookCallback;
  /** A hook that fails (an error, a wrong answer, a timeout) lets the action go on, or with "block" blocks it. */
  onFailure?: "continue" | "block";
  /** A plugin's hook: its folder (CLAUDE_PLUGIN_ROOT in its environment), and whether the plugin is on now (a project's waits for trust). */
  plugin?: PluginHooks;
};

/** A plugin's hooks/hooks.json: `${CLAUDE_PLUGIN_ROOT}` in its commands is its folder. */
export type PluginHooks = { name: string; root: string; active: () => boolean };
export type HookFile = { scope: HookScope; file: string; plugin?: PluginHooks };

const CommandHook = z.object({ type: z.literal("command"), command: z.string().min(1), timeout: z.number().positive().optional() });
const MatcherGroup = z.object({ matcher: z.string().optional(), hooks: z.array(z.unknown()) });
const HooksShape = z.record(z.string(), z.unknown());

export type LoadedHooks = { entries: HookEntry[]; problems: string[] };

/** Reads the `hooks` key of each settings file, in the order given (user, project, local). */
export function loadHooks(files: HookFile[]): LoadedHooks {
  const entries: HookEntry[] = [];
  const problems: string[] = [];
  // Claude Code's disableAllHooks, from a settings file (a plugin's hooks.json is not one).
  const offIn: { user?: string; project?: string } = {};
  for (const { scope, file, plugin } of files) {
    let raw: unknown;
    try {
      // The checked read the settings loader uses: a FIFO there must not block start-up here, and a
      // byte-order mark is dropped as it is there.
      raw = JSON.parse(readRegularText(file, LIMITS.settings));
    } catch (e) {
      // A missing file has no hooks; a settings file that cannot be read or is not JSON is reported
      // by the settings loader, a plugin's hooks.json here.
      if (plugin && existsSync(file)) problems.push(`${file}: ${e instanceof SyntaxError ? `not valid JSON (${e.message})` : (e as Error).message}; the plugin ${plugin.name}'s hooks are not loaded`);
      continue;
    }
    if (!plugin && (raw as { disableAllHooks?: unknown } | null)?.disableAllHooks === true) offIn[scope === "user" ? "user" : "project"] ??= file;
    const hooks = (raw as { hooks?: unknown } | null)?.hooks;
    if (hooks === undefined) continue;
    const shape = HooksShape.safeParse(hooks);
    if (!shape.success) {
      problems.push(`${file}: "hooks" must map event names to lists of { matcher, hooks } (ignored)`);
      continue;
    }
    for (const [event, groups] of Object.entries(shape.data)) {
      if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
        problems.push(`${file}: hooks.${event} is not an event KHAELOR runs (known: ${HOOK_EVENTS.join(", ")}); ignored`);
        continue;
      }
      if (!Array.isArray(groups)) {
        problems.push(`${file}: hooks.${event} must be a list of { matcher, hooks } (ignored)`);
        continue;
      }
      groups.forEach((g, gi) => {
        const group = MatcherGroup.safeParse(g);
        if (!group.success) {
          problems.push(`${file}: hooks.${event}[${gi}] needs a "hooks" list (ignored)`);
          return;
        }
        const matcher = group.data.matcher ?? "";
        if (matcher && matcher !== "*") {
          try {
            new RegExp(matcher);
          } catch {
            problems.push(`${file}: hooks.${event}[${gi}].matcher ${JSON.stringify(matcher)} is not a valid regular expression (ignored)`);
            return;
          }
        }
        group.data.hooks.forEach((h, hi) => {
          const cmd = CommandHook.safeParse(h);
          if (!cmd.success) {
            problems.push(`${file}: hooks.${event}[${gi}].hooks[${hi}] must be { "type": "command", "command": "...", "timeout"?: seconds } (ignored)`);
            return;
          }
          const command = plugin ? cmd.data.command.replaceAll("${CLAUDE_PLUGIN_ROOT}", plugin.root) : cmd.data.command;
          entries.push({ event: event as HookEvent, matcher, command, timeoutS: cmd.data.timeout ?? DEFAULT_TIMEOUT_S, file, scope, ...(plugin ? { plugin } : {}) });
        });
      });
    }
  }
  return disabled(entries, problems, offIn);
}

/**
 * The user's disableAllHooks turns every hook off; a project's only the project's own: turning
 * off hooks the user set (a guard, an audit log) is not the project's to decide.
 */
function disabled(entries: HookEntry[], problems: string[], offIn: { user?: string; project?: string }): LoadedHooks {
  if (offIn.user) return { entries: [], problems: [...problems, `hooks are off: disableAllHooks is set in ${offIn.user}; ${entries.length} hook${entries.length === 1 ? " is" : "s are"} not run`] };
  if (!offIn.project) return { entries, problems };
  const kept = entries.filter((e) => e.scope === "user" || e.plugin);
  const note = `${offIn.project}: disableAllHooks turns off this project's hooks only (${entries.length - kept.length} not run); your own hooks still run (set it in your user settings to turn them off)`;
  return { entries: kept, problems: [...problems, note] };
}

/** Anchored, as Claude Code matches: "Edit|Write" is Edit or Write, not "NotebookEdit". Empty or "*" is everything. */
export function matches(matcher: string, value: string | undefined): boolean {
  if (!matcher || matcher === "*") return true;
  if (value === undefined) return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(value);
  } catch {
    return false;
  }
}

/** What the trust question shows for a project hook, fingerprinted by its definition. */
export function hookTrustItem(h: HookEntry): TrustItem {
  return {
    kind: "hook",
    name: h.matcher ? `${h.event} (${h.matcher})` : h.event,
    file: h.file,
    command: h.command,
    fingerprint: fingerprintOf({ hook: h.event, matcher: h.matcher, command: h.command }),
  };
}
