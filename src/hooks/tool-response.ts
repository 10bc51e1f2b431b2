// PostToolUse's tool_response in Claude Code's per-tool shape, so a script written for it reads the
// same fields here: Write and Edit `filePath` and `structuredPatch`, Bash `stdout`/`interrupted`,
// Read `file.content`, Glob and Grep `filenames`. Made from what the call was given and what it
// returned; what we cannot know as Claude Code does is documented in docs/hooks.md.
import { parsePatch } from "diff";
import { isAbsolute, resolve } from "node:path";
import { outcomeText } from "../tools/results.ts";
import type { ToolOutcome } from "../tools/types.ts";

type Input = Record<string, unknown>;

/** The text of the result, and the part of it the user is shown (the rest is notes for the model). */
function texts(r: ToolOutcome): { all: string; body: string } {
  const all = outcomeText(r.content);
  return { all, body: r.display?.body !== undefined ? all.slice(0, r.display.body) : all };
}

/** Claude Code's structuredPatch: the hunks of the change. */
function structuredPatch(diff: string | undefined): Array<{ oldStart: number; oldLines: number; newStart: number; newLines: number; lines: string[] }> {
  if (!diff) return [];
  try {
    return parsePatch(diff).flatMap((p) => p.hunks.map(({ oldStart, oldLines, newStart, newLines, lines }) => ({ oldStart, oldLines, newStart, newLines, lines })));
  } catch {
    return [];
  }
}

const str = (v: unknown): string => (typeof v === "string" ? v : "");

export function claudeToolResponse(tool: string, input: Input, r: ToolOutcome, cwd: string): unknown {
  const { all, body } = texts(r);
  const filePath = str(input.file_path);
  const lines = (text: string) => text.split("\n").filter((l) => l !== "");
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(cwd, p));
  switch (tool) {
    case "Write":
      return { type: /^Created /.test(all) ? "create" : "update", filePath, content: str(input.content), structuredPatch: structuredPatch(r.display?.diff), success: !r.isError };
    case "Edit":
      return { filePath, oldString: str(input.old_string), newString: str(input.new_string), replaceAll: input.replace_all === true, structuredPatch: structuredPatch(r.display?.diff), userModified: false, success: !r.isError };
    case "Bash":
      // Our shell sends stderr into stdout (the model reads them interleaved, as the user would have).
      return { stdout: body === "(no output)" ? "" : body, stderr: "", interrupted: /timed out|cancelled by the user/.test(r.display?.notes ?? ""), isImage: false };
    case "Read": {
      const image = typeof r.content !== "string" ? r.content.find((b) => b.type === "image") : undefined;
      if (image && image.type === "image" && image.source.type === "base64") return { type: "image", file: { base64: image.source.data, type: image.source.media_type, originalSize: Math.floor((image.source.data.length * 3) / 4) } };
      const numbered = body.split("\n").filter((l) => /^\s*\d+\t/.test(l));
      const startLine = numbered.length ? Number(/^\s*(\d+)\t/.exec(numbered[0]!)![1]) : 1;
      const total = /showing lines \d+-\d+ of (\d+)/.exec(r.display?.notes ?? "");
      return {
        type: "text",
        file: { filePath, content: numbered.map((l) => l.replace(/^\s*\d+\t/, "")).join("\n"), numLines: numbered.length, startLine, totalLines: total ? Number(total[1]) : startLine - 1 + numbered.length },
      };
    }
    case "Glob": {
      // The list, less our notes: "No file matched … directly", "[12 more not shown …]".
      const filenames = lines(body).filter((l) => !/^(\[|No files? match)/.test(l)).map(abs);
      return { filenames, numFiles: filenames.length, truncated: /more not shown|stopped early/.test(all), durationMs: r.durationMs };
    }
    case "Grep": {
      const mode = str(input.output_mode) || "files_with_matches";
      if (mode === "content") return { mode, content: body, numLines: lines(body).length, filenames: [], numFiles: 0 };
      const filenames = /^No matches/.test(body) ? [] : lines(body).map((l) => abs(mode === "count" ? l.replace(/:\d+$/, "") : l));
      return { mode, filenames, numFiles: filenames.length };
    }
    default:
      // MCP tools and ours (Process): the result as the tool gave it, text blocks and all.
      return typeof r.content === "string" ? r.content : r.content;
  }
}
