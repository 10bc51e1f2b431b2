import { z } from "zod";
import { isAbsolute, join } from "node:path";
import { runRipgrep } from "../workspace/ripgrep.ts";
import { fitToBudget } from "./output-budget.ts";
import { displayPath, fail, localWorkspace, ok } from "./results.ts";
import { SEARCH_TIMEOUT_MS, baseArgs, byMtimeDesc, namesHidden, searchScope } from "./search-scope.ts";
import type { Tool } from "./types.ts";
import description from "./grep.md" with { type: "text" };

export const GREP_MAX_FILES = 100;
export const GREP_MAX_LINES = 250;
const MAX_COLUMNS = 500;

const int = () => z.number().int().min(0);
const schema = z.object({
  pattern: z.string().min(1).describe("The regular expression to search for"),
  path: z.string().optional().describe("File or directory to search (default: the working directory)"),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" or "**/*.{ts,tsx}"'),
  type: z.string().optional().describe('Only files of this type, e.g. "js", "py", "rust"'),
  output_mode: z.enum(["content", "files_with_matches", "count"]).optional().describe('"files_with_matches" (default), "content" or "count"'),
  "-i": z.boolean().optional().describe("Ignore case"),
  "-n": z.boolean().optional().describe("Line numbers in content mode (default true)"),
  "-A": int().optional().describe("Lines of context after each match (content mode)"),
  "-B": int().optional().describe("Lines of context before each match (content mode)"),
  "-C": int().optional().describe("Lines of context around each match (content mode)"),
  head_limit: z.number().int().min(1).optional().describe("Show at most this many result lines or files"),
  multiline: z.boolean().optional().describe("Let patterns span lines (. matches newlines)"),
});
type Input = z.infer<typeof schema>;

export const grepTool: Tool<Input> = {
  name: "grep",
  description,
  inputSchema: schema,
  readOnly: true,
  destructive: false,
  summarize: (i) => `grep ${JSON.stringify(i.pattern)}${i.path ? ` in ${i.path}` : ""}${i.glob ? ` (${i.glob})` : ""}`,
  async run(input, ctx) {
    const ws = localWorkspace(ctx);
    const scope = searchScope(ws, input.path);
    if ("error" in scope) return fail(scope.error);
    const mode = input.output_mode ?? "files_with_matches";
    const args = [...baseArgs(namesHidden(input.path, input.glob)), "--color=never", "--with-filename", `--max-columns=${MAX_COLUMNS}`, "--max-columns-preview"];
    if (input["-i"]) args.push("-i");
    if (input.multiline) args.push("-U", "--multiline-dotall");
    if (input.glob) args.push("--glob", input.glob);
    if (input.type) args.push("--type", input.type);
    if (mode === "files_with_matches") args.push("--files-with-matches");
    else if (mode === "count") args.push("--count");
    else {
      if (input["-n"] !== false) args.push("-n");
      if (input["-C"] !== undefined) args.push("-C", String(input["-C"]));
      if (input["-A"] !== undefined) args.push("-A", String(input["-A"]));
      if (input["-B"] !== undefined) args.push("-B", String(input["-B"]));
    }
    args.push("-e", input.pattern, "--", scope.abs);

    const r = await runRipgrep(ws.ripgrepPath(), args, { cwd: ws.cwd, timeoutMs: SEARCH_TIMEOUT_MS, signal: ctx.signal });
    if (r.code === 2 && r.stdout === "") {
      const msg = r.stderr.trim();
      if (/regex parse error|unrecognized|unclosed|repetition/i.test(msg)) {
        return fail(`Invalid regex ${JSON.stringify(input.pattern)}: ${msg.split("\n").slice(-3).join(" ").trim()}. Escape special characters (\\( \\{ \\.) to match them literally.`);
      }
      if (/unrecognized file type/i.test(msg)) return fail(`${msg} (ripgrep --type-list shows the known types; or use glob instead).`);
      return fail(`grep failed: ${msg || "ripgrep error"}`);
    }
    const where = displayPath(ws, scope.abs);
    const out = r.stdout.split("\n").filter((l) => l !== "");
    if (out.length === 0) {
      return ok(`No matches for ${JSON.stringify(input.pattern)} in ${where}${r.timedOut ? " (the search timed out; narrow the path or glob)" : ""}.`);
    }
    // Paths relative to the project, as everywhere else.
    const rel = (p: string) => displayPath(ws, isAbsolute(p) ? p : join(ws.cwd, p));
    const base = displayPath(ws, scope.abs);
    const relLine = (line: string) => {
      if (!line.startsWith(scope.abs)) return line;
      const rest = line.slice(scope.abs.length);
      return base === "." && rest.startsWith("/") ? rest.slice(1) : base + rest;
    };

    let lines: string[];
    let unit: string;
    let limit: number;
    if (mode === "files_with_matches") {
      lines = byMtimeDesc(out).map(rel);
      unit = "files";
      limit = input.head_limit ?? GREP_MAX_FILES;
    } else {
      lines = out.map(relLine);
      unit = mode === "count" ? "files" : "lines";
      limit = input.head_limit ?? (mode === "count" ? GREP_MAX_FILES : GREP_MAX_LINES);
    }
    const shown = lines.slice(0, limit);
    const notes: string[] = [];
    if (lines.length > limit) notes.push(`${lines.length - limit} more ${unit} not shown; narrow the search (path, glob, type) or raise head_limit`);
    if (r.timedOut) notes.push("the search timed out, so results are incomplete; narrow the path or glob");
    if (r.truncated) notes.push("the search produced too much output and was stopped; narrow it");
    if (mode === "count") {
      const total = out.reduce((n, l) => n + Number(l.slice(l.lastIndexOf(":") + 1) || 0), 0);
      notes.unshift(`${total} matches in ${lines.length} files`);
    }
    const text = shown.join("\n") + (notes.length ? `\n\n[${notes.join("; ")}]` : "");
    return ok(fitToBudget(text, ws.spill, "grep").text);
  },
};
