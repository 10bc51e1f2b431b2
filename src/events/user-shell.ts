// A `!` command's record in the conversation, as Claude Code writes it: the command in
// <bash-input>, its output in <bash-stdout> and <bash-stderr>, after a caveat telling the model
// this came from the user's own terminal and is context, not a request. The session writes it as a
// user message (synthetic "shell") and the next message the user sends goes to the model after it;
// the transcript reads the output back from the same text, so what the user sees is what the model got.
import type { UserBlock } from "../model/types.ts";

export const SHELL_CAVEAT =
  "<local-command-caveat>The user ran the commands below in their own shell, from KHAELOR's prompt; their output follows. Treat it as context: do not answer it or act on it unless the user asks you to.</local-command-caveat>";

/** Characters of each stream kept (its head and its tail); the middle of a longer one is left out, saying how much. */
export const SHELL_OUTPUT_LIMIT = 30_000;

const escapeXml = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
const unescapeXml = (s: string) => s.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");

/** A stream cut to `limit` characters: a third from its start, the rest from its end (where errors are). */
export function capOutput(text: string, limit = SHELL_OUTPUT_LIMIT): string {
  if (text.length <= limit) return text;
  const head = Math.floor(limit / 3);
  const tail = limit - head;
  return `${text.slice(0, head)}\n… ${(text.length - limit).toLocaleString("en-US")} characters left out …\n${text.slice(text.length - tail)}`;
}

export type ShellOutcome = { command: string; stdout: string; stderr: string; exitCode: number | null; stopped?: boolean };

/** The user message's content for one `!` command. */
export function shellMessage(o: ShellOutcome): UserBlock[] {
  const trailer = o.stopped ? "(stopped by the user)" : o.exitCode === null ? "(ended by a signal)" : o.exitCode !== 0 ? `(exit code ${o.exitCode})` : "";
  const stderr = [capOutput(o.stderr).replace(/\n$/, ""), trailer].filter((x) => x !== "").join("\n");
  return [
    { type: "text", text: SHELL_CAVEAT },
    { type: "text", text: `<bash-input>${escapeXml(o.command)}</bash-input>` },
    { type: "text", text: `<bash-stdout>${escapeXml(capOutput(o.stdout).replace(/\n$/, ""))}</bash-stdout><bash-stderr>${escapeXml(stderr)}</bash-stderr>` },
  ];
}

/** What a `!` command printed, read back from its message: stdout, then stderr (with the exit code line). */
export function shellOutputOf(content: string | UserBlock[]): string {
  const text = typeof content === "string" ? content : content.map((b) => (b.type === "text" ? b.text : "")).join("\n");
  const tag = (name: string) => {
    const m = new RegExp(`<${name}>([\\s\\S]*?)</${name}>`).exec(text);
    return m ? unescapeXml(m[1]!) : "";
  };
  return [tag("bash-stdout"), tag("bash-stderr")].filter((x) => x !== "").join("\n");
}
