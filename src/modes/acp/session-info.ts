// What an editor is told about a session: the permission modes it may switch between, the slash
// commands a prompt may run, and the model as a config option (its model picker).
import type * as acp from "@agentclientprotocol/sdk";
import type { SessionModeState } from "@agentclientprotocol/sdk";
import type { AgentSession } from "../../agent/types.ts";
import type { PermissionMode } from "../../events/types.ts";
import { hostCommands } from "../../extensions/host-commands.ts";
import { SUGGESTED_MODELS } from "../../model/models.ts";

export const MODES: Array<{ id: PermissionMode; name: string; description: string }> = [
  { id: "default", name: "Default", description: "Ask before edits, commands and anything outside the project" },
  { id: "acceptEdits", name: "Accept edits", description: "Edit files in the project without asking; ask before commands" },
  { id: "plan", name: "Plan", description: "Read and plan only: nothing is changed or run" },
  { id: "bypassPermissions", name: "Bypass permissions", description: "Run everything without asking (deny rules and the hardline floor still hold)" },
];

export const modeState = (s: AgentSession): SessionModeState => ({ currentModeId: s.permissionMode(), availableModes: MODES });

/** /compact, then the user's and the project's custom commands and skills (session/prompt "/name args" runs one). */
export const availableCommands = (s: AgentSession): acp.AvailableCommand[] =>
  hostCommands(s.slashCommands()).map((c) => ({ name: c.name, description: c.description, ...(c.argumentHint ? { input: { hint: c.argumentHint } } : {}) }));

/** The model as a session config option (an editor's model picker): the suggested models and the one in use. */
export const configOptions = (s: AgentSession): acp.SessionConfigOption[] => {
  const models = [...new Set([s.model(), ...SUGGESTED_MODELS])];
  return [{ id: "model", name: "Model", category: "model", type: "select", currentValue: s.model(), options: models.map((m) => ({ value: m, name: m })) }];
};
