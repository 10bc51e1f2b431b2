import { z } from "zod";
import { existsSync, statSync } from "node:fs";
import { canEncode, encodeText } from "../workspace/encoding.ts";
import { planEdit, type Tolerance } from "./edit-match.ts";
import { changedSincePlanned, commitChange, failsOnceAllowed, staleReason } from "./file-change.ts";
import { clipDiff, diffTexts, type DiffHunk } from "./numbered-diff.ts";
import { answering, displayPath, fail, localWorkspace, ok } from "./results.ts";
import { encodingLabel, loadWorkFile } from "./text-file.ts";
import { resolveIn } from "./facts.ts";
import type { Tool, ToolContext, ToolPlan } from "./types.ts";
import description from "./edit.md" with { type: "text" };

const schema = z.object({
  file_path: z.string().min(1),
  old_string: z.string(),
  new_string: z.string(),
  replace_all: z.boolean().optional(),
});
type Input = z.infer<typeof schema>;

const DIFF_CHARS = 12_000;

const toleranceNote: Record<Tolerance, string> = {
  "line-number-prefixes": "old_string carried read's line-number prefixes; they were ignored",
  "markdown-fence": "old_string and new_string were wrapped in a markdown fence; it was ignored",
  "look-alike-characters": "old_string matched only with look-alike characters folded (quotes, dashes, spaces, Unicode forms); the file's own were kept",
  "indentation-flexible": "old_string matched with different indentation; new_string was re-indented to match the file",
  "line-trimmed": "old_string matched ignoring indentation and trailing whitespace; new_string was re-indented to match the file",
  "whitespace-normalised": "old_string matched ignoring differences in whitespace",
  "escape-normalised": "old_string matched after un-escaping \\n, \\t or quotes written literally",
  "trimmed-boundaries": "old_string matched without its leading/trailing whitespace",
  "block-anchor": "old_string matched by its first and last lines; the lines between were kept as the file has them",
};

/** Where each CR of a CRLF sat in the LF-normalised text, so spans can be mapped back. */
function crlfIndex(raw: string): { text: string; rawOffset(n: number): number } {
  const crs: number[] = [];
  let text = "";
  let last = 0;
  for (let i = raw.indexOf("\r\n"); i !== -1; i = raw.indexOf("\r\n", i + 2)) {
    text += raw.slice(last, i);
    crs.push(text.length);
    last = i + 1;
  }
  text += raw.slice(last);
  return {
    text,
    rawOffset(n) {
      let lo = 0;
      let hi = crs.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (crs[mid]! < n) lo = mid + 1;
        else hi = mid;
      }
      return n + lo;
    },
  };
}

/**
 * One pass over an edit: every check, then the exact bytes it will write and their diff. The diff
 * is the preview the user approves, and run() writes those bytes, so what lands is what was shown.
 */
async function planEditCall(input: Input, ctx: ToolContext): Promise<ToolPlan> {
  const ws = localWorkspace(ctx);
  const abs = ws.resolve(input.file_path);
  const shown = displayPath(ws, abs);
  const failure = (message: string): ToolPlan => ({ failure: fail(message) });
  const oldString = input.old_string.replace(/\r\n/g, "\n");
  const newString = input.new_string.replace(/\r\n/g, "\n");

  if (oldString === "") {
    const alreadyThere = () => existsSync(abs) && statSync(abs).size > 0;
    const exists = `${shown} already exists. To change it, give old_string (the text to replace); to replace it whole, read it and use write.`;
    if (alreadyThere()) return failure(exists);
    const d = diffTexts(shown, "", newString);
    return {
      preview: { path: shown, diff: d.unified, change: { path: abs, before: existsSync(abs) ? "" : null, after: newString }, ...(existsSync(abs) ? {} : { detail: { label: "new file", text: shown } }) },
      async run() {
        // Made while the user was asked: it is not the empty file this edit was planned on.
        if (alreadyThere()) return fail(exists);
        const before = existsSync(abs) ? new Uint8Array() : null;
        const how = await commitChange(ws, abs, before, Buffer.from(newString, "utf8"), "edit", ctx.toolUseId);
        return answering(ok(`Created ${shown} (${d.added} line${d.added === 1 ? "" : "s"}).${how}`, { path: abs, diff: d.unified }), claudeResponse(abs, input, d.hunks));
      },
    };
  }
  if (oldString === newString) return failure("old_string and new_string are identical: there is nothing to change. Give the new text in new_string.");

  try {
    if (statSync(abs).isDirectory()) return failure(`${shown} is a directory; edit changes files.`);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ENOENT" || err.code === "ENOTDIR") return failure(`File not found: ${shown}. To create a new file, use write (or edit with an empty old_string).`);
    throw e;
  }
  // Before anything about the content is said: a file this session has not read (perhaps one it
  // may not read) gets the same answer whatever it holds.
  const stale = await staleReason(ws, abs);
  if (stale) return failure(stale);
  const file = await loadWorkFile(ws, abs);
  if (file.binary) return failure(`${shown} is a binary file; edit changes text files only.`);

  const raw = file.text;
  const norm = crlfIndex(raw);
  const plan = planEdit(norm.text, oldString, newString, input.replace_all ?? false);
  if (!plan.ok) return failure(`${plan.message.replace(/^old_string/, `In ${shown}, old_string`)}`);

  let out = "";
  let pos = 0;
  for (const r of plan.replacements) {
    const start = norm.rawOffset(r.start);
    const end = norm.rawOffset(r.end);
    out += raw.slice(pos, start) + (file.eol === "crlf" ? r.text.replace(/\n/g, "\r\n") : r.text);
    pos = end;
  }
  out += raw.slice(pos);
  if (raw.endsWith("\n") && out.length > 0 && !out.endsWith("\n")) out += file.eol === "crlf" ? "\r\n" : "\n";

  if (!canEncode(out, file.encoding)) {
    return failure(`${shown} is ${encodingLabel[file.encoding]} and new_string has characters it cannot hold. Use only Latin-1 characters, or convert the file to UTF-8 first (write it whole).`);
  }
  const bytes = encodeText(out, file.encoding);
  const d = diffTexts(shown, norm.text, out.replace(/\r\n/g, "\n"));
  // One line on every tolerance the match needed, so the model learns to send the file's exact text.
  const note = plan.tolerances.map((t) => toleranceNote[t]).join("; ");
  return {
    // The user is told, in words for them, when the text did not match exactly; the diff is what lands either way.
    preview: { path: shown, diff: d.unified, change: { path: abs, before: raw, after: out }, ...(note ? { detail: { label: "note", text: note.replace(/\bold_string\b/g, "the text to replace").replace(/\bnew_string\b/g, "the new text") } } : {}) },
    async run() {
      const moved = await changedSincePlanned(ws, abs, file.bytes);
      if (moved) return fail(moved);
      const how = await commitChange(ws, abs, file.bytes, bytes, "edit", ctx.toolUseId);
      const count = plan.replacements.length > 1 ? ` (${plan.replacements.length} replacements)` : "";
      const header = `Edited ${shown}${count}: +${d.added} -${d.removed} lines.${how}${note ? `\nTolerance used: ${note} (send old_string exactly as the file has it).` : ""}`;
      return answering(ok(`${header}\n${clipDiff(d.numbered, DIFF_CHARS)}`, { path: abs, diff: d.unified }), claudeResponse(abs, input, d.hunks));
    },
  };
}

/** Claude Code's Edit result, as its PostToolUse hooks read it. */
const claudeResponse = (filePath: string, input: Input, structuredPatch: DiffHunk[]) => ({
  filePath,
  oldString: input.old_string,
  newString: input.new_string,
  replaceAll: input.replace_all === true,
  structuredPatch,
  userModified: false,
  success: true,
});

export const editTool: Tool<Input> = {
  name: "edit",
  description,
  inputSchema: schema,
  readOnly: false,
  destructive: false,
  claudeName: "Edit",
  kind: "edit",
  insteadOf: "sed/awk",
  reach: (i, cwd) => ({ paths: [{ path: resolveIn(cwd, i.file_path) }] }),
  summarize: (i) => `edit ${i.file_path}${i.replace_all ? " (all)" : ""}`,
  // Runs before the permission gate: nothing it says may depend on a file this session has not
  // read (it could be one the rules hide), not its content and not whether it exists.
  async prepare(input, ctx) {
    const ws = localWorkspace(ctx);
    const abs = ws.resolve(input.file_path);
    if (ws.reads.check(abs) !== "unread") return planEditCall(input, ctx);
    if (input.old_string !== "") return { failure: fail((await staleReason(ws, abs))!) };
    // A new file at a path not read: what stops it is said only once the call is allowed.
    const plan = await planEditCall(input, ctx);
    return "failure" in plan ? failsOnceAllowed(displayPath(ws, abs), plan.failure) : plan;
  },
};
