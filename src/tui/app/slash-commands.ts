// The slash commands: their names and one-line help, and completion while typing "/…". This is the
// table the composer and /help read; what each command does is ./commands.ts's table, keyed by the
// same names (the compiler holds the two together: a name here without a handler there fails).
import { existsSync } from "node:fs";

export type SlashCommand = { name: string; args?: string; help: string };

export const SLASH_COMMANDS = [
  { name: "help", help: "keys and commands" },
  { name: "clear", help: "start a new session (this one stays resumable)" },
  { name: "compact", args: "[instructions]", help: "summarise the conversation to free context" },
  { name: "resume", args: "[id]", help: "switch to another session of this project" },
  { name: "sessions", help: "list this project's sessions" },
  { name: "model", args: "[name]", help: "show or switch the model" },
  { name: "effort", args: "[low|medium|high|xhigh|max|auto]", help: "how hard the model thinks and works, from the next request on" },
  { name: "cost", help: "tokens and cost of this session" },
  { name: "context", help: "the context window by category: system prompt, tools, MCP servers, skills, instructions, messages, free" },
  { name: "permissions", help: "rules in force and where they come from" },
  { name: "hooks", help: "the hooks configured, from which file, and whether they run here" },
  { name: "sandbox", help: "the OS sandbox for commands: what it allows; /sandbox on|off toggles it for this session" },
  { name: "agents", help: "the agent types the model can delegate to, and where each comes from" },
  { name: "mcp", help: "MCP servers: status, tools, reconnect" },
  { name: "plugin", help: "plugins: loaded, installed and offered by your marketplaces; turn one on or off" },
  { name: "diff", help: "what changed in the work tree since the session started" },
  { name: "undo", help: "put back what the last agent turn changed" },
  { name: "init", help: "study the project and write AGENTS.md (or update the CLAUDE.md or AGENTS.md there)" },
  { name: "review", args: "[ref]", help: "ask the model to review the uncommitted changes, or `git diff <ref>` (main...HEAD)" },
  { name: "export", args: "[file]", help: "the conversation as Markdown to the clipboard, or to a file (.html: one page, .json: the events)" },
  { name: "rewind", help: "go back to before an earlier message: code, conversation or both (Esc Esc)" },
  { name: "copy", args: "[N]", help: "the last answer (or the Nth latest) as markdown to the clipboard" },
  { name: "theme", args: "[auto|dark|light]", help: "colours for a dark or light background (alone: the next one); saved to your settings" },
  { name: "keybindings", help: "your keybindings file (Claude Code's format) in $VISUAL or $EDITOR; applied when saved" },
  { name: "edit", help: "write the prompt in $VISUAL or $EDITOR (Ctrl-G)" },
  { name: "transcript", help: "the whole session in a pager (Ctrl-T)" },
  { name: "exit", help: "leave (Ctrl-D on an empty prompt)" },
  { name: "plan", args: "[task]", help: "plan first: the agent writes a plan for you to approve, changing nothing else" },
] as const satisfies readonly SlashCommand[];

/** A built-in command's name. */
export type BuiltinCommand = (typeof SLASH_COMMANDS)[number]["name"];

/** Commands matching what follows "/" (prefix matches first, then substring); `custom` are the project's and user's own. */
export function completeSlash(text: string, custom: readonly SlashCommand[] = []): SlashCommand[] {
  const m = /^\/(\S*)$/.exec(text);
  if (!m) return [];
  const q = (m[1] ?? "").toLowerCase();
  // A custom command named like a built-in is not offered: the built-in wins (a notice said so),
  // except over the built-ins that are only a prompt (/init, /review): the user's own file replaces those.
  const replaced = new Set(custom.filter((c) => REPLACEABLE.has(c.name)).map((c) => c.name));
  const all: SlashCommand[] = [...SLASH_COMMANDS.filter((c) => !replaced.has(c.name)), ...custom.filter((c) => !isKnownCommand(c.name) || replaced.has(c.name))];
  const prefix = all.filter((c) => c.name.toLowerCase().startsWith(q));
  const inner = all.filter((c) => !c.name.toLowerCase().startsWith(q) && c.name.toLowerCase().includes(q));
  return [...prefix, ...inner];
}

/** Splits "/model opus" into its command and argument; null when the text is not a command. */
export function parseSlash(text: string): { name: string; arg: string } | null {
  const m = /^\/([a-z-]+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  if (!m) return null;
  return { name: m[1] ?? "", arg: (m[2] ?? "").trim() };
}

/**
 * The command a message means, if it means one: "/word" at the very start, the word made of
 * letters, digits and dashes and followed by a space or nothing. A path is a message: "/usr/bin/x
 * fails" (a second slash), "/tmp is full" (/tmp exists), and anything starting with a space.
 */
export function looksLikeCommand(text: string, exists: (path: string) => boolean = existsSync): string | null {
  const m = /^\/([A-Za-z][\w:.-]*)(?=\s|$)/.exec(text);
  const name = m?.[1];
  if (!name) return null;
  return isKnownCommand(name) || !exists(`/${name}`) ? name : null;
}

export function isKnownCommand(name: string): name is BuiltinCommand {
  return SLASH_COMMANDS.some((c) => c.name === name);
}

/**
 * Built-ins that only send the model a prompt of ours: a project's or user's command file of the
 * same name (a team's own .claude/commands/review.md) is what they want instead, so it wins.
 */
const REPLACEABLE: ReadonlySet<string> = new Set(["init", "review"]);

/** A built-in the session's own command or skill of that name stands in for (absent: the built-in runs). */
export function builtinWins(name: string, custom: ReadonlyArray<{ name: string }>): boolean {
  return isKnownCommand(name) && !(REPLACEABLE.has(name) && custom.some((c) => c.name === name));
}
