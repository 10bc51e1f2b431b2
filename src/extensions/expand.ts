// Turns `/name args` into the prompt a custom command or skill stands for: $ARGUMENTS and $1…$9
// filled in, each !`cmd` replaced by what it printed and each @path by the file, both through
// the caller's tools (so the permission rules decide, as for any call the model makes).

export type Expander = {
  /** Runs a shell command through the rules; what it printed, or why it did not run. */
  shell(command: string): Promise<string>;
  /** Reads a file through the rules; null when there is no such file (the @ stays as written). */
  include(path: string): Promise<string | null>;
};

/** Splits like a shell would for $1…$9: spaces separate, quotes group. */
export function splitArgs(args: string): string[] {
  const out: string[] = [];
  const re = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (let m = re.exec(args); m; m = re.exec(args)) out.push(m[1] ?? m[2] ?? m[3] ?? "");
  return out;
}

export function substituteArgs(body: string, args: string): string {
  const positional = splitArgs(args);
  let used = false;
  const text = body.replace(/\$(ARGUMENTS|[1-9])\b/g, (_, k: string) => {
    used = true;
    return k === "ARGUMENTS" ? args : (positional[Number(k) - 1] ?? "");
  });
  // Claude Code's rule: a command that never mentions its arguments gets them appended.
  return used || !args.trim() ? text : `${text.trimEnd()}\n\nARGUMENTS: ${args}`;
}

export async function expandBody(body: string, args: string, x: Expander): Promise<string> {
  let text = substituteArgs(body, args);
  const shells = [...text.matchAll(/!`([^`\n]+)`/g)];
  for (const m of shells) {
    const output = await x.shell(m[1]!);
    text = text.replace(m[0], () => output.trimEnd());
  }
  const paths = [...new Set([...text.matchAll(/(?<=^|\s)@([^\s`'"]+[^\s`'".,;:!?)])/g)].map((m) => m[1]!))];
  for (const p of paths) {
    const content = await x.include(p);
    if (content === null) continue;
    text = text.replace(new RegExp(`(?<=^|\\s)@${escape(p)}(?![^\\s.,;:!?)])`, "g"), () => `@${p}\n<file path="${p}">\n${content.trimEnd()}\n</file>`);
  }
  return text;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `/name rest` → the name and the rest; null when the text is not a slash command. */
export function parseSlash(input: string): { name: string; args: string } | null {
  const m = /^\/([A-Za-z0-9][\w.:-]*)(?:\s+([\s\S]*))?$/.exec(input.trim());
  return m ? { name: m[1]!, args: (m[2] ?? "").trim() } : null;
}
