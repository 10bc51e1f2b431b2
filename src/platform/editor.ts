// The user's text editor on a temporary file: $VISUAL, else $EDITOR, else vi, as git and the
// shells choose. The variable may hold arguments ("code --wait", "emacs -nw"), so it runs through
// sh with the file as "$1", never pasted into the command line. Synchronous on purpose: while the
// editor owns the terminal nothing of ours may read the tty or draw, and a blocked event loop is
// the simplest way to be sure of both.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

type Env = Record<string, string | undefined>;

export type EditResult = { ok: true; text: string } | { ok: false; error: string };

/** The editor command and the variable it came from. */
export function editorCommand(env: Env = process.env): { command: string; from: string } {
  const visual = env.VISUAL?.trim();
  if (visual) return { command: visual, from: "$VISUAL" };
  const editor = env.EDITOR?.trim();
  if (editor) return { command: editor, from: "$EDITOR" };
  return { command: "vi", from: "the default editor" };
}

/** The editor on `file` itself (/keybindings): null when it ran and exited 0, else why not. */
export function editFile(file: string, env: Env = process.env): string | null {
  const { command, from } = editorCommand(env);
  const program = command.split(/\s+/)[0] ?? command;
  if (Bun.which(program, { PATH: env.PATH ?? "" }) === null) return `${from} (${command}): command not found`;
  const r = spawnSync("sh", ["-c", `${command} "$1"`, "sh", file], { stdio: "inherit", env });
  if (r.error) return `${from} (${command}) could not start: ${r.error.message}`;
  if (r.status !== 0) return `${from} (${command}) ${r.signal ? `was ended by ${r.signal}` : `exited with status ${r.status}`}`;
  return null;
}

/** Edits `text` in the editor; the edited text, or why there is none (the caller keeps the old text). */
export function editText(text: string, env: Env = process.env): EditResult {
  const dir = mkdtempSync(join(tmpdir(), "khaelor-edit-"));
  const file = join(dir, "prompt.md");
  try {
    writeFileSync(file, text, { mode: 0o600 });
    const error = editFile(file, env);
    if (error !== null) return { ok: false, error };
    // Editors end the file with a newline the user did not type.
    return { ok: true, text: readFileSync(file, "utf8").replace(/\r?\n$/, "") };
  } catch (e) {
    return { ok: false, error: `could not edit the prompt: ${e instanceof Error ? e.message : String(e)}` };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
