// Claude Code's PermissionUpdate objects (what can_use_tool offers as permission_suggestions and a
// host answers with as updatedPermissions), translated to and from our rules and grant scopes.
import type { PermissionMode } from "../../events/types.ts";
import type { GrantScope, Suggestion } from "../../permissions/index.ts";

export type PermissionUpdate = {
  type: "addRules";
  rules: Array<{ toolName: string; ruleContent?: string }>;
  behavior: "allow";
  destination: "session" | "localSettings" | "userSettings" | "projectSettings";
};

const DESTINATION: Record<GrantScope, PermissionUpdate["destination"]> = { session: "session", local: "localSettings", user: "userSettings" };

function splitRule(rule: string): { toolName: string; ruleContent?: string } {
  const m = /^([A-Za-z]+)\((.*)\)$/s.exec(rule);
  return m ? { toolName: m[1]!, ruleContent: m[2]! } : { toolName: rule };
}

/** The app's "allow always" choices for this ask, as the host's suggestions (local first, like the panel's `a`). */
export function suggestionsFor(s: Suggestion | undefined): PermissionUpdate[] {
  if (!s) return [];
  return (["local", "session", "user"] as const).map((scope) => ({ type: "addRules", rules: s.rules.map(splitRule), behavior: "allow", destination: DESTINATION[scope] }));
}

/**
 * Where the host asked us to save the suggested rule, if it did. Only our own suggestion can be
 * saved (the gate saves the rules it computed, never rules a host made up); projectSettings, which
 * we do not write to from an answer, saves to the local file like the app does.
 */
export function grantScopeOf(updates: unknown): GrantScope | null {
  if (!Array.isArray(updates)) return null;
  for (const u of updates) {
    if (typeof u !== "object" || u === null) continue;
    const { type, behavior, destination } = u as Record<string, unknown>;
    if (type !== "addRules" || behavior !== "allow") continue;
    if (destination === "session") return "session";
    if (destination === "userSettings") return "user";
    if (destination === "localSettings" || destination === "projectSettings") return "local";
  }
  return null;
}

const MODES = new Set<string>(["default", "acceptEdits", "plan", "bypassPermissions", "dontAsk"]);

/**
 * The mode a host's answer switches to (Claude Code's `setMode` update), if it names one: an
 * approved plan (ExitPlanMode) continues in it.
 */
export function modeOf(updates: unknown): PermissionMode | null {
  if (!Array.isArray(updates)) return null;
  for (const u of updates) {
    if (typeof u !== "object" || u === null) continue;
    const { type, mode } = u as Record<string, unknown>;
    if (type === "setMode" && typeof mode === "string" && MODES.has(mode)) return mode as PermissionMode;
  }
  return null;
}
