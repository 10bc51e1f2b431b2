import { z } from "zod";
import { statSync } from "node:fs";
import { extname } from "node:path";
import type { ImageMediaType } from "../model/types.ts";
import { answering, fail, localWorkspace, ok, displayPath, withNotes } from "./results.ts";
import { RESULT_BUDGET_CHARS } from "./output-budget.ts";
import { didYouMean } from "./suggest-paths.ts";
import { FileReadError, fileKind, formatBytes, readRegularFile } from "../workspace/safe-read.ts";
import { describeBinary, encodingLabel, loadWorkFile, MAX_LOAD_BYTES } from "./text-file.ts";
import { resolveIn } from "./facts.ts";
import type { Tool } from "./types.ts";
import description from "./read.md" with { type: "text" };

export const DEFAULT_LINE_LIMIT = 2000;
export const MAX_LINE_CHARS = 2000;
const MAX_FILE_BYTES = 50 * 1024 * 1024;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

const IMAGE_TYPES: Record<string, ImageMediaType> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

const schema = z.object({
  file_path: z.string().min(1),
  offset: z.number().int().min(0).optional(),
  limit: z.number().int().min(1).optional(),
});
type Input = z.infer<typeof schema>;

/** `cat -n` layout: the number right-aligned in six columns, a tab, the line. */
export const numberLine = (n: number, line: string) => `${String(n).padStart(6)}\t${line}`;

export const readTool: Tool<Input> = {
  name: "read",
  description,
  inputSchema: schema,
  readOnly: true,
  destructive: false,
  claudeName: "Read",
  kind: "read",
  insteadOf: "cat/head/tail",
  reach: (i, cwd) => ({ paths: [{ path: resolveIn(cwd, i.file_path), ...(i.offset !== undefined ? { line: i.offset } : {}) }] }),
  preview: (i) => ({ detail: { label: "path", text: i.file_path } }),
  summarize: (i) => `read ${i.file_path}${i.offset || i.limit ? ` (lines ${i.offset ?? 1}${i.limit ? `-${(i.offset ?? 1) + i.limit - 1}` : "+"})` : ""}`,
  async run(input, ctx) {
    const ws = localWorkspace(ctx);
    const abs = ws.resolve(input.file_path);
    const shown = displayPath(ws, abs);
    let file;
    try {
      const st = statSync(abs);
      if (st.isDirectory()) {
        return fail(`${shown} is a directory, not a file. Use glob to list its files (e.g. pattern "${shown === "." ? "" : shown + "/"}**/*").`);
      }
      // A FIFO would block the whole process on open, /dev/zero would never end: regular files only.
      if (!st.isFile()) return fail(`${shown} is ${fileKind(st)}, not a regular file; read only reads regular files.`);
      if (st.size > MAX_FILE_BYTES && input.offset === undefined && input.limit === undefined) {
        return fail(`${shown} is ${(st.size / 1048576).toFixed(0)} MB, too large to read whole. Use grep to find the part you need, or read with offset and limit.`);
      }
      const type = IMAGE_TYPES[extname(abs).toLowerCase()];
      if (type) {
        if (st.size > MAX_IMAGE_BYTES) return fail(`${shown} is an image of ${(st.size / 1048576).toFixed(1)} MB; images over 5 MB cannot be sent to the model.`);
        const { bytes } = readRegularFile(abs, { maxBytes: MAX_IMAGE_BYTES });
        ws.reads.record(abs, bytes, st.mtimeMs);
        const data = bytes.toString("base64");
        return {
          content: [
            { type: "text", text: `Image ${shown} (${type}, ${bytes.length} bytes)` },
            { type: "image", source: { type: "base64", media_type: type, data } },
          ],
          display: { path: abs },
          response: { type: "image", file: { base64: data, type, originalSize: bytes.length } },
        };
      }
      file = await loadWorkFile(ws, abs, input.offset === undefined && input.limit === undefined ? MAX_FILE_BYTES : undefined);
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      if (err instanceof FileReadError && err.code === "EFBIG") return fail(`${shown} is too large to read (over ${formatBytes(input.offset === undefined && input.limit === undefined ? MAX_FILE_BYTES : MAX_LOAD_BYTES)}). Use grep to find the part you need, or bash (sed -n, head) for a range.`);
      if (err instanceof FileReadError && err.code === "ENOTREG") return fail(`${shown} is not a regular file (it was swapped while being read); read only reads regular files.`);
      if (err.code === "ENOENT" || err.code === "ENOTDIR") return fail(`File not found: ${shown}.${didYouMean(ws, abs)}`);
      if (err.code === "EACCES") return fail(`Permission denied reading ${shown}.`);
      throw e;
    }
    ws.reads.record(abs, file.bytes, file.stat.mtimeMs);
    // Claude Code's Read result, as its PostToolUse hooks read it: the lines shown, without numbers.
    const shownLines = (content: string[], startLine: number, totalLines: number) => ({ type: "text", file: { filePath: abs, content: content.join("\n"), numLines: content.length, startLine, totalLines } });
    const nothing = (text: string) => answering(ok(text, { path: abs }), shownLines([], 1, 0));
    if (file.binary) {
      return nothing(`${shown} is a binary file (${describeBinary(file.bytes)}, ${file.bytes.length} bytes); its contents are not shown. Use bash (e.g. file, xxd | head) if you need to inspect it.`);
    }
    if (file.text.length === 0) return nothing(`[${shown} is empty]`);

    const lines = file.text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    const total = lines.length;
    const start = Math.max(1, input.offset ?? 1);
    if (start > total) return nothing(`[${shown} has only ${total} line${total === 1 ? "" : "s"}; offset ${start} is past the end]`);
    const limit = input.limit ?? DEFAULT_LINE_LIMIT;
    const end = Math.min(total, start + limit - 1);

    const out: string[] = [];
    const content: string[] = [];
    let used = 0;
    let last = start - 1;
    let cutLines = 0;
    for (let n = start; n <= end; n++) {
      let line = lines[n - 1]!;
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line.length > MAX_LINE_CHARS) {
        line = `${line.slice(0, MAX_LINE_CHARS)}… [line cut: ${line.length - MAX_LINE_CHARS} more characters]`;
        cutLines++;
      }
      const row = numberLine(n, line);
      if (used + row.length + 1 > RESULT_BUDGET_CHARS && out.length > 0) break;
      out.push(row);
      content.push(line);
      used += row.length + 1;
      last = n;
    }
    // The model's notes say how to read on; the user's only what was left out.
    const notes: string[] = [];
    const userNotes: string[] = [];
    const note = (said: string, advice = "") => {
      userNotes.push(said);
      notes.push(said + advice);
    };
    if (last < total) note(`showing lines ${start}-${last} of ${total}`, `; continue with offset=${last + 1}`);
    if (cutLines) note(`${cutLines} long line${cutLines === 1 ? " was" : "s were"} cut`, "; use grep or bash (cut -c) to see them whole");
    if (file.encoding !== "utf-8") note(`encoding: ${encodingLabel[file.encoding]}`);
    if (file.eol === "crlf") note("line endings: CRLF (edits keep them)");
    const { text, display } = withNotes(out.join("\n"), notes, userNotes, { path: abs });
    return answering(ok(text, display), shownLines(content, start, total));
  },
};
