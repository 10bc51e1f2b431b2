import { z } from "zod";
import { existsSync, statSync } from "node:fs";
import { canEncode, encodeText, type TextEncodingName } from "../workspace/encoding.ts";
import { changedSincePlanned, commitChange, failsOnceAllowed, staleReason } from "./file-change.ts";
import { clipDiff, diffTexts } from "./numbered-diff.ts";
import { answering, displayPath, fail, localWorkspace, ok } from "./results.ts";
import { encodingLabel, loadWorkFile } from "./text-file.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import { resolveIn } from "./facts.ts";
import type { Tool } from "./types.ts";
import description from "./write.md" with { type: "text" };

const schema = z.object({
  file_path: z.string().min(1),
  content: z.string(),
});
type Input = z.infer<typeof schema>;

const DIFF_CHARS = 2000;

export const writeTool: Tool<Input> = {
  name: "write",
  description,
  inputSchema: schema,
  readOnly: false,
  destructive: true,
  claudeName: "Write",
  kind: "edit",
  insteadOf: "echo or heredoc redirection",
  reach: (i, cwd) => ({ paths: [{ path: resolveIn(cwd, i.file_path) }] }),
  summarize: (i) => {
    const n = lineCount(i.content);
    return `write ${i.file_path} (${n} line${n === 1 ? "" : "s"})`;
  },
  // One pass: the diff shown to the user asked to allow the write is of the bytes run() writes.
  // Before the permission gate, only files this session has read are spoken of, so that nothing is
  // learnt about one the rules may hide (not even whether it exists).
  async prepare(input, ctx) {
    const ws = localWorkspace(ctx);
    const abs = ws.resolve(input.file_path);
    const shown = displayPath(ws, abs);

    if (!existsSync(abs)) {
      const bytes = Buffer.from(input.content, "utf8");
      const d = diffTexts(shown, "", input.content);
      return {
        preview: { path: shown, diff: d.unified, change: { path: abs, before: null, after: input.content }, detail: { label: "new file", text: shown } },
        async run() {
          // Made while the user was asked: this write was planned as a new file.
          if (existsSync(abs)) return fail((await overwriteProblem(ws, abs)) ?? `${shown} appeared on disk before this write ran: read it, then write again.`);
          const how = await commitChange(ws, abs, null, bytes, "write", ctx.toolUseId);
          const created = ok(`Created ${shown} (${lineCount(input.content)} lines, ${bytes.length} bytes).${how}`, { path: abs, diff: d.unified });
          return answering(created, { type: "create", filePath: abs, content: input.content, structuredPatch: d.hunks, success: true });
        },
      };
    }
    const why = await overwriteProblem(ws, abs);
    if (why) return ws.reads.check(abs) === "unread" ? failsOnceAllowed(shown, fail(why)) : { failure: fail(why) };

    const old = await loadWorkFile(ws, abs);
    let content = input.content;
    // Keep the file's line endings: models write LF even into CRLF files.
    if (!old.binary && old.eol === "crlf" && !content.includes("\r")) content = content.replace(/\n/g, "\r\n");
    let encoding: TextEncodingName = old.binary ? "utf-8" : old.encoding;
    let note = "";
    if (!canEncode(content, encoding)) {
      note = ` The file was ${encodingLabel[encoding]}; the new content has characters it cannot hold, so it is now UTF-8.`;
      encoding = "utf-8";
    }
    const bytes = encodeText(content, encoding);
    const before = old.binary ? "" : old.text.replace(/\r\n/g, "\n");
    const d = diffTexts(shown, before, content.replace(/\r\n/g, "\n"));
    const unchanged = d.added === 0 && d.removed === 0;
    return {
      preview: unchanged
        ? { path: shown, detail: { label: "file", text: `${shown} (content unchanged)` } }
        : { path: shown, diff: d.unified, change: { path: abs, before: old.binary ? null : old.text, after: content } },
      async run() {
        const moved = await changedSincePlanned(ws, abs, old.bytes);
        if (moved) return fail(moved);
        const how = await commitChange(ws, abs, old.bytes, bytes, "write", ctx.toolUseId);
        // Claude Code's Write result, as its PostToolUse hooks read it.
        const response = { type: "update", filePath: abs, content: input.content, structuredPatch: unchanged ? [] : d.hunks, success: true };
        if (unchanged) return answering(ok(`Wrote ${shown}: content unchanged.${note}${how}`, { path: abs }), response);
        return answering(ok(`Updated ${shown}: +${d.added} -${d.removed} lines.${note}${how}\n${clipDiff(d.numbered, DIFF_CHARS)}`, { path: abs, diff: d.unified }), response);
      },
    };
  },
};

/** Why an existing path may not be overwritten now, or null. */
async function overwriteProblem(ws: LocalWorkspace, abs: string): Promise<string | null> {
  if (statSync(abs).isDirectory()) return `${displayPath(ws, abs)} is a directory; give a file path.`;
  return staleReason(ws, abs);
}

function lineCount(content: string): number {
  return content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
}
