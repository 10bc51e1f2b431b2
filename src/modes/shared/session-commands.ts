// The session commands a mode runs itself when a prompt names one (`/compact [instructions]`),
// one table for print, stream-json and ACP: anything else is a turn, where the session expands the
// user's and the project's own commands. (The app has its own command table in src/tui/app.)
import type { AgentSession, PlanHandoff } from "../../agent/types.ts";
import type { TurnEndReason } from "../../events/types.ts";
import type { UserBlock } from "../../model/types.ts";

/** How a prompt ended, the same shape whether it ran a session command or a turn. */
export type PromptOutcome = {
  reason: TurnEndReason;
  /** Detail for anything but "finished". */
  message?: string;
  /** The answer's text (for a command, what it did, in words). */
  text: string;
  /** The session command that ran; null for a turn. */
  command: string | null;
  /** The log could not be written: what was not saved (a turn only). */
  notSaved?: string;
  /** A plan was approved for a clean context: the mode opens the session that implements it (a turn only). */
  planHandoff?: PlanHandoff;
};

type SessionCommand = (session: AgentSession, args: string | undefined, signal: AbortSignal) => Promise<Omit<PromptOutcome, "command">>;

const COMMANDS: Record<string, SessionCommand> = {
  compact: async (session, instructions, signal) => {
    const ok = await session.compact(instructions, signal);
    return ok ? { reason: "finished", text: "Compacted the conversation." } : { reason: "error", text: "", message: "nothing to compact" };
  },
};

/**
 * The session command a prompt names, with its arguments: only a message of text (a command takes
 * no image, and one sent with an image goes to the model whole rather than lose it).
 */
export function sessionCommandOf(content: string | UserBlock[]): { name: string; args: string | undefined } | null {
  const text = typeof content === "string" ? content : content.every((b) => b.type === "text") ? content.map((b) => b.text).join("") : null;
  const m = text === null ? null : /^\/([\w-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m || !Object.hasOwn(COMMANDS, m[1]!)) return null;
  return { name: m[1]!, args: m[2]?.trim() || undefined };
}

/** Runs a prompt: the session command it names, or else a turn. */
export async function runPrompt(session: AgentSession, content: string | UserBlock[], signal: AbortSignal, messageId?: string): Promise<PromptOutcome> {
  const command = sessionCommandOf(content);
  if (command) return { ...(await COMMANDS[command.name]!(session, command.args, signal)), command: command.name };
  const r = await session.runTurn(content, signal, messageId !== undefined ? { messageId } : undefined);
  return { reason: r.reason, ...(r.message !== undefined ? { message: r.message } : {}), text: r.lastText, command: null, ...(r.notSaved ? { notSaved: r.notSaved } : {}), ...(r.planHandoff ? { planHandoff: r.planHandoff } : {}) };
}

/** A command file of a built-in's name is not used: the notice that says so, for the prompt that would have run it. */
export function shadowedCommandNotice(session: AgentSession, content: string | UserBlock[]): string | null {
  const command = sessionCommandOf(content);
  const file = command && session.slashCommands().find((c) => c.name === command.name)?.file;
  return file ? `/${command.name} in ${file} is not used: the built-in /${command.name} wins (rename the file to use it)` : null;
}
