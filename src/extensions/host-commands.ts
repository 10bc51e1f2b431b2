// The slash commands a program driving KHAELOR can send as a prompt (ACP's
// available_commands_update, stream-json's init and initialize): the built-ins those modes run
// themselves, then the user's and the project's custom commands and skills, which the session
// expands. Built-ins win a clash, as they do when the prompt runs.
import type { SlashEntry } from "./session-extensions.ts";

export type HostCommand = { name: string; description: string; argumentHint?: string; kind: "builtin" | "command" | "skill" };

const BUILTINS: HostCommand[] = [{ name: "compact", description: "Summarise the conversation to free context", argumentHint: "optional instructions for the summary", kind: "builtin" }];

export function hostCommands(custom: SlashEntry[]): HostCommand[] {
  const taken = new Set(BUILTINS.map((b) => b.name));
  const rest = custom
    .filter((e) => !taken.has(e.name))
    .map((e): HostCommand => {
      const from = e.plugin ? `plugin ${e.plugin}` : e.scope === "project" ? "project" : "user";
      const description = `${e.description} (${from} ${e.kind})`;
      // A skill takes what to use it for; a command says what it takes in its argument-hint.
      const hint = e.argumentHint ?? (e.kind === "skill" ? "optional: what to use the skill for" : undefined);
      return { name: e.name, description, ...(hint ? { argumentHint: hint } : {}), kind: e.kind };
    });
  return [...BUILTINS, ...rest];
}
