import { z } from "zod";
import { existsSync, statSync } from "node:fs";
import { canEncode, encodeText, type TextEncodingName } from "../workspace/encoding.ts";
import { commitChange, staleReason } from "./file-change.ts";
import { clipDiff, diffTexts } from "./numbered-diff.ts";
import { displayPath, fail, localWorkspace, ok } from "./results.ts";
import { encodingLabel, loadFile } from "./text-file.ts";
import type { LocalWorkspace } from "../workspace/types.ts";
import type { Tool } from "./types.ts";
import description from "./write.md" with { type: "text" };

const schema = z.object({
  file_path: z.string().min(1).describe("The file to write (absolute, or relative to the working directory)"),
  content: z.string().describe("The whole new content of the file"),
});
type Input = z.infer<typeof schema>;

const DIFF_CHARS = 2000;

export const writeTool: Tool<Input> = {
  name: "write",
  description,
  inputSchema: schema,
  readOnly: false,
  destructive: true,
  summarize: (i) => {
    const n = lineCount(i.content);
    return `write ${i.file_path} (${n} line${n === 1 ? "" : "s"})`;
  },
  // Before the permission gate: only about files this session has read, so that nothing is
  // learnt about one the rules may hide (not even whether it exists).
  async precheck(input, ctx) {
    const ws = localWorkspace(ctx);
    const abs = ws.resolve(input.file_path);
    if (ws.reads.check(abs) === "unread") return null;
    const why = existsSync(abs) ? overwriteProblem(ws, abs) : null;
    return why ? fail(why) : null;
  },
  async run(input, ctx) {
    const ws = localWorkspace(ctx);
    const abs = ws.resolve(input.file_path);
    const shown = displayPath(ws, abs);

    if (!existsSync(abs)) {
      const bytes = Buffer.from(input.content, "utf8");
      await commitChange(ws, abs, null, bytes, "write", ctx.toolUseId);
      const lines = lineCount(input.content);
      const d = diffTexts(shown, "", input.content);
      return ok(`Created ${shown} (${lines} lines, ${bytes.length} bytes).`, { path: abs, diff: d.unified });
    }
    const why = overwriteProblem(ws, abs);
    if (why) return fail(why);

    const old = loadFile(abs);
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
    await commitChange(ws, abs, old.bytes, bytes, "write", ctx.toolUseId);
    const before = old.binary ? "" : old.text.replace(/\r\n/g, "\n");
    const d = diffTexts(shown, before, content.replace(/\r\n/g, "\n"));
    if (d.added === 0 && d.removed === 0) return ok(`Wrote ${shown}: content unchanged.${note}`, { path: abs });
    return ok(`Updated ${shown}: +${d.added} -${d.removed} lines.${note}\n${clipDiff(d.numbered, DIFF_CHARS)}`, { path: abs, diff: d.unified });
  },
};

/** Why an existing path may not be overwritten now, or null. */
function overwriteProblem(ws: LocalWorkspace, abs: string): string | null {
  if (statSync(abs).isDirectory()) return `${displayPath(ws, abs)} is a directory; give a file path.`;
  return staleReason(ws, abs);
}

function lineCount(content: string): number {
  return content === "" ? 0 : content.split("\n").length - (content.endsWith("\n") ? 1 : 0);
}
